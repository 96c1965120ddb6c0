/** One labelled field of the Fund details modal: read-only text or the control of its kind. */
import { useEffect, useState } from 'react';
import { Chips } from 'primereact/chips';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import type { FundDetails, Nrd } from '../../api/auditor-types';
import { percent, yesNo } from '../auditor/format';
import { refLabel, refOptions } from '../../state/auditor-nrd';
import { capPercent, fundValue, type Draft, type FieldDef } from './fund-form';
import { displayDate, isoOfDisplayDate } from '../../../../rules';

const YES_NO = [
  { value: true, label: 'Yes' },
  { value: false, label: 'No' },
];
const Y_N = [
  { value: 'Y', label: 'Yes' },
  { value: 'N', label: 'No' },
];
const DATE_KEYS = ['request_date', 'rerun_date'];

/** A materiality input: keeps the typed text, reports the value capped at 100. */
function PercentInput({ id, value, onChange }: { id: string; value: unknown; onChange: (v: number | null) => void }) {
  const [text, setText] = useState(value === null || value === undefined ? '' : String(value));
  useEffect(() => {
    // an external change (reset after a save) rewrites the text; typing keeps it as typed
    setText((t) => (capPercent(t) === (value ?? null) ? t : value === null || value === undefined ? '' : String(value)));
  }, [value]);
  return (
    <span className="p-inputgroup" style={{ maxWidth: 200 }}>
      <InputText
        id={id}
        inputMode="decimal"
        value={text}
        onChange={(e) => {
          const capped = capPercent(e.target.value);
          const next = capped !== null && Number(e.target.value) > 100 ? '100' : e.target.value;
          setText(next);
          onChange(capped);
        }}
      />
      <span className="p-inputgroup-addon">%</span>
    </span>
  );
}

/** DD/MM/YYYY text of an ISO date ('' for none). */
const isoToText = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? displayDate(v.slice(0, 10)) : typeof v === 'string' ? v : '');

/**
 * A date typed as DD/MM/YYYY (auditor views, spec section 9), whatever the browser's locale:
 * reports the ISO date once the text is a real date, null when emptied, and the text itself
 * otherwise (the server's validation then names the field).
 */
function DateInput({ id, value, onChange }: { id: string; value: unknown; onChange: (v: string | null) => void }) {
  const [text, setText] = useState(isoToText(value));
  useEffect(() => {
    // an external change (reset after a save) rewrites the text; typing keeps it as typed
    setText((t) => (isoOfDisplayDate(t) === (value ?? null) || t === value ? t : isoToText(value)));
  }, [value]);
  return (
    <InputText
      id={id}
      value={text}
      placeholder="DD/MM/YYYY"
      inputMode="numeric"
      style={{ maxWidth: 160 }}
      onChange={(e) => {
        const t = e.target.value;
        setText(t);
        onChange(t.trim() === '' ? null : (isoOfDisplayDate(t) ?? t));
      }}
    />
  );
}

/** Read-only text of a field. */
function displayValue(field: FieldDef, details: FundDetails, draft: Draft, nrd: Nrd | null): string {
  if (field.display) return field.display(details);
  const value = field.kind === 'readonly' ? fundValue(details, field.key) : draft[field.key];
  switch (field.kind) {
    case 'select':
      return refLabel(nrd?.[field.list ?? ''], value);
    case 'date':
      return displayDate(value as string | null);
    case 'percent':
      return percent(value);
    case 'yesno':
    case 'yn':
      return yesNo(value);
    case 'codes':
      return draft.alternative_codes.join(', ');
    default:
      if (DATE_KEYS.includes(field.key)) return displayDate(value as string | null);
      return value === null || value === undefined ? '' : String(value);
  }
}

/** Props of a field row. */
export interface FieldRowProps {
  field: FieldDef;
  details: FundDetails;
  draft: Draft;
  editable: boolean;
  nrd: Nrd | null;
  onChange: (key: string, value: unknown) => void;
}

/** A label and its value or control (label bound to the control for assistive technology). */
export function FieldRow({ field, details, draft, editable, nrd, onChange }: FieldRowProps) {
  const id = `fa-fd-${field.key}`;
  if (!editable) {
    const text = displayValue(field, details, draft, nrd);
    return (
      <>
        <span className="fa-field-label" id={`${id}-label`}>
          {field.label}
        </span>
        <span className="fa-field-ro" aria-labelledby={`${id}-label`} data-field={field.key}>
          {text || <span className="fa-muted">-</span>}
        </span>
      </>
    );
  }
  const value = draft[field.key];
  let control;
  switch (field.kind) {
    case 'select': {
      const options = refOptions(nrd?.[field.list ?? '']);
      control = (
        <Dropdown
          inputId={id}
          value={value ?? null}
          options={options}
          onChange={(e) => onChange(field.key, e.value ?? null)}
          filter={options.length > 10}
          showClear
          placeholder="Select"
        />
      );
      break;
    }
    case 'yesno':
      control = <Dropdown inputId={id} value={Boolean(value)} options={YES_NO} onChange={(e) => onChange(field.key, e.value)} />;
      break;
    case 'yn':
      control = <Dropdown inputId={id} value={value === 'Y' ? 'Y' : 'N'} options={Y_N} onChange={(e) => onChange(field.key, e.value)} />;
      break;
    case 'date':
      control = <DateInput id={id} value={value} onChange={(v) => onChange(field.key, v)} />;
      break;
    case 'percent':
      control = <PercentInput id={id} value={value} onChange={(v) => onChange(field.key, v)} />;
      break;
    case 'textarea':
      control = (
        <InputTextarea
          id={id}
          value={(value as string | null) ?? ''}
          rows={3}
          autoResize
          onChange={(e) => onChange(field.key, e.target.value)}
          style={{ width: '100%' }}
        />
      );
      break;
    case 'codes':
      control = (
        <Chips
          inputId={id}
          value={draft.alternative_codes}
          separator=","
          onChange={(e) => onChange('alternative_codes', e.value ?? [])}
          allowDuplicate={false}
        />
      );
      break;
    default:
      control = <InputText id={id} value={(value as string | null) ?? ''} onChange={(e) => onChange(field.key, e.target.value)} />;
  }
  return (
    <>
      <label htmlFor={id}>{field.label}</label>
      <div data-field={field.key}>{control}</div>
    </>
  );
}
