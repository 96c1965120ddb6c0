/**
 * The Fund details modal's form model (auditor spec 2.3, 5): which fields each tab shows and when,
 * which are read-only, the editable draft, the payload of changed fields for `POST /fund/validate`
 * and `POST /fund`, materialities capped at 100, and how save errors are presented. Pure: no React.
 */
import { requiredFundFields } from '../../../../rules';
import type { FundDetails, FundError, Recipient } from '../../api/auditor-types';

/** How a field is shown and edited. */
export type FieldKind = 'text' | 'select' | 'date' | 'percent' | 'yesno' | 'yn' | 'textarea' | 'codes' | 'readonly';

/** A field of the modal. */
export interface FieldDef {
  key: string;
  label: string;
  kind: FieldKind;
  /** Reference-data list of a select. */
  list?: string;
  /** Always read-only (spec: fund code, administrator, status, client, GFIS code, name, upload date). */
  readOnly?: boolean;
  /** Comments: editable whatever the fund's status. */
  alwaysEditable?: boolean;
  /** Display text of a read-only value computed from the details. */
  display?: (d: FundDetails) => string;
  /** Whether the field is shown. */
  show?: (c: FormContext) => boolean;
}

/** What decides which fields show. */
export interface FormContext {
  draft: Draft;
  config: { aggregation?: boolean; investmentAnalyzerEnabled?: boolean };
}

/** The hidden 'Prod 2.7' flag of the spec: off, so Connected Audit and the RTT fields show. */
export const PROD_2_7 = false;

const isYes = (v: unknown) => v === true || v === 'Y' || v === 'y' || v === 'yes';

/** Fund info tab. */
export const FUND_INFO_FIELDS: readonly FieldDef[] = [
  { key: 'fund_code', label: 'Fund code', kind: 'readonly', readOnly: true },
  { key: 'name', label: 'Fund name', kind: 'readonly', readOnly: true },
  { key: 'client', label: 'Client', kind: 'readonly', readOnly: true },
  { key: 'gfis_client_code', label: 'GFIS client code', kind: 'readonly', readOnly: true },
  { key: 'administrator', label: 'Administrator (TPA)', kind: 'readonly', readOnly: true, display: (d) => d.administrator?.name ?? '' },
  { key: 'status', label: 'Status', kind: 'readonly', readOnly: true },
  { key: 'country', label: 'Country', kind: 'select', list: 'countries' },
  { key: 'ey_country', label: 'Audit country', kind: 'select', list: 'countries' },
  { key: 'currency', label: 'Currency', kind: 'select', list: 'currencies' },
  { key: 'structure', label: 'Structure', kind: 'select', list: 'structures' },
  { key: 'fund_sub_type', label: 'Fund sub type', kind: 'select', list: 'fundSubType' },
  { key: 'audit_type', label: 'Audit type', kind: 'select', list: 'auditTypes' },
  { key: 'period_start', label: 'Period start', kind: 'date' },
  { key: 'period_end', label: 'Period end', kind: 'date' },
  { key: 'due_date', label: 'Data due date', kind: 'date' },
  { key: 'audit_start_date', label: 'Audit start date', kind: 'date' },
  { key: 'request_date', label: 'Upload date', kind: 'readonly', readOnly: true },
  { key: 'accounting_standard', label: 'Accounting standard', kind: 'select', list: 'accountingStandards' },
  { key: 'rerun_count', label: 'Rerun count', kind: 'readonly', readOnly: true },
  { key: 'rerun_by', label: 'Rerun by', kind: 'readonly', readOnly: true, display: (d) => d.rerun_by?.full_name ?? '' },
  { key: 'rerun_date', label: 'Rerun date', kind: 'readonly', readOnly: true },
  { key: 'alternative_codes', label: 'Alternative fund codes', kind: 'codes' },
  { key: 'soi_rec_type', label: 'SOI rec type', kind: 'select', list: 'soiRecType' },
  { key: 'fihi_type', label: 'FIHI type', kind: 'select', list: 'fihiType' },
  { key: 'has_investment_analyzer', label: 'Investment analyzer', kind: 'yesno', show: (c) => Boolean(c.config.investmentAnalyzerEnabled) },
  { key: 'engagement_code', label: 'Engagement code', kind: 'text' },
  { key: 'connected_audit', label: 'Connected audit', kind: 'yesno', show: () => !PROD_2_7 },
  { key: 'aggreg_consol_flag', label: 'Aggregation / consolidation', kind: 'select', list: 'aggregateType', show: (c) => Boolean(c.config.aggregation) },
  { key: 'group_key', label: 'Group key', kind: 'text', show: (c) => Boolean(c.config.aggregation) },
  {
    key: 'parent',
    label: 'Parent',
    kind: 'readonly',
    readOnly: true,
    show: (c) => Boolean(c.config.aggregation),
    display: (d) => (d.children?.length ? 'Parent' : d.is_parent ? 'Parent (empty)' : d.parentId ? `Child of ${d.parentId}` : ''),
  },
];

