/**
 * A date input of every screen: PrimeReact's Calendar showing and accepting DD/MM/YYYY (its
 * `dd/mm/yy`), the one date format (spec section 9, rules/dates.ts), whatever the browser's locale;
 * the value in and out is an ISO date (`YYYY-MM-DD`), or null when emptied.
 */
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

/** A DD/MM/YYYY date field with a picker (typing works too; the picker opens from its button). */
export function DateInput({ inputId, value, onChange, autoFocus, ariaLabel }: DateInputProps) {
  return (
    <Calendar
      inputId={inputId}
      value={dateOfIso(value)}
      onChange={(e) => onChange(isoOfDate(e.value as Date | null))}
      dateFormat="dd/mm/yy"
      placeholder="DD/MM/YYYY"
      showIcon
      showButtonBar
      appendTo="self"
      autoFocus={autoFocus}
      aria-label={ariaLabel}
    />
  );
}
