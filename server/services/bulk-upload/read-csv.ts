/**
 * Reads a bulk-upload CSV into rows keyed by template column. Bad files fail with one
 * ValidationError that names the file, the row and the column: not a .csv, empty, header columns
 * missing or misspelt, ragged rows, an unclosed quote. Encodings: see pipeline/readers/encoding.ts.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { ANY_LINE_ENDING } from '../../../pipeline/readers/delimited.js';
import { decodeText, type DetectedEncoding } from '../../../pipeline/readers/encoding.js';
import { TooLargeError, ValidationError } from '../../errors.js';
import { heavyWork } from '../../lib/guard.js';
import { BULK_REQUIRED_COLUMNS, BULK_UPLOAD_COLUMNS, type BulkUploadColumn } from './columns.js';

export interface CsvRow {
  /** 1-based line number in the file (header is line 1). */
  line: number;
  values: Partial<Record<BulkUploadColumn, string>>;
}

export interface ReadCsvResult {
  encoding: DetectedEncoding;
  columns: BulkUploadColumn[];
  rows: CsvRow[];
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const KNOWN = new Map(BULK_UPLOAD_COLUMNS.map((c) => [norm(c), c]));

/** Levenshtein distance, for "did you mean" on misspelt headers. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

function closest(name: string): BulkUploadColumn | undefined {
  let best: BulkUploadColumn | undefined;
  let bestD = Infinity;
  for (const c of BULK_UPLOAD_COLUMNS) {
    const d = distance(norm(name), norm(c));
    if (d < bestD) [best, bestD] = [c, d];
  }
  return bestD <= Math.max(2, Math.floor(norm(name).length / 4)) ? best : undefined;
}

/**
 * Decodes and parses a bulk-upload file.
 * @param fileName shown in every error
 * @param bytes the file as uploaded
 * @param maxBytes size limit (spec: 200M)
 * @param maxRows most data rows (setting `maxBulkUploadRows`): reading stops one row past it
 * @throws TooLargeError over the size limit; ValidationError for any unreadable file or one with more rows
 */
export function readBulkCsv(fileName: string, bytes: Uint8Array, maxBytes: number, maxRows?: number): ReadCsvResult {
  heavyWork('bulk-upload CSV parsing');
  if (!/\.csv$/i.test(fileName)) throw new ValidationError(`${fileName}: only .csv files can be bulk uploaded`);
  if (bytes.byteLength > maxBytes) throw new TooLargeError(maxBytes, fileName);
  const { text, encoding } = decodeText(bytes);
  if (!text.trim()) throw new ValidationError(`${fileName}: the file is empty`);
  let parsed: Array<{ record: string[]; info: { lines: number } }>;
  try {
    parsed = (parse as unknown as (t: string, o: object) => typeof parsed)(text, {
      info: true,
      bom: true,
      // each line keeps its own ending: a file pieced together on Windows and elsewhere mixes CRLF and LF
      record_delimiter: ANY_LINE_ENDING,
      skip_empty_lines: true,
      relax_column_count: false,
      trim: true,
      skip_records_with_empty_values: true,
      // the header and one row past the limit are enough to refuse a longer file
      ...(maxRows ? { to: maxRows + 2 } : {}),
    });
  } catch (err) {
    if (err instanceof CsvError) {
      const e = err as CsvError & { lines?: number; record?: string[] };
      if (e.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' || e.code === 'CSV_RECORD_INCONSISTENT_COLUMNS') {
        const expected = /expect (\d+)/.exec(e.message)?.[1] ?? 'a different number of';
        throw new ValidationError(`${fileName}: row ${e.lines} has ${e.record?.length ?? '?'} values but the header has ${expected} columns`, [
          `${fileName}, row ${e.lines}: wrong number of values (ragged row)`,
        ]);
      }
      if (e.code === 'CSV_QUOTE_NOT_CLOSED') {
        throw new ValidationError(`${fileName}: a quote opened near row ${e.lines} is never closed`, [`${fileName}, row ${e.lines}: quote not closed`]);
      }
      throw new ValidationError(`${fileName}: not a readable CSV file near row ${e.lines}: ${e.message}`);
    }
    throw err;
  }
  const [first, ...body] = parsed;
  if (maxRows && body.length > maxRows)
    throw new ValidationError(
      `${fileName}: the file has more than ${maxRows} rows, the most one bulk upload may have (setting maxBulkUploadRows); split it into several files`,
    );
  const header = first?.record;
  if (!header || header.every((h) => !h)) throw new ValidationError(`${fileName}: the header row is missing`);
  const columns: BulkUploadColumn[] = [];
  const problems: string[] = [];
  header.forEach((h, i) => {
    const known = KNOWN.get(norm(h));
    if (known) columns.push(known);
    else {
      const guess = closest(h);
      problems.push(`${fileName}, header column ${i + 1} '${h}' is not a template column${guess ? ` (did you mean '${guess}'?)` : ''}`);
      columns.push(h as BulkUploadColumn);
    }
  });
  const missing = BULK_REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  for (const m of missing) problems.push(`${fileName}: required column '${m}' is missing from the header`);
  if (problems.length) {
    throw new ValidationError(
      `${fileName}: the header does not match the template (${missing.length} missing, ${problems.length - missing.length} not recognised)`,
      problems,
    );
  }
  if (!body.length) throw new ValidationError(`${fileName}: the file has a header but no rows`);
  const rows = body.map(({ record, info }) => {
    const values: CsvRow['values'] = {};
    columns.forEach((c, j) => {
      const v = record[j];
      if (v !== undefined && v !== '') values[c] = v;
    });
    return { line: info.lines, values };
  });
  return { encoding, columns, rows };
}
