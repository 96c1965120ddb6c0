/**
 * A date input of every screen: PrimeReact's Calendar showing and accepting DD/MM/YYYY (its
 * `dd/mm/yy`), the one date format (spec section 9, rules/dates.ts), whatever the browser's locale;
 * the value in and out is an ISO date (`YYYY-MM-DD`), or null when emptied.
 */
import { useEffect, useState } from 'react';
import { Calendar } from 'primereact/calendar';
import { dateOfIso, isoOfDate } from '../../../rules';

export interface DateInputProps {
  inputId: string;
  /** ISO date (`YYYY-MM-DD`), or '' / null for none. */
  value: string | null;
  onChange: (iso: string | null) => void;
  autoFocus?: boolean;
  ariaLabel?: string;
}

/** A DD/MM/YYYY date field: typed, or picked in the panel its button opens (focus alone does not open it, so typing is never covered). */
export function DateInput({ inputId, value, onChange, autoFocus, ariaLabel }: DateInputProps) {
  // the Calendar gets back the very Date it parsed: a new one for the same day would make it
  // rewrite the text being typed; only a change from outside (a cleared filter) replaces it
  const [date, setDate] = useState<Date | null>(() => dateOfIso(value));
  useEffect(() => {
    setDate((d) => (isoOfDate(d) === (value || null) ? d : dateOfIso(value)));
  }, [value]);
  return (
    <Calendar
      inputId={inputId}
      value={date}
      onChange={(e) => {
        const picked = (e.value as Date | null) ?? null;
        setDate(picked);
        onChange(isoOfDate(picked));
      }}
      dateFormat="dd/mm/yy"
      placeholder="DD/MM/YYYY"
      showIcon
      showOnFocus={false}
      showButtonBar
      appendTo="self"
      autoFocus={autoFocus}
      aria-label={ariaLabel}
    />
  );
}
