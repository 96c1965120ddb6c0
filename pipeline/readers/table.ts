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
 */
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { decodeText } from './encoding.js';
import type { Cell } from './values.js';

/** One row of a table: its 1-based line in the file (or row in the sheet) and its cells. */
export interface RawRow {
  line: number;
  cells: Cell[];
}

/** A table read from a file or worksheet, header found, data rows below it. */
export interface RawTable {
  /** The file name, or `fileName#SheetName` for an xlsx worksheet. */
  file: string;
  sheetName: string | null;
  /** Detected text encoding (CSV), null for xlsx. */
  encoding: string | null;
  /** Detected delimiter (CSV), null for xlsx. */
  delimiter: string | null;
  /** 1-based line (row) of the header. */
  headerLine: number;
  /** Header cells as trimmed text (trailing empty cells dropped). */
  header: string[];
  /** Non-blank data rows below the header. */
  rows: RawRow[];
}

/** Spec constant: identification reads at most this many bytes per file. */
export const IDENTIFICATION_LIMIT_BYTES = 10_000_000;

/** The file is larger than identification reads (DOMAIN.md 2.2 limits). */
export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly fileName: string, readonly size: number, readonly limit: number) {
    super(`${fileName} is ${size} bytes; identification reads at most ${limit} bytes (10,000,000 by default)`);
  }
}

/** The file cannot be read as a table: `reason` says why. */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError';
  constructor(readonly fileName: string, readonly reason: string) {
    super(`${fileName} cannot be read: ${reason}`);
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

/** Number of cells up to the last non-empty one. */
function width(cells: Cell[]): number {
  for (let i = cells.length - 1; i >= 0; i--) {
    const c = cells[i];
    if (c !== null && !(typeof c === 'string' && c.trim() === '')) return i + 1;
  }
  return 0;
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
    const below = widths.slice(i + 1, i + 1 + BELOW_ROWS).filter((n) => n >= 2).sort((a, b) => a - b);
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

/** Splits non-blank rows into header and data rows. */
function toTable(base: Omit<RawTable, 'headerLine' | 'header' | 'rows'>, rows: RawRow[]): RawTable {
  const h = findHeader(rows);
  const headerRow = rows[h];
  const header = headerRow.cells.slice(0, width(headerRow.cells)).map((c) => (c instanceof Date ? c.toISOString().slice(0, 10) : c === null ? '' : String(c).trim()));
  return { ...base, headerLine: headerRow.line, header, rows: rows.slice(h + 1) };
}

/** Parses delimited text into non-blank rows with their physical line numbers. */
function readDelimited(fileName: string, text: string, delimiter: string): RawRow[] {
  const normalized = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (!normalized.includes('"')) return splitPlain(normalized, delimiter);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(normalized, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }) as unknown as typeof records;
  } catch (err) {
    const code = (err as { code?: string }).code;
    const open = code === 'CSV_QUOTE_NOT_CLOSED' ? unclosedQuoteLine(normalized, delimiter) : null;
    throw new UnreadableFileError(fileName, open ? `Quote Not Closed: the quoted field opened on line ${open} is never closed` : (err as Error).message);
  }
  const rows: RawRow[] = [];
  for (const { record, info } of records) {
    let breaks = 0;
    let blank = true;
    const cells: Cell[] = new Array(record.length);
    for (let i = 0; i < record.length; i++) {
      const v = record[i];
      if (v.includes('\n')) breaks += v.split('\n').length - 1;
      if (v === '') cells[i] = null;
      else {
        cells[i] = v;
        if (blank && v.trim() !== '') blank = false;
      }
    }
    // csv-parse counts the line a record ends on; a quoted line break moves its start up
    if (!blank) rows.push({ line: info.lines - breaks, cells });
  }
  return rows;
}

/** Line on which a quoted field opens that never closes (quotes open only at a field's start). */
function unclosedQuoteLine(text: string, delimiter: string): number | null {
  let line = 1;
  let openedOn = 0;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (openedOn) {
      if (ch === '"') {
        if (text[i + 1] === '"') i++;
        else { openedOn = 0; fieldStart = false; }
      } else if (ch === '\n') line++;
      continue;
    }
    if (ch === '"' && fieldStart) openedOn = line;
    else if (ch === '\n') line++;
    fieldStart = ch === delimiter || ch === '\n';
  }
  return openedOn || null;
}