/** Run parameters tab. */
export const RUN_PARAMETER_FIELDS: readonly FieldDef[] = [
  { key: 'job_type', label: 'Job type', kind: 'select', list: 'jobType' },
  { key: 'nav_close_date', label: 'NAV closing date', kind: 'date' },
  { key: 'group_work_papers', label: 'Group work papers', kind: 'yesno' },
  { key: 'dataStatusUIField', label: 'Data status', kind: 'readonly', readOnly: true },
  { key: 'workPaperStatusUIField', label: 'Work papers', kind: 'readonly', readOnly: true },
];

const PRICE_FIELDS: FieldDef[] = [
  ...[1, 2, 3, 4].map(
    (n): FieldDef => ({ key: `price_type_${n}`, label: `Price type ${n}`, kind: 'select', list: 'priceType', show: (c) => isYes(c.draft.external_valuations) }),
  ),
  ...[1, 2, 3].map(
    (n): FieldDef => ({
      key: `price_source_${n}`,
      label: `Price source ${n}`,
      kind: 'select',
      list: 'priceSource',
      show: (c) => isYes(c.draft.external_valuations),
    }),
  ),
];

/** External valuations tab: the price rows show only when external valuations is Y. */
export const EXTERNAL_VALUATION_FIELDS: readonly FieldDef[] = [{ key: 'external_valuations', label: 'External valuations', kind: 'yn' }, ...PRICE_FIELDS];

/** Materialities tab: RTTPlus / RTTMinus only with a connected audit (and the Prod 2.7 flag off). */
export const MATERIALITY_FIELDS: readonly FieldDef[] = [
  { key: 'PM', label: 'PM', kind: 'percent' },
  { key: 'TE', label: 'TE', kind: 'percent' },
  { key: 'SAD', label: 'SAD', kind: 'percent' },
  { key: 'RTTPlus', label: 'RTTPlus', kind: 'percent', show: (c) => !PROD_2_7 && isYes(c.draft.connected_audit) },
  { key: 'RTTMinus', label: 'RTTMinus', kind: 'percent', show: (c) => !PROD_2_7 && isYes(c.draft.connected_audit) },
];

/** Comments tab: always editable. */
export const COMMENT_FIELDS: readonly FieldDef[] = [
  { key: 'audit_comments', label: 'Audit comments', kind: 'textarea', alwaysEditable: true },
  { key: 'administrator_comments', label: 'Administrator comments', kind: 'textarea', alwaysEditable: true },
  { key: 'delivery_comments', label: 'Delivery comments', kind: 'textarea', alwaysEditable: true },
];

const ALL_FIELDS = [...FUND_INFO_FIELDS, ...RUN_PARAMETER_FIELDS, ...EXTERNAL_VALUATION_FIELDS, ...MATERIALITY_FIELDS, ...COMMENT_FIELDS];

/** The keys of the editable scalar fields of a field list (not read-only, not the codes). */
export function editableKeys(fields: readonly FieldDef[]): string[] {
  return fields.filter((f) => !f.readOnly && f.kind !== 'readonly' && f.kind !== 'codes').map((f) => f.key);
}
const EDITABLE_SCALARS = editableKeys(ALL_FIELDS);

/** The editable values of the modal. */
export interface Draft extends Record<string, unknown> {
  alternative_codes: string[];
  recipients: Recipient[];
}

/** One field of fund details by its wire name, as the field list names it (undefined for a name the details lack). */
export function fundValue(d: FundDetails, key: string): unknown {
  return (d as Record<string, unknown>)[key];
}

/** The draft of fund details as loaded; `fields` the form's fields (the modal's by default). */
export function draftOf(d: FundDetails, fields: readonly FieldDef[] = ALL_FIELDS): Draft {
  const keys = fields === ALL_FIELDS ? EDITABLE_SCALARS : editableKeys(fields);
  const draft: Draft = {
    alternative_codes: d.fund_codes.filter((c) => !c.main).map((c) => c.code),
    recipients: d.administrator_recipients.map((r) => ({ id: r.id, full_name: r.full_name ?? '', email: r.email ?? '', role: r.role ?? '' })),
  };
  for (const k of keys) draft[k] = fundValue(d, k) ?? null;
  draft.external_valuations = isYes(d.external_valuations) ? 'Y' : 'N';
  return draft;
}

/** Materialities are capped at 100 on entry; '' means no value. */
export function capPercent(input: string): number | null {
  if (input.trim() === '') return null;
  const n = Number(input);
  if (!Number.isFinite(n)) return null;
  return Math.min(100, n);
}

