/**
 * CSV files users download (DOMAIN.md 2.6): the export files, mapping downloads, the
 * custom-mapping report and the bulk-upload template all go through here. UTF-8 with BOM
 * (spreadsheet programs then read UTF-8), CRLF line ends, RFC 4180 quoting by csv-stringify (the
 * project's one CSV writer, as csv-parse is its one reader). Numbers stay numbers (plain digits,
 * no thousands separators); text goes through `safeCellText` (pipeline/work-papers/safe-cell.ts,
 * shared with the work papers), so no cell is read as a formula. Rows come from an iterable and
 * are written in batches, so a table of any size streams with bounded memory.
 */
import { Readable } from 'node:stream';
import { stringify, type Options } from 'csv-stringify/sync';
import { safeCellText } from '../../../pipeline/work-papers/safe-cell.js';

const BOM = '\ufeff';
const OPTIONS: Options = { record_delimiter: 'windows' };

/** One cell's text before quoting: finite numbers as digits, booleans Yes/No (spec), null empty, objects as JSON, text neutralised. */
export function cellText(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value === null || value === undefined) return '';
  return safeCellText(typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** CSV text of rows (no BOM), each line ending in CRLF. */
function csvRows(rows: ReadonlyArray<readonly unknown[]>): string {
  return stringify(
    rows.map((r) => r.map(cellText)),
    OPTIONS,
  );
}

/** One CSV line with its CRLF. */
export function csvLine(cells: readonly unknown[]): string {
  return csvRows([cells]);
}

/** Rows given one by one, or in groups read a group at a time (rows read back from the database in chunks). */
export type CsvRows = Iterable<readonly unknown[]> | AsyncIterable<ReadonlyArray<readonly unknown[]>>;

async function* chunks(header: readonly string[], rows: CsvRows, batch: number): AsyncGenerator<Buffer> {
  let pending: Array<readonly unknown[]> = [header];
  let prefix = BOM;
  // the rows of a group are taken synchronously: an await per group, never one per row
  const groups: Iterable<Iterable<readonly unknown[]>> | AsyncIterable<ReadonlyArray<readonly unknown[]>> = Symbol.asyncIterator in rows ? rows : [rows];
  for await (const group of groups) {
    for (const row of group) {
      pending.push(row);
      if (pending.length >= batch) {
        yield Buffer.from(prefix + csvRows(pending), 'utf8');
        pending = [];
        prefix = '';
      }
    }
  }
  if (pending.length) yield Buffer.from(prefix + csvRows(pending), 'utf8');
}

/**
 * A readable CSV file: BOM, header, then the rows (pulled lazily, `batch` rows per chunk).
 * Destroying the stream closes the row iterable (e.g. a database iterator).
 */
export function csvStream(header: readonly string[], rows: CsvRows, batch = 500): Readable {
  return Readable.from(chunks(header, rows, batch), { objectMode: false });
}

/** A whole (small) CSV file as text, with its BOM. */
export function csvText(header: readonly string[], rows: Iterable<readonly unknown[]>): string {
  return BOM + csvRows([header, ...rows]);
}
