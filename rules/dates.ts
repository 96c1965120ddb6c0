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
