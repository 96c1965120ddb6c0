/**
 * Cell formats of the delivery grids (spec section 9): listing dates DD/MM/YYYY (with
 * HH:mm:ss for date-times), file views MM/DD/YYYY, percent columns with a % sign, booleans Yes/No.
 */

const pad = (n: number) => String(n).padStart(2, '0');

interface Parts {
  y: number;
  m: number;
  d: number;
  time: string | null;
}

/** Splits a date ('YYYY-MM-DD') or a timestamp (shown in local time) into parts; null when unreadable. */
function partsOf(value: string | null | undefined): Parts | null {
  if (!value) return null;
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (dateOnly) return { y: Number(dateOnly[1]), m: Number(dateOnly[2]), d: Number(dateOnly[3]), time: null };
  const t = new Date(value);
  if (Number.isNaN(t.getTime())) return null;
  return { y: t.getFullYear(), m: t.getMonth() + 1, d: t.getDate(), time: `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}` };
}

/** DD/MM/YYYY (a timestamp adds HH:mm:ss when `withTime`); '' for no value, the raw text when unreadable. */
export function formatDate(value: string | null | undefined, withTime = false): string {
  const p = partsOf(value);
  if (!p) return value ?? '';
  const date = `${pad(p.d)}/${pad(p.m)}/${p.y}`;
  return withTime && p.time ? `${date} ${p.time}` : date;
}

/**
 * A date typed in an uploaded csv (YYYY-MM-DD or DD/MM/YYYY, the template's two forms) as
 * DD/MM/YYYY, so one grid never mixes forms; other text is shown as typed.
 */
export function formatCsvDate(value: string | null | undefined): string {
  if (!value) return '';
  const v = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (iso) return `${iso[3]}/${iso[2]}/${iso[1]}`;
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (dmy) return `${pad(Number(dmy[1]))}/${pad(Number(dmy[2]))}/${dmy[3]}`;
  return v;
}

/** MM/DD/YYYY for the file views (a timestamp adds HH:mm:ss when `withTime`). */
export function formatFileDate(value: string | null | undefined, withTime = false): string {
  const p = partsOf(value);
  if (!p) return value ?? '';
  const date = `${pad(p.m)}/${pad(p.d)}/${p.y}`;
  return withTime && p.time ? `${date} ${p.time}` : date;
}

/** A percent value with its sign ('' for none). */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '' : `${value}%`;
}

/** Yes/No of a boolean or a Y/N, yes/no or true/false text (false, 'no' and 'N' mean No; empty stays empty). */
export function yesNo(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return ['y', 'yes', 'true', '1'].includes(value.trim().toLowerCase()) ? 'Yes' : 'No';
  return value ? 'Yes' : 'No';
}
