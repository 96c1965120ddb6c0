/**
 * The fund listing's filterable and sortable fields (delivery spec section 3 "Fund request
 * (listing row)" names) and their SQL: the fund request row, its administrator, the users who
 * created and reran it, and its fund codes. The SQL is built over the tables of the database in
 * use: `listingFields(storeOf(ctx).tables)`.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Dialect, Tables } from '../../db/dialect.js';
import { DATA_REQUEST_LABELS } from './derive.js';
import { parseStatus } from '../../../rules/statuses.js';
import { normalizeStatus } from './fields.js';
import { containsText, type FieldDef, type FieldRegistry, type FilterType, type ListingFilter } from '../query/query-filters.js';

/** `expr like %text%` (any case) for a text filter, `expr in (values)` for an enum filter. */
function matchOf(expr: SQLWrapper, f: ListingFilter, dialect: Dialect, enumValue?: (v: string) => unknown): SQL | undefined {
  if (f.type === 'text' && f.value.trim()) return containsText(expr, f.value.trim(), dialect);
  if (f.type === 'enum' && f.value.length)
    return inArray(
      expr as SQL,
      f.value.map((v) => (enumValue ? enumValue(v) : v)),
    );
  return undefined;
}

/**
 * A field read from a row another table holds (administrator name, user name): sorted by a
 * scalar subquery, filtered by `fk in (select id ... where match)`, so no join is needed.
 */
function lookup(fk: SQLWrapper, table: SQLWrapper, id: SQLWrapper, value: SQLWrapper): FieldDef {
  return {
    expr: sql`(select ${value} from ${table} where ${id} = ${fk})`,
    types: TEXT,
    condition: (f, dialect) => {
      const match = matchOf(value, f, dialect);
      return match && inArray(fk as SQL, sql`(select ${id} from ${table} where ${match})`);
    },
  };
}

/** Stored status of a status given by value or delivery label, case-insensitively ('Open' -> 'Approved'). */
export function statusFromInput(v: string): string {
  return parseStatus(v) ?? normalizeStatus(v.trim());
}

/** Stored data-requested status of a value or its label ('Re-requested' -> 'ReRequested'). */
export function dataRequestFromInput(v: string): string {
  const key = v.replace(/[\s-]/g, '').toLowerCase();
  return Object.keys(DATA_REQUEST_LABELS).find((k) => k.toLowerCase() === key) ?? v;
}

const BOOL_TRUE = ['true', 'yes', '1', 'y'];
const boolValue = (v: string) => BOOL_TRUE.includes(v.trim().toLowerCase());

const TEXT: readonly FilterType[] = ['text', 'enum'];
const text = (expr: SQLWrapper): FieldDef => ({ expr, types: TEXT });
const date = (expr: SQLWrapper): FieldDef => ({ expr, types: ['date'] });
const num = (expr: SQLWrapper): FieldDef => ({ expr, types: ['number', 'enum'], enumValue: Number });
const bool = (expr: SQLWrapper): FieldDef => ({ expr, types: ['enum'], enumValue: boolValue });

const registries = new WeakMap<Tables, FieldRegistry>();

/** Every listing field that can be filtered or sorted, by its wire name, over the tables of a database. */
export function listingFields(t: Tables): FieldRegistry {
  let fields = registries.get(t);
  if (!fields) registries.set(t, (fields = buildFields(t)));
  return fields;
}

/** The main fund code of the current fund request row. */
function mainCodeOf({ fundCodes, fundRequests: fr }: Tables): SQL<string | null> {
  return sql<
    string | null
  >`(select ${fundCodes.code} from ${fundCodes} where ${fundCodes.fundRequestId} = ${fr.id} and ${eq(fundCodes.main, true)} order by ${fundCodes.id} limit 1)`;
}

