/**
 * Reads a delivered file as tables for identification (DOMAIN.md 2.2).
 *
 * - CSV / TXT: encoding detected by `decodeText` (UTF-8 with or without BOM, UTF-16, Windows-1252),
 *   delimiter detected among `,` `;` tab `|`, parsed by csv-parse (ragged rows allowed), one table.
 * - xlsx (zip magic `PK\x03\x04` or `.xlsx`/`.xlsm` name): read with exceljs, one table per
 *   non-empty worksheet, `file` = `name#Sheet`; numbers stay numbers, dates stay `Date` (see
 *   `cellOf`).
 * - Header row: TPA reports carry title lines above it; the header is the first row whose
 *   non-empty cells are mostly text (not numbers or dates) and whose width is at least the usual
 *   width of the rows below it (see `findHeader`).
 * Line numbers are 1-based physical lines of the file (CSV) or row numbers of the sheet (xlsx);
 * blank lines are skipped, never renumbered.
 * `streamTables` gives each table's rows as they are read (CSV in constant memory, whatever the
 * file's size); `readTables` collects them.
 */
import { decodeChunks, sniffEncoding } from './encoding.js';
import { delimitedBatches, rowWidth as width, UnreadableFileError } from './delimited.js';
import { bytesSource, type ByteSource } from './source.js';
import { readSheets, XLS_MAGIC, ZIP_MAGIC, type SheetStream } from './xlsx.js';
import type { Cell } from './values.js';

import type { RawRow, RawTable } from './types.js';

export type { RawRow, RawTable } from './types.js';
export { UnreadableFileError } from './delimited.js';
export { MAX_PART_BYTES } from './xlsx.js';

/** Spec constant: identification reads at most this many bytes per file. */
export const IDENTIFICATION_LIMIT_BYTES = 10_000_000;

