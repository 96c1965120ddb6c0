/**
 * The filter editor of one grid column, shown in an overlay under the column's filter button:
 * enum (a list of values to tick), text (contains), date range (from/to, inclusive, typed or
 * picked as DD/MM/YYYY) and number
 * range (min/max), as the server's grid filter model accepts them. Apply sets, Clear removes.
 */
import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import type { FilterType, ListingFilter } from '../../api/delivery-types';
import { DateInput } from '../date-input';

export interface FilterOption {
  value: string;
  label: string;
}

export interface ColumnFilterProps {
  label: string;
  field: string;
  type: FilterType;
  options?: readonly FilterOption[];
  current: ListingFilter | undefined;
  onApply: (filter: ListingFilter | null) => void;
}

/** Whether a filter restricts anything (an empty one is removed instead of applied). */
export function isEffectiveFilter(f: ListingFilter): boolean {
  switch (f.type) {
    case 'enum':
      return f.value.length > 0;
    case 'text':
      return f.value.trim() !== '';
    case 'date':
      return Boolean(f.value.from || f.value.to);
    case 'number':
      return f.value.min !== undefined || f.value.max !== undefined;
  }
}

const numberOf = (s: string): number | undefined => (s.trim() === '' || !Number.isFinite(Number(s)) ? undefined : Number(s));

/** The editor for one column's filter. */
export function ColumnFilter({ label, field, type, options = [], current, onApply }: ColumnFilterProps) {
  const cur = current?.type === type ? current : undefined;
  const [values, setValues] = useState<string[]>(cur?.type === 'enum' ? [...cur.value] : []);
  const [text, setText] = useState(cur?.type === 'text' ? cur.value : '');
  const [from, setFrom] = useState(cur?.type === 'date' ? (cur.value.from ?? '') : cur?.type === 'number' ? String(cur.value.min ?? '') : '');
  const [to, setTo] = useState(cur?.type === 'date' ? (cur.value.to ?? '') : cur?.type === 'number' ? String(cur.value.max ?? '') : '');
  const id = `fa-filter-${field}`;

  const build = (): ListingFilter => {
    switch (type) {
      case 'enum':
        return { field, type, value: values };
      case 'text':
        return { field, type, value: text.trim() };
      case 'date':
        return { field, type, value: { from: from || undefined, to: to || undefined } };
      case 'number':
        return { field, type, value: { min: numberOf(from), max: numberOf(to) } };
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const f = build();
    onApply(isEffectiveFilter(f) ? f : null);
  };

  const toggle = (v: string, on: boolean) => setValues((prev) => (on ? [...prev, v] : prev.filter((x) => x !== v)));

  return (
    <form className="fa-col-filter" onSubmit={submit} aria-label={`Filter ${label}`} role="dialog">
      <div className="fa-col-filter-title">Filter {label}</div>
      {type === 'enum' && (
        <fieldset className="fa-col-filter-options">
          <legend className="fa-sr-only">{label} values</legend>
          {options.map((o, i) => (
            <div key={o.value} className="fa-col-filter-option">
              <Checkbox
                inputId={`${id}-${o.value}`}
                checked={values.includes(o.value)}
                onChange={(e) => toggle(o.value, Boolean(e.checked))}
                autoFocus={i === 0}
              />
              <label htmlFor={`${id}-${o.value}`}>{o.label}</label>
            </div>
          ))}
        </fieldset>
      )}
      {type === 'text' && (
        <span className="fa-col-filter-field">
          <label htmlFor={`${id}-text`}>Contains</label>
          <InputText id={`${id}-text`} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
        </span>
      )}
      {type === 'date' && (
        <div className="fa-col-filter-range">
          <span className="fa-col-filter-field">
            <label htmlFor={`${id}-from`}>From</label>
            <DateInput inputId={`${id}-from`} value={from || null} onChange={(v) => setFrom(v ?? '')} autoFocus />
          </span>
          <span className="fa-col-filter-field">
            <label htmlFor={`${id}-to`}>To</label>
            <DateInput inputId={`${id}-to`} value={to || null} onChange={(v) => setTo(v ?? '')} />
          </span>
        </div>
      )}
      {type === 'number' && (
        <div className="fa-col-filter-range">
          <span className="fa-col-filter-field">
            <label htmlFor={`${id}-from`}>Min</label>
            <InputText id={`${id}-from`} type="number" value={from} onChange={(e) => setFrom(e.target.value)} autoFocus />
          </span>
          <span className="fa-col-filter-field">
            <label htmlFor={`${id}-to`}>Max</label>
            <InputText id={`${id}-to`} type="number" value={to} onChange={(e) => setTo(e.target.value)} />
          </span>
        </div>
      )}
      <div className="fa-col-filter-buttons">
        <Button type="button" label="Clear" size="small" outlined onClick={() => onApply(null)} />
        <Button type="submit" label="Apply" size="small" />
      </div>
    </form>
  );
}
