/**
 * Cell value parsing by a TPA's file layout (DOMAIN.md 2.3, 4.1): numbers with the layout's
 * decimal and thousands separators, dates in the layout's date format, text. Pure functions; a
 * value that cannot be parsed gives `{ ok: false, error }` (never a guess), empty gives `null`.
 *
 * Cells come from `readTables` (strings from CSV; numbers, Dates and strings from xlsx) or from a
 * JSON round trip of such a table (Dates then arrive as ISO timestamps `2022-12-31T00:00:00.000Z`).
 */

/** A raw cell as the readers produce it. */
export type Cell = string | number | Date | null;

/** Date formats a file layout may declare (`date_format` column). */
export const DATE_FORMATS = ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY', 'YYYYMMDD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** Number format of a source column: decimal separator and thousands separator ('' = none). */
export interface NumberFormat {
  decimalSeparator: '.' | ',';
  thousandsSeparator: string;
}

/** Parse outcome: a value (null when the cell is empty) or an error text. */
export type Parsed<T> = { ok: true; value: T | null } | { ok: false; error: string };

const EMPTY: { ok: true; value: null } = { ok: true, value: null };

/** True when a cell holds nothing (null, empty or blank string). */
export function isEmptyCell(cell: Cell | undefined): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/** Shows a cell in an error message (strings quoted, cut at 40 characters). */
export function showCell(cell: Cell): string {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? 'Invalid Date' : cell.toISOString();
  const s = String(cell);
  return `'${s.length > 40 ? `${s.slice(0, 37)}...` : s}'`;
}

/** Text of a cell: trimmed string, number as written by JS, Date as ISO date; empty -> null. */
export function cellText(cell: Cell | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return isoDate(cell);
  const s = String(cell).trim();
  return s === '' ? null : s;
}

// characters removed before parsing a number: currency symbols and every kind of space
const STRIP = /[\s\u00a0\u202f\u2007$€£¥₣₹]/g;
const ISO_CCY = /^[A-Z]{3}(?=[\s\d(+\-−.,])|(?<=[\d).\s])[A-Z]{3}$/;
const PLAIN = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

const FAST = new Map<string, RegExp | null>();
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Pattern of the common case (optional minus, well grouped digits, decimals) of a format. */
function fastPattern(fmt: NumberFormat): RegExp | null {
  const key = fmt.decimalSeparator + fmt.thousandsSeparator;
  let re = FAST.get(key);
  if (re === undefined) {
    const d = esc(fmt.decimalSeparator);
    const t = esc(fmt.thousandsSeparator);
    re =
      fmt.thousandsSeparator === fmt.decimalSeparator
        ? null
        : fmt.thousandsSeparator
          ? new RegExp(`^-?(?:\\d{1,3}(?:${t}\\d{3})+|\\d+)(?:${d}\\d+)?$`)
          : new RegExp(`^-?\\d+(?:${d}\\d+)?$`);
    FAST.set(key, re);
  }
  return re;
}

/**
 * Parses a number cell. Strings: surrounding ISO currency code, currency symbols and spaces are
 * stripped; negatives may be written `-1`, `(1)`, `1-` or with the Unicode minus; the thousands
 * separator must group digits by three; the decimal separator is the layout's. xlsx numbers are
 * kept as they are. Dates and anything else are errors.
 */
export function parseNumber(cell: Cell | undefined, fmt: NumberFormat): Parsed<number> {
  if (cell === null || cell === undefined) return EMPTY;
  if (typeof cell === 'number') return Number.isFinite(cell) ? { ok: true, value: cell } : { ok: false, error: `${cell} is not a finite number` };
  if (cell instanceof Date) return { ok: false, error: `a date (${isoDate(cell)}) is not a number` };
  let s = cell.trim();
  if (s === '') return EMPTY;
  const fast = fastPattern(fmt);
  if (fast && fast.test(s)) {
    if (fmt.thousandsSeparator) s = s.split(fmt.thousandsSeparator).join('');
    return { ok: true, value: Number(fmt.decimalSeparator === ',' ? s.replace(',', '.') : s) || 0 };
  }
  s = s.replace(ISO_CCY, '').replace(STRIP, '');
  if (fmt.thousandsSeparator === "'") s = s.replace(/’/g, "'");
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (/^[-−]/.test(s)) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  if (/[-−]$/.test(s)) {
    negative = !negative;
    s = s.slice(0, -1);
  }
  const bad: { ok: false; error: string } = { ok: false, error: `${showCell(cell)} is not a number` };
  const dec = fmt.decimalSeparator;
  const th = fmt.thousandsSeparator.trim() === '' ? '' : fmt.thousandsSeparator.trim();
  const cut = s.indexOf(dec) >= 0 && dec !== th ? s.lastIndexOf(dec) : -1;
  let intPart = cut >= 0 ? s.slice(0, cut) : s;
  const fracPart = cut >= 0 ? s.slice(cut + 1) : null;
  if (th && intPart.includes(th)) {
    const groups = intPart.split(th);
    if (!/^\d{1,3}$/.test(groups[0]) || groups.slice(1).some((g) => !/^\d{3}$/.test(g))) return bad;
    intPart = groups.join('');
  }
  const plain = fracPart === null ? intPart : `${intPart}.${fracPart}`;
  if (!PLAIN.test(plain) || (fracPart !== null && !/^\d*(?:[eE][+-]?\d+)?$/.test(fracPart))) return bad;
  const n = Number(plain);
  if (!Number.isFinite(n)) return bad;
  return { ok: true, value: negative && n !== 0 ? -n : n };
}

