/**
 * The fund request on the wire: the spec's "Fund details" field names (both documents, section 3)
 * and their database columns. One table drives reading (`toFundFields`) and writing
 * (`fromFundFields`), so the two never drift apart.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import type { Tables } from '../../db/dialect.js';

export type FundRow = Tables['fundRequests']['$inferSelect'];
export type FundInsert = Tables['fundRequests']['$inferInsert'];

/** Spec field name -> column property, for the editable scalar fields. */
export const FUND_FIELD_COLUMNS = {
  name: 'name',
  client: 'client',
  gfis_client_code: 'gfisClientCode',
  country: 'country',
  ey_country: 'eyCountry',
  currency: 'currency',
  structure: 'structure',
  fund_sub_type: 'fundSubType',
  audit_type: 'auditType',
  job_type: 'jobType',
  accounting_standard: 'accountingStandard',
  period_start: 'periodStart',
  period_end: 'periodEnd',
  due_date: 'dueDate',
  audit_start_date: 'auditStartDate',
  nav_close_date: 'navCloseDate',
  request_date: 'requestDate',
  financial_year: 'financialYear',
  accounting_period: 'accountingPeriod',
  engagement_code: 'engagementCode',
  output_type: 'outputType',
  external_valuations: 'externalValuations',
  price_type_1: 'priceType1',
  price_type_2: 'priceType2',
  price_type_3: 'priceType3',
  price_type_4: 'priceType4',
  price_source_1: 'priceSource1',
  price_source_2: 'priceSource2',
  price_source_3: 'priceSource3',
  PM: 'pm',
  TE: 'te',
  SAD: 'sad',
  connected_audit: 'connectedAudit',
  RTTPlus: 'rttPlus',
  RTTMinus: 'rttMinus',
  soi_rec_type: 'soiRecType',
  fihi_type: 'fihiType',
  has_investment_analyzer: 'hasInvestmentAnalyzer',
  aggreg_consol_flag: 'aggregConsolFlag',
  group_key: 'groupKey',
  group_work_papers: 'groupWorkPapers',
  parentId: 'parentId',
  is_parent: 'isParent',
  audit_comments: 'auditComments',
  administrator_comments: 'administratorComments',
  delivery_comments: 'deliveryComments',
  notes: 'notes',
  fund_administrator_contact: 'fundAdministratorContact',
  auditor_email_1: 'auditorEmail1',
  auditor_email_2: 'auditorEmail2',
  auditor_email_3: 'auditorEmail3',
  auditor_email_4: 'auditorEmail4',
  pped_email: 'ppedEmail',
  tpa_mailbox: 'tpaMailbox',
  fr_tpa_contact: 'frTpaContact',
  ta_tpa_mailbox: 'taTpaMailbox',
} as const satisfies Record<string, keyof FundInsert>;

export type FundFieldName = keyof typeof FUND_FIELD_COLUMNS;
/** The editable fields of a fund on the wire. */
export type FundFields = { [K in FundFieldName]?: FundInsert[(typeof FUND_FIELD_COLUMNS)[K]] };

/** Fields that are comments: editable in every status (spec 2.3). */
export const COMMENT_FIELDS: FundFieldName[] = ['audit_comments', 'administrator_comments', 'delivery_comments'];

/**
 * Fields that link a fund into an aggregation group: editable in every status and with files
 * delivered (a child is linked to its parent once it is open; docs/decisions/0013).
 */
export const LINK_FIELDS: FundFieldName[] = ['parentId', 'group_key'];

/** Reads the wire fields of a row. */
export function toFundFields(row: FundRow): Required<FundFields> {
  const out = {} as Record<string, unknown>;
  for (const [field, column] of Object.entries(FUND_FIELD_COLUMNS)) out[field] = row[column as keyof FundRow] ?? null;
  return out as Required<FundFields>;
}

/** Converts wire fields to column values (only the fields present). */
export function fromFundFields(fields: FundFields): Partial<FundInsert> {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(FUND_FIELD_COLUMNS)) {
    if (field in fields) out[column] = (fields as Record<string, unknown>)[field];
  }
  return out as Partial<FundInsert>;
}

/** Status labels and case-insensitive status reading (spec section 4) come from the rules module. */
export { normalizeStatus, STATUS_LABELS } from '../../../rules/statuses.js';
