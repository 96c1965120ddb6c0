/**
 * CSV for export files (DOMAIN.md 2.6): UTF-8 with BOM (spreadsheet programs then read UTF-8),
 * CRLF line ends, RFC 4180 quoting. Numbers stay numbers (plain digits, no thousands separators);
 * text goes through `safeCellText` (pipeline/work-papers/safe-cell.ts, shared with the work
 * papers), so no cell is read as a formula. Rows come from an iterable and are written in
 * batches, so a table of any size streams with bounded memory.
 */
import { Readable } from 'node:stream';
import { safeCellText } from '../../../pipeline/work-papers/safe-cell.js';

const BOM = '\ufeff';
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell as CSV text: finite numbers as digits, booleans Yes/No (spec), null empty, objects as JSON, text neutralised. */
export function csvValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value === null || value === undefined) return '';
  const text = safeCellText(typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line with its CRLF. */
export function csvLine(cells: readonly unknown[]): string {
  return cells.map(csvValue).join(',') + '\r\n';
}

function* lines(header: readonly string[], rows: Iterable<readonly unknown[]>, batch: number): Generator<Buffer> {
  let chunk = BOM + csvLine(header);
  let n = 0;
  for (const row of rows) {
    chunk += csvLine(row);
    if (++n % batch === 0) {
      yield Buffer.from(chunk, 'utf8');
      chunk = '';
    }
  }
  if (chunk) yield Buffer.from(chunk, 'utf8');
}

/**
 * A readable CSV file: BOM, header, then the rows (pulled lazily, `batch` rows per chunk).
 * Destroying the stream closes the row iterable (e.g. a database iterator).
 */
export function csvStream(header: readonly string[], rows: Iterable<readonly unknown[]>, batch = 500): Readable {
  return Readable.from(lines(header, rows, batch), { objectMode: false });
}

/** A whole (small) CSV file as text, with its BOM. */
export function csvText(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  let out = BOM + csvLine(header);
  for (const row of rows) out += csvLine(row);
  return out;
}
