/**
 * The rows of the fund listings as the grids receive them: the delivery row (delivery spec
 * section 3 "Fund request (listing row)") and the auditor row (auditor spec section 3), shaped from
 * a page of funds and their derived fields (derive.ts).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import type { AppContext } from '../../context.js';
import {
  dataRequestStatusLabel,
  deriveFields,
  loadFundFacts,
  statusLabel,
  type DataStatusCounts,
  type FundFacts,
  type WorkPaperStatusCounts,
} from './derive.js';
import { todayIso } from '../../lib/dates.js';
import { normalizeStatus, type FundRow } from './fields.js';

/** A delivery listing row (delivery spec section 3 "Fund request (listing row)"). */
export interface FundListingRow {
  id: number;
  name: string;
  client: string;
  fundCode: string | null;
  alternateCodes: string[];
  status: string;
  statusLabel: string;
  administrator: string | null;
  administratorCode: string | null;
  administratorId: number | null;
  country: string | null;
  currency: string | null;
  engagementCode: string | null;
  accounting_standard: string | null;
  structure: string | null;
  outputType: string | null;
  requestDate: string | null;
  period_end: string | null;
  periodStart: string | null;
  auditStart: string | null;
  navClose: string | null;
  dataDue: string | null;
  hasErrors: boolean;
  runningProcesses: Array<{ status: string; stage: string }>;
  dataStatusCounts: DataStatusCounts;
  workPaperStatusCounts: WorkPaperStatusCounts;
  dataRequestStatus: string;
  dataRequestStatusLabel: string;
  selfOnboarded: boolean;
  hasCsvOutputs: boolean;
  group_key: string | null;
  aggreg_consol_flag: string | null;
  needs_rerun: boolean;
  parentId: number | null;
  children: number[];
  aggreg_force_run: boolean;
  mappings: number[];
  external_valuations: string;
  price_type_1: string | null;
  price_type_2: string | null;
  price_type_3: string | null;
  price_type_4: string | null;
  price_source_1: string | null;
  price_source_2: string | null;
  price_source_3: string | null;
  audit_comments: string | null;
  administrator_comments: string | null;
  delivery_comments: string | null;
  created_by: string | null;
  rerunDate: string | null;
  rerun_by: string | null;
  rerun_by_role: string | null;
  PM: number | null;
  TE: number | null;
  SAD: number | null;
  RTTPlus: number | null;
  RTTMinus: number | null;
  gfisClientCode: string | null;
  connected_audit: boolean;
  notes: string | null;
  processStatus: 'Processing' | 'Ready' | 'Idle';
  dataStatusUIField: string;
  workPaperStatusUIField: string;
  isParentUIField: string | null;
  isLate: boolean;
}

/** An auditor listing row (auditor spec section 3 "Fund (listing row, auditor)"). */
export interface AuditorFundRow {
  id: number;
  name: string;
  client: string;
  type: string | null;
  administrator: string | null;
  dueDate: string | null;
  uploadStatus: string;
  dataRequestStatus: string;
  dataStatus: string;
  dataStatusUIField: string;
  dataStatusCounts: DataStatusCounts;
  workPaperStatusCounts: WorkPaperStatusCounts;
  workPaperStatusUIField: string;
  isLate: boolean;
  calculationStatus: string | null;
  isStatusUnChanged: boolean;
  isParentUIField: string | null;
  group_key: string | null;
  aggreg_consol_flag: string | null;
  parentId: number | null;
}

/** One fund as read by the page query. */
export interface FundPageRow {
  fund: FundRow;
  administratorName: string | null;
  administratorCode: string | null;
  createdBy: string | null;
  rerunBy: string | null;
}

