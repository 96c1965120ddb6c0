/**
 * A new fund request (`/fund/create`): the fields a save requires (delivery spec section 5:
 * administrator, fund code, client and name, then period end, currency, request date, country,
 * PM, TE, SAD) and the usual dates. Validated by the server (`POST /fund/validate`) before
 * `POST /fund`; its errors show as 'You have validation errors' with 'Duplicate Fund' links.
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useSnapshot } from 'valtio';
import type { FundDetails, FundError, Nrd } from '../../../api/auditor-types';
import { ApiError } from '../../../api/errors';
import { createFund, validateNewFund } from '../../../api/fund-activity';
import { auditorNrd, loadAuditorNrd, refOptions } from '../../../state/auditor-nrd';
import { FieldRow } from '../../auditor/fund-details/field-row';
import type { Draft, FieldDef } from '../../auditor/fund-details/fund-form';
import { ValidationErrors } from '../../auditor/fund-details/validation-errors';

const FIELDS: FieldDef[] = [
  { key: 'country', label: 'Country', kind: 'select', list: 'countries' },
  { key: 'currency', label: 'Currency', kind: 'select', list: 'currencies' },
  { key: 'period_start', label: 'Period start', kind: 'date' },
  { key: 'period_end', label: 'Period end', kind: 'date' },
  { key: 'due_date', label: 'Data due date', kind: 'date' },
  { key: 'request_date', label: 'Request date', kind: 'date' },
  { key: 'PM', label: 'PM', kind: 'percent' },
  { key: 'TE', label: 'TE', kind: 'percent' },
  { key: 'SAD', label: 'SAD', kind: 'percent' },
];
const BLANK = { id: 0, fund_codes: [], administrator_recipients: [], children: [] } as unknown as FundDetails;

/** The new-fund form; `onCreated` gets the saved fund, `onOpenFund` opens a duplicate. */
export function NewFundForm({ onCreated, onOpenFund, onCancel }: { onCreated: (f: FundDetails) => void; onOpenFund: (id: number) => void; onCancel: () => void }) {
  const { nrd } = useSnapshot(auditorNrd);
  const [values, setValues] = useState<Draft>({ alternative_codes: [], recipients: [], request_date: new Date().toISOString().slice(0, 10) });
  const [errors, setErrors] = useState<FundError[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => void loadAuditorNrd(), []);
  const set = (key: string, value: unknown) => {
    setErrors([]);
    setValues((v) => ({ ...v, [key]: value }));
  };
  const text = (key: string) => String(values[key] ?? '');

  const save = async () => {
    const fund: Record<string, unknown> = { ...values, fund_codes: text('fund_code').trim() ? [{ code: text('fund_code').trim(), main: true }] : [] };
    delete fund.fund_code;
    delete fund.alternative_codes;
    delete fund.recipients;
    setSaving(true);
    try {
      const found = await validateNewFund(fund);
      if (found.length) return setErrors(found);
      onCreated(await createFund(fund));
    } catch (err) {
      const e = err as ApiError;
      setErrors(e.errors?.length ? e.errors : [e.message]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="fa-fd-new" aria-label="New fund request" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <ValidationErrors errors={errors} onOpenFund={onOpenFund} />
      <div className="fa-field-grid">
        <label htmlFor="fa-new-administrator">Administrator (TPA)</label>
        <Dropdown inputId="fa-new-administrator" value={values.administrator ?? null} options={refOptions((nrd as Nrd | null)?.administrators)} onChange={(e) => set('administrator', e.value ?? null)} filter placeholder="Select" />
        <label htmlFor="fa-new-fund_code">Fund code</label>
        <InputText id="fa-new-fund_code" value={text('fund_code')} onChange={(e) => set('fund_code', e.target.value)} />
        <label htmlFor="fa-new-name">Fund name</label>
        <InputText id="fa-new-name" value={text('name')} onChange={(e) => set('name', e.target.value)} />
        <label htmlFor="fa-new-client">Client</label>
        <InputText id="fa-new-client" value={text('client')} onChange={(e) => set('client', e.target.value)} />
        {FIELDS.map((f) => <FieldRow key={f.key} field={f} details={BLANK} draft={values} editable nrd={nrd as Nrd | null} onChange={set} />)}
      </div>
      <div className="fa-fd-toolbar">
        <Button type="submit" label="Create fund request" icon="pi pi-check" loading={saving} />
        <Button type="button" label="Cancel" outlined onClick={onCancel} />
      </div>
    </form>
  );
}
