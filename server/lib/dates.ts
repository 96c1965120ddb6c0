/**
 * Dates as users type them: ISO `YYYY-MM-DD` (also with a time part) or `DD/MM/YYYY`
 * (date-fns strict parsing, so 31/02/2023 is refused). Stored and sent as ISO `YYYY-MM-DD`.
 */
import { format, isValid, parse, parseISO } from 'date-fns';

/** Accepted input formats, in the words shown to users. */
export const DATE_FORMATS_TEXT = 'YYYY-MM-DD or DD/MM/YYYY';

/** Parses a user-entered date; returns ISO `YYYY-MM-DD` or undefined when it is not a real date. */
export function parseUserDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim();
  let d: Date | undefined;
  if (/^\d{4}-\d{2}-\d{2}([T ].*)?$/.test(v)) d = parseISO(v.slice(0, 10));
  else if (/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(v)) d = parse(v, 'd/M/yyyy', new Date(2000, 0, 1));
  if (!d || !isValid(d)) return undefined;
  return format(d, 'yyyy-MM-dd');
}

/** Today (or the day of `now`) as ISO `YYYY-MM-DD` (UTC). */
export function todayIso(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Adds days to an ISO date. */
export function addDaysIso(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