const norm = (v: unknown) => (v === '' || v === undefined ? null : v);
const recipientKey = (r: Recipient) => JSON.stringify([r.id ?? null, r.full_name.trim(), r.email.trim().toLowerCase(), r.role]);

/** The changed fields of the draft as `fund` of `POST /fund/validate` and `POST /fund` ({} when unchanged); `fields` as for `draftOf`. */
export function changedFields(original: FundDetails, draft: Draft, fields: readonly FieldDef[] = ALL_FIELDS): Record<string, unknown> {
  const base = draftOf(original, fields);
  const keys = fields === ALL_FIELDS ? EDITABLE_SCALARS : editableKeys(fields);
  const out: Record<string, unknown> = {};
  for (const k of keys) if (JSON.stringify(norm(draft[k])) !== JSON.stringify(norm(base[k]))) out[k] = norm(draft[k]);
  const alts = draft.alternative_codes.map((c) => c.trim()).filter(Boolean);
  if (JSON.stringify(alts) !== JSON.stringify(base.alternative_codes)) {
    const main = original.fund_codes.find((c) => c.main)?.code ?? original.fund_code;
    out.fund_codes = [...(main ? [{ code: main, main: true }] : []), ...alts.map((code) => ({ code, main: false }))];
  }
  if (draft.recipients.map(recipientKey).join('|') !== base.recipients.map(recipientKey).join('|')) {
    out.administrator_recipients = draft.recipients.map((r) => ({ full_name: r.full_name.trim(), email: r.email.trim(), role: r.role }));
  }
  return out;
}

/**
 * The required fields (spec section 5, rules module) that the changes empty, as '{label} is
 * required' (the server's wording): 'Save changes' is not offered while there are any.
 */
export function emptiedRequired(changes: Record<string, unknown>, fields: readonly FieldDef[] = ALL_FIELDS): string[] {
  return requiredFundFields(false)
    .filter((k) => k in changes && (changes[k] === null || (typeof changes[k] === 'string' && !(changes[k] as string).trim())))
    .map((k) => `${fields.find((f) => f.key === k)?.label ?? k} is required`);
}

/** Whether a field can be edited now: comments always; other rows only when the fund's rows are editable. */
export function canEdit(field: FieldDef, rowsEditable: boolean): boolean {
  if (field.readOnly || field.kind === 'readonly') return false;
  return field.alwaysEditable === true || rowsEditable;
}

/** Rows are editable only when the fund is Pending with no assigned input file (the server's answer wins). */
export function rowsEditable(d: Pick<FundDetails, 'status' | 'assignedCount' | 'editable'>): boolean {
  if (d.editable && typeof d.editable.rows === 'boolean') return d.editable.rows;
  return (d.status ?? 'Pending').toLowerCase() === 'pending' && (d.assignedCount ?? 0) === 0;
}

/** Most save errors shown (spec section 9). */
export const MAX_SHOWN_ERRORS = 5;

/** The errors to show and the footer when some are left out. */
export function presentErrors(errors: readonly FundError[]): { shown: FundError[]; footer: string | null } {
  const shown = errors.slice(0, MAX_SHOWN_ERRORS);
  const footer = errors.length > MAX_SHOWN_ERRORS ? `Presenting ${MAX_SHOWN_ERRORS} out of ${errors.length} errors. Please fix values and try again.` : null;
  return { shown, footer };
}

/** Recipients matching a search on name, email or role (case-insensitive). */
/** A recipient's key in a list being edited: its id once saved, else the key it was added with. */
export const recipientRowKey = (r: Recipient) => (r.id !== undefined ? `id-${r.id}` : `key-${r.key}`);

let nextRecipientKey = 1;

/**
 * Edits of a recipient list, each handing the next list to `onChange`: change one recipient, remove
 * one, add a new one (no name or e-mail yet, the given role).
 */
export function recipientEdits(recipients: readonly Recipient[], onChange: (next: Recipient[]) => void) {
  return {
    update: (target: Recipient, patch: Partial<Recipient>) =>
      onChange(recipients.map((r) => (recipientRowKey(r) === recipientRowKey(target) ? { ...r, ...patch } : r))),
    remove: (target: Recipient) => onChange(recipients.filter((r) => recipientRowKey(r) !== recipientRowKey(target))),
    add: (role: string) => onChange([...recipients, { key: `new-${nextRecipientKey++}`, full_name: '', email: '', role }]),
  };
}

export function searchRecipients(list: readonly Recipient[], search: string): Recipient[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((r) => [r.full_name, r.email, r.role].some((v) => (v ?? '').toLowerCase().includes(q)));
}
