/**
 * The one display format of dates and timestamps, on every screen and in the command line's tables
 * (spec section 9): dates DD/MM/YYYY, timestamps DD/MM/YYYY HH:mm:ss in local time. Stored and sent
 * values stay ISO (`YYYY-MM-DD`, ISO 8601 timestamps); only what people read is formatted here.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO date (`2023-03-31`) or timestamp (`2023-03-31T10:30:00.000Z`), as the API and database hold them. */
const ISO_VALUE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A date or timestamp as DD/MM/YYYY; `withTime` adds HH:mm:ss (local time) to a timestamp. A date
 * without a time is never shifted by the time zone. '' for no value; unreadable text as it is.
 */
export function displayDate(value: string | Date | null | undefined, withTime = false): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') {
    const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (dateOnly) return `${dateOnly[3]}/${dateOnly[2]}/${dateOnly[1]}`;
  }
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const date = `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
  return withTime ? `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` : date;
}

/** A timestamp as DD/MM/YYYY HH:mm:ss in local time (a plain date stays DD/MM/YYYY); '' for none. */
export function displayDateTime(value: string | Date | null | undefined): string {
  return displayDate(value, true);
}

/**
 * A table cell as people read it (the command line's tables): an ISO date or timestamp through
 * `displayDateTime`, anything else as text ('' for none).
 */
export function displayCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return displayDateTime(value);
  const s = String(value);
  return ISO_VALUE.test(s) ? displayDateTime(s) : s;
}

/**
 * The calendar day of an ISO date (`2023-03-31`) as a local `Date` at midnight, for a date picker;
 * null for no value or text that is not a real date (`2023-02-30`).
 */
export function dateOfIso(value: string | null | undefined): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  if (!m) return null;
  const [y, mo, day] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const d = new Date(2000, 0, 1);
  d.setFullYear(y, mo, day);
  return d.getFullYear() === y && d.getMonth() === mo && d.getDate() === day ? d : null;
}

/** The ISO date (`YYYY-MM-DD`) of a picked local day: the inverse of `dateOfIso`; null for none. */
export function isoOfDate(value: Date | null | undefined): string | null {
  if (!value || Number.isNaN(value.getTime())) return null;
  return `${String(value.getFullYear()).padStart(4, '0')}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** The ISO date (`YYYY-MM-DD`) of a real date typed as DD/MM/YYYY (one-digit day and month allowed), else null. */
export function isoOfDisplayDate(text: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  return isoOfDate(dateOfIso(`${m[3]}-${pad(Number(m[2]))}-${pad(Number(m[1]))}`));
}