/**
 * Fast path for text without any double quote, where csv-parse (with `relax_column_count`,
 * `skip_empty_lines`) gives exactly one record per line split at the delimiter: the same rows,
 * about ten times faster (identification runs inline, so a 10 MB file matters).
 */
function splitPlain(text: string, delimiter: string): RawRow[] {
  const rows: RawRow[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.trim() === '') continue;
    const cells: Cell[] = l.split(delimiter).map((v) => (v === '' ? null : v));
    if (width(cells) > 0) rows.push({ line: i + 1, cells });
  }
  return rows;
}

const XLS_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // `PK\x03\x04`: a zip local file header, as every xlsx starts

/** Most bytes one part of an xlsx package may inflate to (guards against zip bombs): 256 MiB. */
export const MAX_PART_BYTES = 256 * 1024 * 1024;

const DAY_MS = 86_400_000;
/** exceljs' Date for serial 60, Excel's fictitious 1900-02-29 (Lotus 1-2-3 leap-year bug). */
const SERIAL_60 = Date.UTC(1900, 1, 28);
/** Days between the 1900 and 1904 date systems' day 0. */
const DAYS_1900_TO_1904 = 1462;

/** How the Dates exceljs gives are turned into the dates Excel shows. */
type DateFix = 'lotus' | 'none' | 'shift1904';

/**
 * Checks an xlsx package before exceljs loads it, with JSZip (the zip library exceljs itself
 * uses): exceljs inflates every part whole into memory, so a small file inflating to gigabytes
 * would take the process down; here each part is inflated as a stream and refused past
 * `MAX_PART_BYTES`. Also reads the workbook's date system: exceljs 4.4 takes `date1904="1"` but
 * not the equally valid `date1904="true"` that LibreOffice writes, and reads such a workbook's
 * dates 1462 days early.
 * @returns how to fix the Dates exceljs will give
 * @throws Error when the zip is damaged or encrypted, a part is too large, or there is no workbook
 */
async function checkPackage(bytes: Uint8Array): Promise<DateFix> {
  const zip = await JSZip.loadAsync(bytes);
  for (const part of Object.values(zip.files)) {
    if (part.dir) continue;
    await new Promise<void>((resolve, reject) => {
      let size = 0;
      const stream = part.nodeStream('nodebuffer');
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_PART_BYTES) return;
        stream.pause();
        stream.removeAllListeners('data');
        reject(new Error(`${part.name} inflates to more than ${MAX_PART_BYTES} bytes`));
      });
      stream.on('error', reject);
      stream.on('end', resolve);
    });
  }
  const workbook = await zip.file('xl/workbook.xml')?.async('string');
  if (workbook === undefined) throw new Error('the zip archive holds no spreadsheet workbook (is it an xlsx file?)');
  const pr = /<workbookPr\b[^>]*>/.exec(workbook)?.[0] ?? '';
  const date1904 = /\sdate1904\s*=\s*(["'])\s*(1|true)\s*\1/.exec(pr)?.[2];
  return date1904 === 'true' ? 'shift1904' : date1904 === '1' ? 'none' : 'lotus';
}

/**
 * An exceljs cell value as a table cell: numbers and strings as they are, booleans `TRUE` /
 * `FALSE`, rich text flattened, error cells their error text (`#VALUE!`), hyperlinks their text.
 * Dates: exceljs counts 1900-system serials from 1899-12-30, so serials below 60 (before Excel's
 * fictitious 1900-02-29) get the day Excel shows, one later (1 = 1900-01-01) (`lotus`); a
 * `date1904="true"` workbook read as 1900-based gets its 1462 days back (`shift1904`).
 */
function valueOf(v: ExcelJS.CellValue | undefined, dates: DateFix): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) {
    if (dates === 'shift1904') return new Date(v.getTime() + DAYS_1900_TO_1904 * DAY_MS);
    return dates === 'lotus' && v.getTime() < SERIAL_60 ? new Date(v.getTime() + DAY_MS) : v;
  }
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('error' in v) return v.error;
  if ('hyperlink' in v) return valueOf(v.text as ExcelJS.CellValue, dates);
  return null;
}

/**
 * A cell as a table cell (see `valueOf`); formula cells give their cached result (null without
 * one), read from `cell.result` because exceljs' formula `value` drops a result of 0, false or ''.
 */
