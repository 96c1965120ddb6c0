/**
 * Validation of one bulk-upload row against reference data and the spec's rules (delivery
 * document sections 3-5): required values, dates and their order, TPA, countries, currencies and
 * other reference codes, PM/TE/SAD and RTT+/- between 0 and 100, e-mail addresses, external
 * valuations with price types/sources only when Y, connected audit with RTT only when yes, mapping
 * names of the TPA, alternate codes. Each problem names its column: faults decline the row,
 * warnings make it editable.
 */
import { DATE_FORMATS_TEXT, parseUserDate } from '../../lib/dates.js';
import type { ReferenceIndex, StaticListName } from '../reference-data/reference-data.js';
import { BULK_REQUIRED_COLUMNS, type BulkUploadColumn } from './columns.js';

export interface BulkIssue {
  column: string;
  message: string;
  /** a 'Duplicate Fund' fault names the existing fund request (auditor spec section 8: it links to fund/{id}) */
  id?: number;
  type?: 'Duplicate Fund';
}

/** What validation needs, loaded once per upload. */
export interface BulkLookups {
  ref: ReferenceIndex;
  /** lower-case administrator code -> administrator */
  administrators: Map<string, { id: number; code: string; name: string }>;
  /** administrator id -> mapping type -> lower-case mapping name -> mapping id */
  mappings: Map<number, Map<string, Map<string, number>>>;
  /** `${administratorId}|${lower-case fund code}|${period end}` -> existing fund request id */
  existingKeys: Map<string, number>;
}

/** A row turned into typed values, ready to save. */
export interface NormalizedBulkFund {
  administratorId: number | null;
  fundCode: string;
  alternateCodes: string[];
  fields: Record<string, unknown>;
  mappingIds: number[];
}

export interface ValidatedRow {
  faults: BulkIssue[];
  warnings: BulkIssue[];
  fund: NormalizedBulkFund;
  uniqueKey: string | null;
  duplicateOfId: number | null;
}

export const OVERWRITE_WARNING = 'Another request exists with same unique identifier. Do you want to overwrite?';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const YES = new Set(['y', 'yes', 'true', '1']);
const NO = new Set(['n', 'no', 'false', '0']);
const yesNo = (v: string | undefined) => (v === undefined ? undefined : YES.has(v.toLowerCase()) ? true : NO.has(v.toLowerCase()) ? false : null);

const REFERENCE_COLUMNS: Array<[BulkUploadColumn, StaticListName, string]> = [
  ['fundType', 'structures', 'structure'],
  ['fundSubType', 'fundSubType', 'fund_sub_type'],
  ['jobType', 'jobType', 'job_type'],
  ['auditType', 'auditTypes', 'audit_type'],
  ['fundAccountingStandard', 'accountingStandards', 'accounting_standard'],
  ['fundCountry', 'countries', 'country'],
  ['eyCountry', 'countries', 'ey_country'],
  ['fundCurrency', 'currencies', 'currency'],
  ['soiRecType', 'soiRecType', 'soi_rec_type'],
  ['fihiType', 'fihiType', 'fihi_type'],
  ['aggregConsolFlag', 'aggregateType', 'aggreg_consol_flag'],
];
const PRICE_TYPES: BulkUploadColumn[] = ['priceType1', 'priceType2', 'priceType3', 'priceType4'];
const PRICE_SOURCES: BulkUploadColumn[] = ['priceSource1', 'priceSource2', 'priceSource3'];
const EMAILS: Array<[BulkUploadColumn, string]> = [
  ['auditorEmail1', 'auditor_email_1'],
  ['auditorEmail2', 'auditor_email_2'],
  ['auditorEmail3', 'auditor_email_3'],
  ['auditorEmail4', 'auditor_email_4'],
  ['ppedEmail', 'pped_email'],
  ['tpaMailBox', 'tpa_mailbox'],
  ['taTPAMailbox', 'ta_tpa_mailbox'],
];
const TEXT: Array<[BulkUploadColumn, string]> = [
  ['fundName', 'name'],
  ['clientName', 'client'],
  ['gfisClientCode', 'gfis_client_code'],
  ['engCode', 'engagement_code'],
  ['groupKey', 'group_key'],
  ['fundAdministratorContact', 'fund_administrator_contact'],
  ['frTPAContact', 'fr_tpa_contact'],
  ['notes', 'notes'],
];
const MAPPING_COLUMNS: BulkUploadColumn[] = ['account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping'];