/** The file is larger than identification reads (DOMAIN.md 2.2 limits). */
export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(
    readonly fileName: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${fileName} is ${size} bytes; identification reads at most ${limit} bytes (10,000,000 by default)`);
  }
}

/** Delimiters tried, in order of preference on a tie. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * Detects the delimiter of delimited text: for each candidate, the field count of each of the
 * first 50 records (quoted text ignored, quoted line breaks kept inside their record); the
 * candidate whose most common field count (above 1) occurs on the most records wins, ties going to
 * the wider count, then to the order of `DELIMITERS`. Text with none of them gives `,`.
 */
export function detectDelimiter(text: string): string {
  const counts = DELIMITERS.map(() => [] as number[]);
  const current = DELIMITERS.map(() => 0);
  let inQuotes = false;
  let nonEmpty = false;
  const end = Math.min(text.length, 256 * 1024);
  const flush = () => {
    if (nonEmpty) DELIMITERS.forEach((_, k) => counts[k].push(current[k] + 1));
    current.fill(0);
    nonEmpty = false;
  };
  for (let i = 0; i < end && counts[0].length < 50; i++) {
    const ch = text[i];
    if (ch === '"') {
      inQuotes = !inQuotes;
      nonEmpty = true;
    } else if (inQuotes) continue;
    else if (ch === '\n' || ch === '\r') flush();
    else {
      const k = DELIMITERS.indexOf(ch as (typeof DELIMITERS)[number]);
      if (k >= 0) current[k]++;
      if (ch !== ' ' && ch !== '\t') nonEmpty = true;
    }
  }
  if (counts[0].length < 50) flush();
  let best: { d: string; freq: number; width: number } = { d: ',', freq: 0, width: 0 };
  DELIMITERS.forEach((d, k) => {
    const [width, freq] = mode(counts[k].filter((n) => n > 1));
    if (freq > best.freq || (freq === best.freq && freq > 0 && width > best.width)) best = { d, freq, width };
  });
  return best.d;
}

/** Most common value and its frequency (ties: the larger value); [0, 0] for none. */
function mode(values: number[]): [number, number] {
  const freq = new Map<number, number>();
  for (const v of values) freq.set(v, (freq.get(v) ?? 0) + 1);
  let best: [number, number] = [0, 0];
  for (const [v, f] of freq) if (f > best[1] || (f === best[1] && v > best[0])) best = [v, f];
  return best;
}

const NUMERIC = /^[-+(−]?[$€£¥]?\s*\d[\d.,'\s\u00a0]*\)?[-−]?%?$/;
const DATE_LIKE = /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T].*)?$/;

/** True when a cell reads as a word or label, not a number or a date. */
function isLabel(cell: Cell): boolean {
  if (typeof cell !== 'string') return false;
  const s = cell.trim();
  return s !== '' && !NUMERIC.test(s) && !DATE_LIKE.test(s);
}

/** Rows looked at when searching the header; rows below a candidate compared with it. */
const HEADER_SEARCH_ROWS = 50;
const BELOW_ROWS = 50;

/**
 * Index of the header among non-blank rows: the first of the first 50 rows whose non-empty cells
 * are at least 75% labels (text that is neither a number nor a date), with at least two cells
 * (unless the table is one column wide), and whose width (up to its last non-empty cell) is at
 * least the median width of the up to 50 rows below it that have two cells or more (so a title
 * line such as `Portfolio: S000013795 ...` above a 13-column report is passed over, while ragged
 * data rows do not disqualify the real header). No such row: the first row.
 */
export function findHeader(rows: RawRow[]): number {
  const widths = rows.slice(0, HEADER_SEARCH_ROWS + BELOW_ROWS).map((r) => width(r.cells));
  const limit = Math.min(rows.length, HEADER_SEARCH_ROWS);
  for (let i = 0; i < limit; i++) {
    const cells = rows[i].cells;
    const w = widths[i];
    const below = widths
      .slice(i + 1, i + 1 + BELOW_ROWS)
      .filter((n) => n >= 2)
      .sort((a, b) => a - b);
    const usual = below.length ? below[Math.floor((below.length - 1) / 2)] : 0;
    if (w < usual || (w < 2 && usual > 0)) continue;
    let filled = 0;
    let labels = 0;
    for (let c = 0; c < w; c++) {
      const cell = cells[c];
      if (cell === null || (typeof cell === 'string' && cell.trim() === '')) continue;
      filled++;
      if (isLabel(cell)) labels++;
    }
    if (filled > 0 && labels / filled >= 0.75 && (filled >= 2 || w === 1)) return i;
  }
  return 0;
}

/** How a delivered file is read. */
export interface ReadOptions {
  /** Most bytes identification reads (spec: 10,000,000). */
  limitBytes: number;
  /** xlsx workbooks above this size are read as a stream (default `XLSX_STREAM_ABOVE_BYTES`). */
  xlsxStreamAboveBytes?: number;
}

/** A table whose data rows are read as they are consumed. */
export interface TableStream extends Omit<RawTable, 'rows'> {
  /** Non-blank data rows below the header; read once, before the next table is asked for. */
  rows: AsyncIterable<RawRow>;
  /**
   * The same rows in batches, in order (a CSV's rows chunk by chunk: one asynchronous step a
   * batch instead of one a row). One source: read either `rows` or `batches`, once.
   */
  batches: AsyncIterable<RawRow[]>;
}

/** The header of non-blank rows and the index of the first data row. */
function headerOf(rows: RawRow[]): { headerLine: number; header: string[]; first: number } {
  const h = findHeader(rows);
  const headerRow = rows[h];
  const header = headerRow.cells
    .slice(0, width(headerRow.cells))
    .map((c) => (c instanceof Date ? c.toISOString().slice(0, 10) : c === null ? '' : String(c).trim()));
  return { headerLine: headerRow.line, header, first: h + 1 };
}

/** Rows already read, then the rest of the iterator in batches; errors of the iterator go through `wrap`. */
async function* restBatches<T>(first: T[], it: AsyncIterator<T[]>, wrap: (err: unknown) => unknown = (e) => e): AsyncGenerator<T[]> {
  if (first.length) yield first;
  for (;;) {
    let r: IteratorResult<T[]>;
    try {
      r = await it.next();
    } catch (err) {
      throw wrap(err);
    }
    if (r.done) return;
    yield r.value;
  }
}

/** An iterator of rows as batches of one row. */
async function* single<T>(it: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const x of it) yield [x];
}

/** The rows of a table as `rows` and as `batches` (one source, read once either way). */
function rowsAndBatches(batches: AsyncIterable<RawRow[]>): Pick<TableStream, 'rows' | 'batches'> {
  return {
    batches,
    rows: (async function* () {
      for await (const b of batches) yield* b;
    })(),
  };
}

/** The first `n` rows of a batch iterator, and the rest of the batch that completes them. */
async function takeRows<T>(it: AsyncIterator<T[]>, n: number): Promise<{ rows: T[]; rest: T[] }> {
  const rows: T[] = [];
  while (rows.length < n) {
    const r = await it.next();
    if (r.done) break;
    for (const x of r.value) rows.push(x);
  }
  return { rows: rows.slice(0, n), rest: rows.slice(n) };
}

/** Text looked at for the delimiter (see `detectDelimiter`) and for binary content. */
const DELIMITER_SAMPLE = 256 * 1024;
const BINARY_SAMPLE = 4096;

/**
 * Reads a delivered file as one table (CSV/TXT) or one table per non-empty worksheet (xlsx), each
 * table's rows read as they are consumed: CSV text is decoded and parsed chunk by chunk, so
 * memory does not grow with the file; an xlsx workbook is loaded whole when small and read as a
 * stream when large (`readSheets`).
 * The header is found among the first 100 rows.
 * @param fileName the delivered name (used for the format by extension and in messages)
 * @param src the raw content (`bytesSource` or `fileSource`)
 * @param opts `limitBytes`: most bytes identification reads (spec: 10,000,000)
 * @throws FileTooLargeError above `limitBytes`; UnreadableFileError for empty, binary, legacy
 *   `.xls`, damaged, encrypted or zip-bomb xlsx, or malformed CSV content (while rows are read)
 */
export async function* streamTables(fileName: string, src: ByteSource, opts: ReadOptions): AsyncGenerator<TableStream> {
  if (src.size > opts.limitBytes) throw new FileTooLargeError(fileName, src.size, opts.limitBytes);
  if (src.size === 0) throw new UnreadableFileError(fileName, 'the file is empty');
  const head = src.head(8);
  if (XLS_MAGIC.every((b, i) => head[i] === b)) {
    throw new UnreadableFileError(fileName, 'it is a legacy Excel 97-2003 (.xls) workbook; deliver it as .xlsx or CSV');
  }
  if (ZIP_MAGIC.every((b, i) => head[i] === b) || /\.xls[xm]$/i.test(fileName)) {
    const unreadable = (err: unknown) =>
      err instanceof UnreadableFileError ? err : new UnreadableFileError(fileName, `it is not a readable xlsx workbook (${(err as Error).message})`);
    const sheets = readSheets(src.all(), opts.xlsxStreamAboveBytes)[Symbol.asyncIterator]();
    let tables = 0;
    try {
      for (;;) {
        let next: IteratorResult<SheetStream>;
        let firstRows: RawRow[] = [];
        let sheetRows: AsyncIterator<RawRow[]>;
        let sheetRest: RawRow[] = [];
        try {
          next = await sheets.next();
          if (next.done) break;
          sheetRows = single(next.value.rows)[Symbol.asyncIterator]();
          const taken = await takeRows(sheetRows, HEADER_SEARCH_ROWS + BELOW_ROWS);
          firstRows = taken.rows;
          sheetRest = taken.rest;
        } catch (err) {
          throw unreadable(err);
        }
        if (!firstRows.length) continue;
        const { first, ...h } = headerOf(firstRows);
        tables++;
        yield {
          file: `${fileName}#${next.value.name}`,
          sheetName: next.value.name,
          encoding: null,
          delimiter: null,
          ...h,
          ...rowsAndBatches(restBatches([...firstRows.slice(first), ...sheetRest], sheetRows, unreadable)),
        };
      }
    } finally {
      await sheets.return?.(undefined);
    }
    if (!tables) throw new UnreadableFileError(fileName, 'no worksheet of the workbook holds any data');
    return;
  }
  const sniffed = sniffEncoding(src);
  const text = () => decodeChunks(src, sniffed);
  let sample = '';
  for (const t of text()) {
    sample += t;
    if (sample.length >= DELIMITER_SAMPLE) break;
  }
  const start = sample.slice(0, BINARY_SAMPLE);
  // eslint-disable-next-line no-control-regex
  if (/\u0000/.test(start) || (start.match(/[\u0001-\u0008\u000e-\u001a]/g)?.length ?? 0) > start.length / 20) {
    throw new UnreadableFileError(fileName, 'it holds binary data, not delimited text or an xlsx workbook');
  }
  const delimiter = detectDelimiter(sample);
  sample = '';
  const it = delimitedBatches(fileName, text, delimiter, sniffed.hasQuotes)[Symbol.asyncIterator]();
  try {
    const { rows: firstRows, rest } = await takeRows(it, HEADER_SEARCH_ROWS + BELOW_ROWS);
    if (!firstRows.length) throw new UnreadableFileError(fileName, 'the file holds no data (only blank lines)');
    const { first, ...h } = headerOf(firstRows);
    yield {
      file: fileName,
      sheetName: null,
      encoding: sniffed.encoding,
      delimiter,
      ...h,
      ...rowsAndBatches(restBatches([...firstRows.slice(first), ...rest], it)),
    };
  } finally {
    await it.return?.(undefined);
  }
}

/**
 * Reads a delivered file as one table (CSV/TXT) or one table per non-empty worksheet (xlsx), with
 * every row in memory (see `streamTables` for the rules and errors).
 */
export async function readTables(fileName: string, bytes: Uint8Array | ByteSource, opts: ReadOptions): Promise<RawTable[]> {
  const src = bytes instanceof Uint8Array ? bytesSource(bytes) : bytes;
  const tables: RawTable[] = [];
  for await (const t of streamTables(fileName, src, opts)) {
    const rows: RawRow[] = [];
    for await (const r of t.rows) rows.push(r);
    const { batches: _, ...table } = t;
    tables.push({ ...table, rows });
  }
  return tables;
}