function buildFields(t: Tables): FieldRegistry {
  const { administrators, fundCodes, fundRequests: fr, processes, users } = t;
  const fullName = sql`trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`;
  /** Funds having a main (or alternate) code matching a text or enum filter. */
  const codeCondition =
    (main: boolean) =>
    (f: ListingFilter, dialect: Dialect): SQL | undefined => {
      const match = matchOf(fundCodes.code, f, dialect);
      return match && inArray(fr.id, sql`(select ${fundCodes.fundRequestId} from ${fundCodes} where ${and(eq(fundCodes.main, main), match)})`);
    };
  const mainCodeExpr = mainCodeOf(t);
  /** Listing process status of the current row (Processing, Ready, Idle), as SQL. */
  const processStatusExpr = sql<string>`case
  when exists (select 1 from ${processes} where ${processes.fundRequestId} = ${fr.id} and ${processes.status} in ('pending', 'running')) then 'Processing'
  when exists (select 1 from ${processes} where ${processes.fundRequestId} = ${fr.id} and (${processes.status} = 'done' or ${processes.stage} = 'visualization')) then 'Ready'
  else 'Idle' end`;
  return {
    id: num(fr.id),
    name: text(fr.name),
    client: text(fr.client),
    fundCode: { expr: mainCodeExpr, types: TEXT, condition: codeCondition(true) },
    alternateCodes: { expr: mainCodeExpr, types: TEXT, condition: codeCondition(false), noSort: true },
    status: { expr: fr.status, types: TEXT, enumValue: statusFromInput },
    administrator: lookup(fr.administratorId, administrators, administrators.id, administrators.name),
    administratorCode: lookup(fr.administratorId, administrators, administrators.id, administrators.code),
    administratorId: num(fr.administratorId),
    country: text(fr.country),
    currency: text(fr.currency),
    engagementCode: text(fr.engagementCode),
    accounting_standard: text(fr.accountingStandard),
    structure: text(fr.structure),
    outputType: text(fr.outputType),
    requestDate: date(fr.requestDate),
    period_end: date(fr.periodEnd),
    periodStart: date(fr.periodStart),
    auditStart: date(fr.auditStartDate),
    navClose: date(fr.navCloseDate),
    dataDue: date(fr.dueDate),
    dataRequestStatus: { expr: fr.dataRequestStatus, types: TEXT, enumValue: dataRequestFromInput },
    selfOnboarded: bool(fr.selfOnboarded),
    group_key: text(fr.groupKey),
    aggreg_consol_flag: text(fr.aggregConsolFlag),
    needs_rerun: bool(fr.needsRerun),
    parentId: num(fr.parentId),
    aggreg_force_run: bool(fr.aggregForceRun),
    external_valuations: text(fr.externalValuations),
    price_type_1: text(fr.priceType1),
    price_type_2: text(fr.priceType2),
    price_type_3: text(fr.priceType3),
    price_type_4: text(fr.priceType4),
    price_source_1: text(fr.priceSource1),
    price_source_2: text(fr.priceSource2),
    price_source_3: text(fr.priceSource3),
    audit_comments: text(fr.auditComments),
    administrator_comments: text(fr.administratorComments),
    delivery_comments: text(fr.deliveryComments),
    notes: text(fr.notes),
    created_by: lookup(fr.createdById, users, users.id, fullName),
    rerunDate: date(fr.rerunDate),
    rerun_by: lookup(fr.rerunById, users, users.id, fullName),
    rerun_by_role: text(fr.rerunByRole),
    PM: num(fr.pm),
    TE: num(fr.te),
    SAD: num(fr.sad),
    RTTPlus: num(fr.rttPlus),
    RTTMinus: num(fr.rttMinus),
    gfisClientCode: text(fr.gfisClientCode),
    connected_audit: bool(fr.connectedAudit),
    job_type: text(fr.jobType),
    processStatus: { expr: processStatusExpr, types: TEXT },
  };
}

/** Other names grids and the auditor listing use for the same fields. */
export const FIELD_ALIASES: Record<string, string> = {
  request_date: 'requestDate',
  requestedDate: 'requestDate',
  periodEnd: 'period_end',
  period_start: 'periodStart',
  due_date: 'dataDue',
  dueDate: 'dataDue',
  dataDueDate: 'dataDue',
  audit_start_date: 'auditStart',
  nav_close_date: 'navClose',
  fund_code: 'fundCode',
  fundName: 'name',
  clientName: 'client',
  type: 'structure',
  uploadStatus: 'status',
  statusLabel: 'status',
  tpa: 'administrator',
  rerun_date: 'rerunDate',
  gfis_client_code: 'gfisClientCode',
  engagement_code: 'engagementCode',
};