/** Validates one row; never throws. */
export function validateBulkRow(values: Partial<Record<BulkUploadColumn, string>>, lookups: BulkLookups): ValidatedRow {
  const faults: BulkIssue[] = [];
  const warnings: BulkIssue[] = [];
  const fault = (column: string, message: string) => faults.push({ column, message });
  const fields: Record<string, unknown> = {};

  for (const c of BULK_REQUIRED_COLUMNS) if (!values[c]) fault(c, `${c} is required`);
  for (const [c, f] of TEXT) if (values[c]) fields[f] = values[c];

  const tpa = values.tpa ? lookups.administrators.get(values.tpa.toLowerCase()) : undefined;
  if (values.tpa && !tpa) fault('tpa', `tpa '${values.tpa}' is not a known TPA (administrator code)`);

  for (const [c, list, f] of REFERENCE_COLUMNS) {
    const v = values[c];
    if (!v) continue;
    const code = lookups.ref[list].get(v.toLowerCase());
    if (code) fields[f] = code;
    else
      fault(c, `${c} '${v}' is not a known ${list === 'countries' ? 'ISO 3166 country code' : list === 'currencies' ? 'ISO 4217 currency code' : `${c} code`}`);
  }

  const dates: Partial<Record<BulkUploadColumn, string>> = {};
  for (const [c, f] of [
    ['financialStartDate', 'period_start'],
    ['financialEndDate', 'period_end'],
    ['auditStartDate', 'audit_start_date'],
    ['navClosingDate', 'nav_close_date'],
    ['dataDueDate', 'due_date'],
  ] as const) {
    const v = values[c];
    if (!v) continue;
    const iso = parseUserDate(v);
    if (!iso) fault(c, `${c} '${v}' is not a date (use ${DATE_FORMATS_TEXT})`);
    else fields[f] = dates[c] = iso;
  }
  const { financialStartDate: start, financialEndDate: end, auditStartDate: audit, navClosingDate: nav, dataDueDate: due } = dates;
  if (start && end && start >= end) fault('financialStartDate', `financialStartDate (${start}) must be before financialEndDate (${end})`);
  if (end && due && due <= end) fault('dataDueDate', `dataDueDate (${due}) must be after financialEndDate (${end})`);
  if (end && audit && audit < end) fault('auditStartDate', `auditStartDate (${audit}) must not be before financialEndDate (${end})`);
  if (nav && ((start && nav < start) || (end && nav > end))) fault('navClosingDate', `navClosingDate (${nav}) must fall within the financial period`);

  const percent = (c: BulkUploadColumn, f: string) => {
    const v = values[c];
    if (!v) return;
    const n = Number(v.replace(/%$/, '').trim());
    if (!Number.isFinite(n) || v.trim() === '') fault(c, `${c} '${v}' is not a number`);
    else if (n < 0 || n > 100) fault(c, `${c} must be between 0 and 100 (got ${n})`);
    else fields[f] = n;
  };
  percent('PM', 'PM');
  percent('TE', 'TE');
  percent('SAD', 'SAD');

  for (const [c, f] of EMAILS) {
    const v = values[c];
    if (!v) continue;
    if (EMAIL.test(v)) fields[f] = v.toLowerCase();
    else fault(c, `${c} '${v}' is not an e-mail address`);
  }

  const ev = yesNo(values.externalValuations);
  if (ev === null) fault('externalValuations', `externalValuations must be Y or N (got '${values.externalValuations}')`);
  fields.external_valuations = ev ? 'Y' : 'N';
  for (const [cols, list, label] of [
    [PRICE_TYPES, 'priceType', 'price type'],
    [PRICE_SOURCES, 'priceSource', 'price source'],
  ] as const) {
    cols.forEach((c, i) => {
      const v = values[c];
      if (!v) return;
      if (ev !== true) return fault(c, `${c} can only be given when externalValuations is Y`);
      const code = lookups.ref[list].get(v.toLowerCase());
      if (!code) fault(c, `${c} '${v}' is not a known ${label}`);
      else fields[`${list === 'priceType' ? 'price_type' : 'price_source'}_${i + 1}`] = code;
    });
  }
  if (ev === true && !values.priceType1) fault('priceType1', 'priceType1 is required when externalValuations is Y');
  if (ev === true && !values.priceSource1) fault('priceSource1', 'priceSource1 is required when externalValuations is Y');

  const ca = yesNo(values.connectedAudit);
  if (ca === null) fault('connectedAudit', `connectedAudit must be Y or N (got '${values.connectedAudit}')`);
  fields.connected_audit = ca === true;
  for (const c of ['RTTPlus', 'RTTMinus'] as const) {
    if (!values[c]) continue;
    if (ca !== true) fault(c, `${c} can only be given when connectedAudit is Y`);
    else percent(c, c);
  }
  for (const [c, f] of [
    ['groupWorkPapers', 'group_work_papers'],
    ['hasInvestmentAnalyzer', 'has_investment_analyzer'],
  ] as const) {
    const b = yesNo(values[c]);
    if (b === null) fault(c, `${c} must be Y or N (got '${values[c]}')`);
    else if (b !== undefined) fields[f] = b;
  }

  const mappingIds: number[] = [];
  for (const c of MAPPING_COLUMNS) {
    const v = values[c];
    if (!v || !tpa) continue;
    const id = lookups.mappings.get(tpa.id)?.get(c)?.get(v.toLowerCase());
    if (id === undefined) fault(c, `${c} '${v}' is not a mapping of TPA ${tpa.code}`);
    else mappingIds.push(id);
  }

  const fundCode = values.fundShortCode ?? '';
  const seen = new Set([fundCode.toLowerCase()]);
  const alternateCodes: string[] = [];
  for (const code of (values.alternateCodes ?? '')
    .split(/[;|,]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (seen.has(code.toLowerCase())) {
      warnings.push({ column: 'alternateCodes', message: `alternate code '${code}' repeats another code and was dropped` });
      continue;
    }
    seen.add(code.toLowerCase());
    alternateCodes.push(code);
  }

  let uniqueKey: string | null = null;
  let duplicateOfId: number | null = null;
  if (tpa && fundCode && fields.period_end) {
    uniqueKey = `${tpa.id}|${fundCode.toLowerCase()}|${fields.period_end}`;
    duplicateOfId = lookups.existingKeys.get(uniqueKey) ?? null;
    if (duplicateOfId !== null) warnings.push({ column: 'fundShortCode', message: OVERWRITE_WARNING });
  }
  return { faults, warnings, fund: { administratorId: tpa?.id ?? null, fundCode, alternateCodes, fields, mappingIds }, uniqueKey, duplicateOfId };
}
