/**
 * Fund request listings: the delivery grid (`POST /funds/listing`, delivery spec sections 2-3) and
 * the auditor grid (`GET /user/funds/:offset/:limit`, `POST /user/fundsByTpa`, auditor spec 2.3
 * and 3). One page of funds is read with one SQL query (filters, search, sort, offset) plus a
 * count, then its derived fields are loaded in batches (`loadFundFacts`).
 */
import { and, asc, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { administrators, fundCodes, fundRequests as fr, savedFilters } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { dataRequestStatusLabel, deriveFields, loadFundFacts, statusLabel, todayIso, type DataStatusCounts, type FundFacts, type WorkPaperStatusCounts } from './derive.js';
import { normalizeStatus, type FundRow } from './fields.js';
import { createdByUser, FIELD_ALIASES, LISTING_FIELDS, rerunByUser } from './listing-fields.js';
import { containsText, filterCondition, normalizeFilters, normalizeSorting, orderTerms, type ListingFilter, type SortSpec } from './query-filters.js';

/** Listing page size (auditor spec section 9: fund listing 100) and the largest page served. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** Input of `listFunds` (body of POST /funds/listing). */
export const listingInputSchema = z.object({
  filters: z.unknown().optional(),
  sorting: z.unknown().optional(),
  search: z.string().max(200).optional().nullable(),
  offset: z.coerce.number().int().min(0).optional(),
  pagination: z.object({
    limit: z.coerce.number().int().min(1).max(MAX_LIMIT).optional(),
    offset: z.coerce.number().int().min(0).optional(),
  }).partial().optional(),
  filterId: z.coerce.number().int().positive().optional().nullable(),
});
export type ListingInput = z.output<typeof listingInputSchema>;

export interface Pagination {
  offset: number;
  limit: number;
  count: number;
}

/** A delivery listing row (delivery spec section 3 "Fund request (listing row)"). */
export interface FundListingRow {
  id: number; name: string; client: string; fundCode: string | null; alternateCodes: string[];
  status: string; statusLabel: string; administrator: string | null; administratorCode: string | null; administratorId: number | null;
  country: string | null; currency: string | null; engagementCode: string | null; accounting_standard: string | null; structure: string | null;
  outputType: string | null; requestDate: string | null; period_end: string | null; periodStart: string | null; auditStart: string | null;
  navClose: string | null; dataDue: string | null; hasErrors: boolean; runningProcesses: Array<{ status: string; stage: string }>;
  dataStatusCounts: DataStatusCounts; workPaperStatusCounts: WorkPaperStatusCounts; dataRequestStatus: string; dataRequestStatusLabel: string;
  selfOnboarded: boolean; hasCsvOutputs: boolean; group_key: string | null; aggreg_consol_flag: string | null; needs_rerun: boolean;
  parentId: number | null; children: number[]; aggreg_force_run: boolean; mappings: number[]; external_valuations: string;
  price_type_1: string | null; price_type_2: string | null; price_type_3: string | null; price_type_4: string | null;
  price_source_1: string | null; price_source_2: string | null; price_source_3: string | null;
  audit_comments: string | null; administrator_comments: string | null; delivery_comments: string | null;
  created_by: string | null; rerunDate: string | null; rerun_by: string | null; rerun_by_role: string | null;
  PM: number | null; TE: number | null; SAD: number | null; RTTPlus: number | null; RTTMinus: number | null;
  gfisClientCode: string | null; connected_audit: boolean; notes: string | null;
  processStatus: 'Processing' | 'Ready' | 'Idle'; dataStatusUIField: string; workPaperStatusUIField: string; isParentUIField: string | null; isLate: boolean;
}

/** An auditor listing row (auditor spec section 3 "Fund (listing row, auditor)"). */
export interface AuditorFundRow {
  id: number; name: string; client: string; type: string | null; administrator: string | null; dueDate: string | null;
  uploadStatus: string; dataRequestStatus: string; dataStatus: string; dataStatusUIField: string; dataStatusCounts: DataStatusCounts;
  workPaperStatusCounts: WorkPaperStatusCounts; workPaperStatusUIField: string; isLate: boolean; calculationStatus: string | null;
  isStatusUnChanged: boolean; isParentUIField: string | null; group_key: string | null; aggreg_consol_flag: string | null; parentId: number | null;
}

/** One fund as read by the page query. */
export interface FundPageRow {
  fund: FundRow;
  administratorName: string | null;
  administratorCode: string | null;
  createdBy: string | null;
  rerunBy: string | null;
}

const nameOf = (first: string | null, last: string | null) => (first === null ? null : `${first} ${last ?? ''}`.trim() || null);

/** The fund page query: filters, search, sort, offset and limit; `limit` null reads every row. */
export function queryFundPage(ctx: AppContext, where: SQL | undefined, order: SQL[], offset: number, limit: number | null): FundPageRow[] {
  let q = ctx.db.select({
    fund: fr,
    administratorName: administrators.name,
    administratorCode: administrators.code,
    cFirst: createdByUser.firstName, cLast: createdByUser.lastName,
    rFirst: rerunByUser.firstName, rLast: rerunByUser.lastName,
  }).from(fr)
    .leftJoin(administrators, eq(administrators.id, fr.administratorId))
    .leftJoin(createdByUser, eq(createdByUser.id, fr.createdById))
    .leftJoin(rerunByUser, eq(rerunByUser.id, fr.rerunById))
    .where(where).orderBy(...order).$dynamic();
  if (limit !== null) q = q.limit(limit).offset(offset);
  return q.all().map((r) => ({
    fund: r.fund, administratorName: r.administratorName, administratorCode: r.administratorCode,
    createdBy: nameOf(r.cFirst, r.cLast), rerunBy: nameOf(r.rFirst, r.rLast),
  }));
}

/** Number of funds matching a condition. */
export function countFunds(ctx: AppContext, where: SQL | undefined): number {
  return ctx.db.select({ n: sql<number>`count(*)` }).from(fr)
    .leftJoin(administrators, eq(administrators.id, fr.administratorId))
    .leftJoin(createdByUser, eq(createdByUser.id, fr.createdById))
    .leftJoin(rerunByUser, eq(rerunByUser.id, fr.rerunById))
    .where(where).get()!.n;
}

/** Global search: name, client or any fund code contains the text (case-insensitive). */
export function searchCondition(search: string | null | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  return or(containsText(fr.name, text), containsText(fr.client, text),
    sql`${fr.id} in (select ${fundCodes.fundRequestId} from ${fundCodes} where ${containsText(fundCodes.code, text)})`);
}

/** The filters of a saved filter the user can see (fixed ones or their own). */
function savedFilterOf(ctx: AppContext, user: User | null, id: number): unknown {
  const row = ctx.db.select().from(savedFilters).where(eq(savedFilters.id, id)).get();
  if (!row || (!row.fixed && row.userId !== user?.id)) throw new NotFoundError(`No such filter with id: ${id}`);
  return row.filter;
}

/** A validated listing query: WHERE condition and ORDER BY terms. */
export interface FundQuery {
  where: SQL | undefined;
  order: SQL[];
  filters: ListingFilter[];
  sorting: SortSpec[];
}

/**
 * Builds the WHERE and ORDER BY of a listing request. Deleted funds are listed only when a
 * status filter is given (the built-in 'Deleted' filter); the default order is request date
 * descending, then id.
 * @throws ValidationError for an unknown field or a badly shaped filter; NotFoundError for an unknown filterId
 */
export function buildFundQuery(ctx: AppContext, user: User | null, input: Pick<ListingInput, 'filters' | 'sorting' | 'search' | 'filterId'>): FundQuery {
  const filters = normalizeFilters(input.filters, LISTING_FIELDS);
  if (input.filterId) filters.push(...normalizeFilters(savedFilterOf(ctx, user, input.filterId), LISTING_FIELDS));
  const sorting = normalizeSorting(input.sorting, LISTING_FIELDS, FIELD_ALIASES);
  const conditions = filters.map((f) => filterCondition(f, LISTING_FIELDS));
  if (!filters.some((f) => f.field === 'status')) conditions.push(ne(fr.status, 'Deleted'));
  conditions.push(searchCondition(input.search));
  const order = sorting.length ? orderTerms(sorting, LISTING_FIELDS) : [desc(fr.requestDate)];
  const first = sorting[0]?.order ?? 'desc';
  order.push(first === 'desc' ? desc(fr.id) : asc(fr.id));
  return { where: and(...conditions), order, filters, sorting };
}

/** Page bounds of a request: offset (top level or in pagination), limit 1..1000 (default 100). */
export function pageOf(input: Pick<ListingInput, 'offset' | 'pagination'>): { offset: number; limit: number } {
  const offset = input.offset ?? input.pagination?.offset ?? 0;
  const limit = input.pagination?.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError('offset must be a whole number from 0');
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new ValidationError(`limit must be between 1 and ${MAX_LIMIT}`);
  return { offset, limit };
}

/** Shapes delivery listing rows with their derived fields. */
export function toListingRows(ctx: AppContext, page: FundPageRow[], facts = loadFundFacts(ctx, page.map((p) => p.fund.id))): FundListingRow[] {
  const today = todayIso();
  return page.map(({ fund: f, administratorName, administratorCode, createdBy, rerunBy }) => {
    const x = facts.get(f.id)!;
    const d = deriveFields(f, x, today);
    return {
      id: f.id, name: f.name, client: f.client, fundCode: x.mainCode, alternateCodes: x.alternateCodes,
      status: normalizeStatus(f.status), statusLabel: statusLabel(f.status),
      administrator: administratorName, administratorCode, administratorId: f.administratorId,
      country: f.country, currency: f.currency, engagementCode: f.engagementCode, accounting_standard: f.accountingStandard,
      structure: f.structure, outputType: f.outputType, requestDate: f.requestDate, period_end: f.periodEnd, periodStart: f.periodStart,
      auditStart: f.auditStartDate, navClose: f.navCloseDate, dataDue: f.dueDate, hasErrors: d.hasErrors, runningProcesses: x.runningProcesses,
      dataStatusCounts: d.dataStatusCounts, workPaperStatusCounts: d.workPaperStatusCounts,
      dataRequestStatus: f.dataRequestStatus, dataRequestStatusLabel: dataRequestStatusLabel(f.dataRequestStatus),
      selfOnboarded: f.selfOnboarded, hasCsvOutputs: x.hasCsvOutputs, group_key: f.groupKey, aggreg_consol_flag: f.aggregConsolFlag,
      needs_rerun: f.needsRerun, parentId: f.parentId, children: x.children, aggreg_force_run: f.aggregForceRun, mappings: x.mappings,
      external_valuations: f.externalValuations,
      price_type_1: f.priceType1, price_type_2: f.priceType2, price_type_3: f.priceType3, price_type_4: f.priceType4,
      price_source_1: f.priceSource1, price_source_2: f.priceSource2, price_source_3: f.priceSource3,
      audit_comments: f.auditComments, administrator_comments: f.administratorComments, delivery_comments: f.deliveryComments,
      created_by: createdBy, rerunDate: f.rerunDate, rerun_by: rerunBy, rerun_by_role: f.rerunByRole,
      PM: f.pm, TE: f.te, SAD: f.sad, RTTPlus: f.rttPlus, RTTMinus: f.rttMinus, gfisClientCode: f.gfisClientCode,
      connected_audit: f.connectedAudit, notes: f.notes,
      processStatus: d.processStatus, dataStatusUIField: d.dataStatusUIField, workPaperStatusUIField: d.workPaperStatusUIField,
      isParentUIField: d.isParentUIField, isLate: d.isLate,
    };
  });
}

/**
 * One page of the delivery listing (POST /funds/listing).
 * @returns `{rows, pagination: {offset, limit, count}}`, count being every matching fund
 * @throws ValidationError for bad filters, sorting or page bounds; NotFoundError for an unknown filterId
 */
export function listFunds(ctx: AppContext, user: User | null, input: ListingInput = {}): { rows: FundListingRow[]; pagination: Pagination } {
  const { offset, limit } = pageOf(input);
  const q = buildFundQuery(ctx, user, input);
  const page = queryFundPage(ctx, q.where, q.order, offset, limit);
  const count = page.length < limit && (page.length > 0 || offset === 0) ? offset + page.length : countFunds(ctx, q.where);
  return { rows: toListingRows(ctx, page), pagination: { offset, limit, count } };
}

/** Shapes an auditor listing row. */
export function toAuditorRow(p: FundPageRow, facts: FundFacts, today = todayIso()): AuditorFundRow {
  const f = p.fund;
  const d = deriveFields(f, facts, today);
  return {
    id: f.id, name: f.name, client: f.client, type: f.structure, administrator: p.administratorName, dueDate: f.dueDate,
    uploadStatus: normalizeStatus(f.status), dataRequestStatus: f.dataRequestStatus, dataStatus: d.dataStatusUIField,
    dataStatusUIField: d.dataStatusUIField, dataStatusCounts: d.dataStatusCounts, workPaperStatusCounts: d.workPaperStatusCounts,
    workPaperStatusUIField: d.workPaperStatusUIField, isLate: d.isLate, calculationStatus: d.calculationStatus, isStatusUnChanged: false,
    isParentUIField: d.isParentUIField, group_key: f.groupKey, aggreg_consol_flag: f.aggregConsolFlag, parentId: f.parentId,
  };
}

/** Auditor rows for page rows (facts loaded in batches). */
export function toAuditorRows(ctx: AppContext, page: FundPageRow[]): AuditorFundRow[] {
  const facts = loadFundFacts(ctx, page.map((p) => p.fund.id));
  const today = todayIso();
  return page.map((p) => toAuditorRow(p, facts.get(p.fund.id)!, today));
}

/** Auditor sorting: a field of the auditor row (or listing field) and order; default dueDate descending. */
export interface AuditorListInput {
  offset?: number;
  limit?: number;
  sort?: { field: string; order?: 'asc' | 'desc' } | null;
  /** administrator code or id */
  tpa?: string | number;
}

/**
 * One page of the auditor listing (GET /user/funds/:offset/:limit, POST /user/fundsByTpa):
 * deleted funds excluded; default sort data due date descending, then id.
 * @returns `{rows, pagination: {offset, limit, count}}`
 * @throws ValidationError for bad bounds or sort field; NotFoundError for an unknown TPA
 */
export function listFundsForAuditor(ctx: AppContext, input: AuditorListInput): { rows: AuditorFundRow[]; pagination: Pagination } {
  const { offset, limit } = pageOf({ offset: input.offset, pagination: { limit: input.limit ?? DEFAULT_LIMIT } });
  const sorting = normalizeSorting(input.sort ? [{ field: input.sort.field, order: input.sort.order ?? 'asc' }] : [{ field: 'dataDue', order: 'desc' }], LISTING_FIELDS, FIELD_ALIASES);
  const conditions: Array<SQL | undefined> = [ne(fr.status, 'Deleted')];
  if (input.tpa !== undefined) conditions.push(eq(fr.administratorId, administratorIdOf(ctx, input.tpa)));
  const where = and(...conditions);
  const order = [...orderTerms(sorting, LISTING_FIELDS), sorting[0].order === 'desc' ? desc(fr.id) : asc(fr.id)];
  const page = queryFundPage(ctx, where, order, offset, limit);
  return { rows: toAuditorRows(ctx, page), pagination: { offset, limit, count: countFunds(ctx, where) } };
}

/** The id of an administrator given by code or id. @throws NotFoundError */
export function administratorIdOf(ctx: AppContext, tpa: string | number): number {
  const asId = typeof tpa === 'number' ? tpa : /^\d+$/.test(tpa) ? Number(tpa) : null;
  const row = ctx.db.select({ id: administrators.id }).from(administrators)
    .where(asId !== null ? or(eq(administrators.id, asId), eq(administrators.code, String(tpa))) : eq(administrators.code, String(tpa).trim().toLowerCase())).get();
  if (!row) throw new NotFoundError(`No such administrator: ${tpa}`);
  return row.id;
}