/** Shapes delivery listing rows with their derived fields (the facts loaded in batches when not given). */
export async function toListingRows(ctx: AppContext, page: FundPageRow[], given?: Map<number, FundFacts>): Promise<FundListingRow[]> {
  const facts =
    given ??
    (await loadFundFacts(
      ctx,
      page.map((p) => p.fund.id),
    ));
  const today = todayIso();
  return page.map(({ fund: f, administratorName, administratorCode, createdBy, rerunBy }) => {
    const x = facts.get(f.id)!;
    const d = deriveFields(f, x, today);
    return {
      id: f.id,
      name: f.name,
      client: f.client,
      fundCode: x.mainCode,
      alternateCodes: x.alternateCodes,
      status: normalizeStatus(f.status),
      statusLabel: statusLabel(f.status),
      administrator: administratorName,
      administratorCode,
      administratorId: f.administratorId,
      country: f.country,
      currency: f.currency,
      engagementCode: f.engagementCode,
      accounting_standard: f.accountingStandard,
      structure: f.structure,
      outputType: f.outputType,
      requestDate: f.requestDate,
      period_end: f.periodEnd,
      periodStart: f.periodStart,
      auditStart: f.auditStartDate,
      navClose: f.navCloseDate,
      dataDue: f.dueDate,
      hasErrors: d.hasErrors,
      runningProcesses: x.runningProcesses,
      dataStatusCounts: d.dataStatusCounts,
      workPaperStatusCounts: d.workPaperStatusCounts,
      dataRequestStatus: f.dataRequestStatus,
      dataRequestStatusLabel: dataRequestStatusLabel(f.dataRequestStatus),
      selfOnboarded: f.selfOnboarded,
      hasCsvOutputs: x.hasCsvOutputs,
      group_key: f.groupKey,
      aggreg_consol_flag: f.aggregConsolFlag,
      needs_rerun: f.needsRerun,
      parentId: f.parentId,
      children: x.children,
      aggreg_force_run: f.aggregForceRun,
      mappings: x.mappings,
      external_valuations: f.externalValuations,
      price_type_1: f.priceType1,
      price_type_2: f.priceType2,
      price_type_3: f.priceType3,
      price_type_4: f.priceType4,
      price_source_1: f.priceSource1,
      price_source_2: f.priceSource2,
      price_source_3: f.priceSource3,
      audit_comments: f.auditComments,
      administrator_comments: f.administratorComments,
      delivery_comments: f.deliveryComments,
      created_by: createdBy,
      rerunDate: f.rerunDate,
      rerun_by: rerunBy,
      rerun_by_role: f.rerunByRole,
      PM: f.pm,
      TE: f.te,
      SAD: f.sad,
      RTTPlus: f.rttPlus,
      RTTMinus: f.rttMinus,
      gfisClientCode: f.gfisClientCode,
      connected_audit: f.connectedAudit,
      notes: f.notes,
      processStatus: d.processStatus,
      dataStatusUIField: d.dataStatusUIField,
      workPaperStatusUIField: d.workPaperStatusUIField,
      isParentUIField: d.isParentUIField,
      isLate: d.isLate,
    };
  });
}

/** Shapes an auditor listing row. */
export function toAuditorRow(p: FundPageRow, facts: FundFacts, today = todayIso()): AuditorFundRow {
  const f = p.fund;
  const d = deriveFields(f, facts, today);
  return {
    id: f.id,
    name: f.name,
    client: f.client,
    type: f.structure,
    administrator: p.administratorName,
    dueDate: f.dueDate,
    uploadStatus: normalizeStatus(f.status),
    dataRequestStatus: f.dataRequestStatus,
    dataStatus: d.dataStatusUIField,
    dataStatusUIField: d.dataStatusUIField,
    dataStatusCounts: d.dataStatusCounts,
    workPaperStatusCounts: d.workPaperStatusCounts,
    workPaperStatusUIField: d.workPaperStatusUIField,
    isLate: d.isLate,
    calculationStatus: d.calculationStatus,
    isStatusUnChanged: false,
    isParentUIField: d.isParentUIField,
    group_key: f.groupKey,
    aggreg_consol_flag: f.aggregConsolFlag,
    parentId: f.parentId,
  };
}

/** Auditor rows for page rows (facts loaded in batches). */
export async function toAuditorRows(ctx: AppContext, page: FundPageRow[]): Promise<AuditorFundRow[]> {
  const facts = await loadFundFacts(
    ctx,
    page.map((p) => p.fund.id),
  );
  const today = todayIso();
  return page.map((p) => toAuditorRow(p, facts.get(p.fund.id)!, today));
}
