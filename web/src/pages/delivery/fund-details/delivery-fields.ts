/**
 * The delivery Fund details form (delivery spec section 2 "Fund details", section 3 "Fund details"
 * fields, section 5 required fields): the left form's sections, the Comments tab's fields, what a
 * new fund starts from and which fields may change now. Built on the auditor modal's field model
 * (fund-form.ts): the delivery team also edits name, client, GFIS client code and request date,
 * and sets the fund code on a new fund. Pure: no React. The server checks every rule again.
 */
import {
  EXTERNAL_VALUATION_FIELDS,
  FUND_INFO_FIELDS,
  MATERIALITY_FIELDS,
  RUN_PARAMETER_FIELDS,
  type Draft,
  type FieldDef,
} from '../../../components/fund-details/fund-form';

export { blankFund } from './blank-fund';

/** A titled section of the left form. */
export interface FormSection {
  title: string;
  fields: readonly FieldDef[];
}

const auditorField = (key: string): FieldDef => {
  const f = [...FUND_INFO_FIELDS, ...RUN_PARAMETER_FIELDS].find((x) => x.key === key);
  if (!f) throw new Error(`no field ${key}`);
  return f;
};
const text = (key: string, label: string): FieldDef => ({ key, label, kind: 'text' });
const date = (key: string, label: string): FieldDef => ({ key, label, kind: 'date' });

/** Set only while creating: a saved fund's main code cannot change (it can gain alternates). */
export const CREATE_ONLY = new Set(['fund_code']);

/** Fields required by a save (spec section 5; fund code, client and name only when creating). */
export const REQUIRED_FIELDS = new Set([
  'administrator',
  'fund_code',
  'client',
  'name',
  'period_end',
  'currency',
  'request_date',
  'country',
  'PM',
  'TE',
  'SAD',
]);

/** The left form, top to bottom. The administrator has its own row (lock reason, create). */
export const FORM_SECTIONS: readonly FormSection[] = [
  {
    title: 'Fund info',
    fields: [
      text('fund_code', 'Fund code'),
      text('name', 'Fund name'),
      text('client', 'Client'),
      text('gfis_client_code', 'GFIS client code'),
      { key: 'status', label: 'Status', kind: 'readonly', readOnly: true, display: (d) => d.statusLabel },
      ...['country', 'ey_country', 'currency', 'structure', 'fund_sub_type', 'audit_type', 'accounting_standard'].map(auditorField),
      text('output_type', 'Output type'),
      auditorField('engagement_code'),
      text('financial_year', 'Financial year'),
      text('accounting_period', 'Accounting period'),
      ...['soi_rec_type', 'fihi_type', 'has_investment_analyzer', 'connected_audit'].map(auditorField),
      { key: 'is_parent', label: 'Is parent', kind: 'yesno' },
    ],
  },
  {
    title: 'Dates',
    fields: [
      date('period_start', 'Period start'),
      date('period_end', 'Period end'),
      date('request_date', 'Request date'),
      date('due_date', 'Data due date'),
      date('audit_start_date', 'Audit start date'),
      date('nav_close_date', 'NAV closing date'),
    ],
  },
  {
    title: 'Run parameters',
    fields: [...['job_type', 'group_work_papers', 'dataStatusUIField', 'workPaperStatusUIField', 'rerun_count', 'rerun_by', 'rerun_date'].map(auditorField)],
  },
  { title: 'Aggregation', fields: ['aggreg_consol_flag', 'group_key', 'parent'].map(auditorField) },
  {
    title: 'External valuations',
    fields: [
      ...EXTERNAL_VALUATION_FIELDS,
      // per fund; empty: the server's default (setting fxTolerancePct)
      { key: 'fx_tolerance', label: 'FX tolerance', kind: 'percent' },
    ],
  },
  { title: 'Materialities', fields: MATERIALITY_FIELDS },
  {
    title: 'Contacts',
    fields: [
      text('fund_administrator_contact', 'Fund administrator contact'),
      ...[1, 2, 3, 4].map((n) => text(`auditor_email_${n}`, `Auditor email ${n}`)),
      text('pped_email', 'PPED email'),
      text('tpa_mailbox', 'TPA mailbox'),
      text('fr_tpa_contact', 'FR TPA contact'),
      text('ta_tpa_mailbox', 'TA TPA mailbox'),
      { key: 'notes', label: 'Notes', kind: 'textarea' },
    ],
  },
];

/** The Comments tab (editable in edit mode whatever the fund's status). */
export const DELIVERY_COMMENT_FIELDS: readonly FieldDef[] = [
  { key: 'audit_comments', label: 'Audit comments', kind: 'textarea', alwaysEditable: true },
  { key: 'administrator_comments', label: 'TPA comments', kind: 'textarea', alwaysEditable: true },
  { key: 'delivery_comments', label: 'Delivery team comments', kind: 'textarea', alwaysEditable: true },
];

/** Every field of the page's draft. */
export const DELIVERY_FIELDS: readonly FieldDef[] = [...FORM_SECTIONS.flatMap((s) => s.fields), ...DELIVERY_COMMENT_FIELDS];

/**
 * Whether a field can be edited in edit mode: never the read-only ones; the fund code only while
 * creating; comments always; the others while the server says the fund's rows are editable.
 */
export function canEditField(field: FieldDef, opts: { rowsEditable: boolean; creating: boolean }): boolean {
  if (field.readOnly || field.kind === 'readonly') return false;
  if (CREATE_ONLY.has(field.key)) return opts.creating;
  return field.alwaysEditable === true || opts.creating || opts.rowsEditable;
}

/**
 * The `fund` of `POST /fund/validate` and `POST /fund` for a new fund: every value set, the main
 * code first then the alternates (empty codes dropped), the administrator and the recipients.
 */
export function newFundPayload(draft: Draft): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of DELIVERY_FIELDS) {
    if (f.readOnly || f.kind === 'readonly' || f.key === 'fund_code') continue;
    const v = draft[f.key];
    if (v !== null && v !== undefined && v !== '') out[f.key] = typeof v === 'string' ? v.trim() : v;
  }
  const main = String(draft.fund_code ?? '').trim();
  const alternates = draft.alternative_codes.map((c) => c.trim()).filter(Boolean);
  out.fund_codes = [...(main ? [{ code: main, main: true }] : []), ...alternates.map((code) => ({ code, main: false }))];
  if (draft.administrator_code) out.administrator = draft.administrator_code;
  if (draft.recipients.length)
    out.administrator_recipients = draft.recipients.map((r) => ({ full_name: r.full_name.trim(), email: r.email.trim(), role: r.role }));
  return out;
}