function cellOf(cell: ExcelJS.Cell, dates: DateFix): Cell {
  return valueOf(cell.type === ExcelJS.ValueType.Formula ? cell.result : cell.value, dates);
}

/** One worksheet: its name and its non-blank rows (`line` = 1-based row number in the sheet). */
interface Sheet {
  name: string;
  rows: RawRow[];
}

/**
 * Reads every worksheet of an xlsx workbook with exceljs, in workbook order. Blank rows (no cell
 * with a value, or only blank text) are skipped, so empty trailing rows are dropped; the cells
 * covered by a merged range other than its top-left one are empty.
 * @throws Error from `checkPackage`, or whatever exceljs throws on a workbook it cannot read
 */
async function readWorkbook(bytes: Uint8Array): Promise<Sheet[]> {
  const dates = await checkPackage(bytes);
  const wb = new ExcelJS.Workbook();
  try {
    // exceljs' typings merge `Buffer` with `ArrayBuffer`; any Node Buffer (or Uint8Array) loads
    await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (err) {
    // exceljs reads the standard part names and unprefixed elements only; other layouts fail inside it
    throw err instanceof TypeError ? new Error(`its workbook XML cannot be read (${err.message})`) : err;
  }
  return wb.worksheets.map((ws) => {
    const rows: RawRow[] = [];
    ws.eachRow((row, line) => {
      const cells: Cell[] = [];
      row.eachCell((cell, col) => {
        if (cell.type === ExcelJS.ValueType.Merge) return;
        const value = cellOf(cell, dates);
        if (value === null || (typeof value === 'string' && value.trim() === '')) return;
        while (cells.length < col - 1) cells.push(null);
        cells[col - 1] = value;
      });
      if (cells.length) rows.push({ line, cells });
    });
    return { name: ws.name, rows };
  });
}

/**
 * Reads a delivered file as one table (CSV/TXT) or one table per non-empty worksheet (xlsx).
 * @param fileName the delivered name (used for the format by extension and in messages)
 * @param bytes the raw file content
 * @param opts `limitBytes`: most bytes identification reads (spec: 10,000,000)
 * @throws FileTooLargeError above `limitBytes`; UnreadableFileError for empty, binary, legacy
 *   `.xls`, damaged, encrypted or zip-bomb xlsx, or malformed CSV content (as rejections)
 */
export async function readTables(fileName: string, bytes: Uint8Array, opts: { limitBytes: number }): Promise<RawTable[]> {
  if (bytes.byteLength > opts.limitBytes) throw new FileTooLargeError(fileName, bytes.byteLength, opts.limitBytes);
  if (bytes.byteLength === 0) throw new UnreadableFileError(fileName, 'the file is empty');
  if (XLS_MAGIC.every((b, i) => bytes[i] === b)) {
    throw new UnreadableFileError(fileName, 'it is a legacy Excel 97-2003 (.xls) workbook; deliver it as .xlsx or CSV');
  }
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b) || /\.xls[xm]$/i.test(fileName)) {
    let sheets: Sheet[];
    try {
      sheets = await readWorkbook(bytes);
    } catch (err) {
      throw new UnreadableFileError(fileName, `it is not a readable xlsx workbook (${(err as Error).message})`);
    }
    const tables = sheets.filter((s) => s.rows.length > 0)
      .map((s) => toTable({ file: `${fileName}#${s.name}`, sheetName: s.name, encoding: null, delimiter: null }, s.rows));
    if (!tables.length) throw new UnreadableFileError(fileName, 'no worksheet of the workbook holds any data');
    return tables;
  }
  const { text, encoding } = decodeText(bytes);
  const sample = text.slice(0, 4096);
  // eslint-disable-next-line no-control-regex
  if (/\u0000/.test(sample) || (sample.match(/[\u0001-\u0008\u000e-\u001a]/g)?.length ?? 0) > sample.length / 20) {
    throw new UnreadableFileError(fileName, 'it holds binary data, not delimited text or an xlsx workbook');
  }
  const delimiter = detectDelimiter(text);
  const rows = readDelimited(fileName, text, delimiter);
  if (!rows.length) throw new UnreadableFileError(fileName, 'the file holds no data (only blank lines)');
  return [toTable({ file: fileName, sheetName: null, encoding, delimiter }, rows)];
}