/**
 * `parseNumber` for one format, its patterns prepared once: what a reader parsing a column of
 * many cells uses (the common case, a well-formed string, is parsed here; the rest by `parseNumber`).
 */
export function numberParser(fmt: NumberFormat): (cell: Cell | undefined) => Parsed<number> {
  const fast = fastPattern(fmt);
  const th = fmt.thousandsSeparator;
  const comma = fmt.decimalSeparator === ',';
  return (cell) => {
    if (typeof cell === 'string' && fast !== null) {
      const s = cell.trim();
      if (s === '') return EMPTY;
      if (fast.test(s)) {
        const digits = th ? s.replaceAll(th, '') : s;
        return { ok: true, value: Number(comma ? digits.replace(',', '.') : digits) || 0 };
      }
    }
    return parseNumber(cell, fmt);
  };
}

/** ISO `YYYY-MM-DD` of a Date's UTC calendar day (the readers give dates at UTC midnight). */
export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function ymd(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || y < 1000 || y > 9999) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d > days ? null : `${y}-${pad(m)}-${pad(d)}`;
}

const TIME = '(?:[ T]\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?)?';
const DATE_RE: Record<DateFormat, { re: RegExp; order: [number, number, number] }> = {
  'DD/MM/YYYY': { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`), order: [3, 2, 1] },
  'MM/DD/YYYY': { re: new RegExp(`^(\\d{1,2})/(\\d{1,2})/(\\d{4})${TIME}$`), order: [3, 1, 2] },
  'YYYY-MM-DD': { re: new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})${TIME}$`), order: [1, 2, 3] },
  'DD.MM.YYYY': { re: new RegExp(`^(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4})${TIME}$`), order: [3, 2, 1] },
  YYYYMMDD: { re: /^(\d{4})(\d{2})(\d{2})$/, order: [1, 2, 3] },
};
// a Date that went through JSON.stringify
const JSON_DATE = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** Excel serial day number (1900 date system) to ISO date. */
export function excelSerialToIso(serial: number): string {
  const ms = Math.round((serial < 60 ? serial + 1 : serial) * 86_400_000) + Date.UTC(1899, 11, 30);
  return isoDate(new Date(ms));
}

/**
 * Parses a date cell to ISO `YYYY-MM-DD` by the layout's format (default `YYYY-MM-DD`). Date cells
 * (xlsx) and JSON-serialized Dates are taken as they are; an xlsx number is a `YYYYMMDD` value
 * under that format, else an Excel serial day. Impossible dates (31/02/2023) are errors.
 */
export function parseDate(cell: Cell | undefined, format: string | null): Parsed<string> {
  if (cell === null || cell === undefined) return EMPTY;
  if (cell instanceof Date) {
    return Number.isNaN(cell.getTime()) ? { ok: false, error: 'invalid date' } : { ok: true, value: isoDate(cell) };
  }
  const fmt = (format && format in DATE_RE ? format : 'YYYY-MM-DD') as DateFormat;
  if (typeof cell === 'number') {
    if (fmt === 'YYYYMMDD' && Number.isInteger(cell)) return parseDate(String(cell), fmt);
    if (cell >= 1 && cell < 2_958_466) return { ok: true, value: excelSerialToIso(cell) };
    return { ok: false, error: `${cell} is not a date` };
  }
  const s = cell.trim();
  if (s === '') return EMPTY;
  const j = JSON_DATE.exec(s);
  if (j) return { ok: true, value: `${j[1]}-${j[2]}-${j[3]}` };
  const { re, order } = DATE_RE[fmt];
  const m = re.exec(s);
  const iso = m ? ymd(Number(m[order[0]]), Number(m[order[1]]), Number(m[order[2]])) : null;
  return iso ? { ok: true, value: iso } : { ok: false, error: `${showCell(cell)} is not a date in the format ${fmt}` };
}

/**
 * `parseDate` for one format, remembering the last text cell and its result: a column of a
 * delivery mostly repeats one date (the valuation date), parsed once. Results are shared: do not
 * change them.
 */
export function dateParser(format: string | null): (cell: Cell | undefined) => Parsed<string> {
  let lastText: string | null = null;
  let last: Parsed<string> = EMPTY;
  return (cell) => {
    if (typeof cell !== 'string') return parseDate(cell, format);
    if (cell !== lastText) {
      last = parseDate(cell, format);
      lastText = cell;
    }
    return last;
  };
}
