/**
 * xlsx workbooks read for identification (DOMAIN.md 2.2) with exceljs: the non-blank rows of each
 * worksheet; numbers stay numbers, dates stay `Date` (see `cellOf`). A package is checked with
 * yauzl first (zip bombs, the date system).
 *
 * `readSheets` picks the reader by size. Up to `XLSX_STREAM_ABOVE_BYTES` the workbook is loaded
 * whole (`readWorkbook`): exact for every package exceljs reads. Above it, loading whole costs
 * too much (a 10 MB workbook took ~1 GB and 20 s), so the sheets' XML is read as a stream
 * (`streamWorkbook`, exceljs' streaming reader: only shared strings and styles are held). That
 * reader is stricter and coarser: every cell needs its reference, and a formula's cached boolean
 * or error result comes as a number (0 / 1, NaN); TPA exports are values, so it is kept for large
 * files only.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import excelUtils from 'exceljs/lib/utils/utils.js';
import yauzl from 'yauzl';
import type { RawRow } from './types.js';
import type { Cell } from './values.js';

export const XLS_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
export const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // `PK\x03\x04`: a zip local file header, as every xlsx starts

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
 * Checks an xlsx package before exceljs loads it, with yauzl (the project's zip reader): exceljs
 * inflates every part whole into memory, so a small file inflating to gigabytes would take the
 * process down; here each part is inflated as a stream and refused past `MAX_PART_BYTES` (yauzl
 * also fails a part whose bytes differ from the size its directory entry gives). Also reads the
 * workbook's date system: exceljs 4.4 takes `date1904="1"` but not the equally valid
 * `date1904="true"` that LibreOffice writes, and reads such a workbook's dates 1462 days early.
 * @returns how to fix the Dates exceljs will give
 * @throws Error when the zip is damaged or encrypted, a part is too large, or there is no workbook
 */
async function checkPackage(bytes: Uint8Array): Promise<DateFix> {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, autoClose: false });
  let workbook: string | undefined;
  for await (const part of zip.eachEntry()) {
    if (part.fileName.endsWith('/')) continue;
    if (part.isEncrypted()) throw new Error(`Encrypted zip entries are not supported (${part.fileName})`);
    if (part.uncompressedSize > MAX_PART_BYTES) throw new Error(`${part.fileName} inflates to more than ${MAX_PART_BYTES} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await zip.openReadStreamPromise(part)) {
      size += (chunk as Buffer).length;
      if (size > MAX_PART_BYTES) throw new Error(`${part.fileName} inflates to more than ${MAX_PART_BYTES} bytes`);
      if (part.fileName === 'xl/workbook.xml') chunks.push(chunk as Buffer);
    }
    if (part.fileName === 'xl/workbook.xml') workbook = Buffer.concat(chunks).toString('utf8');
  }
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

/** exceljs' own rules for date formats and serials (lib/utils), as its whole-workbook reader applies them. */
const { excelToDate, isDateFmt } = excelUtils;

/** The cells of one row, as `readWorkbook` and `streamWorkbook` give them (null when blank). */
function rowCells(row: ExcelJS.Row, dates: DateFix, date1904: boolean): Cell[] | null {
  const cells: Cell[] = [];
  row.eachCell((cell, col) => {
    if (cell.type === ExcelJS.ValueType.Merge) return;
    let value: Cell;
    // the streaming reader leaves a formula's cached result a serial number even under a date format
    if (cell.type === ExcelJS.ValueType.Formula && typeof cell.result === 'number' && isDateFmt(cell.numFmt))
      value = valueOf(excelToDate(cell.result, date1904), dates);
    else value = cellOf(cell, dates);
    if (value === null || (typeof value === 'string' && value.trim() === '')) return;
    while (cells.length < col - 1) cells.push(null);
    cells[col - 1] = value;
  });
  return cells.length ? cells : null;
}

/** One worksheet read as a stream: its name and its non-blank rows, read once. */
export interface SheetStream {
  name: string;
  rows: AsyncGenerator<RawRow>;
}

/**
 * Reads the worksheets of an xlsx workbook one after the other, each sheet's rows as they are
 * parsed (sheets in the order of the package, which is the workbook's order for files written by
 * Excel, LibreOffice and exceljs). Rows a consumer leaves unread are skipped before the next sheet.
 * A TypeError of exceljs before the first sheet is handed out reads the package again (at most
 * `attempts` times in all): its stream reader fails that way now and then on a valid workbook.
 * Blank rows are skipped; cells covered by a merged range hold nothing.
 * @throws Error from `checkPackage`, or whatever exceljs throws on a workbook it cannot read
 */
export async function* streamWorkbook(bytes: Buffer, attempts = STREAM_ATTEMPTS): AsyncGenerator<SheetStream> {
  const dates = await checkPackage(bytes);
  let yielded = false;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const date1904 = () => Boolean((reader as unknown as { properties?: { model?: { date1904?: boolean } } }).properties?.model?.date1904);
  try {
    for await (const ws of reader as unknown as AsyncIterable<ExcelJS.stream.xlsx.WorksheetReader & AsyncIterable<ExcelJS.Row> & { name: string }>) {
      const rows = (async function* () {
        for await (const row of ws) {
          const cells = rowCells(row, dates, date1904());
          if (cells) yield { line: row.number, cells };
        }
      })();
      try {
        yielded = true;
        yield { name: ws.name, rows };
      } finally {
        // the package is one stream: the next sheet comes after this one's last row
        for await (const _ of rows);
      }
    }
  } catch (err) {
    // exceljs' stream reader now and then reaches the first worksheet without the workbook part it
    // read before it (its model undefined) on a valid package; nothing was handed out yet, so the
    // package is read again from the start
    if (err instanceof TypeError && !yielded && attempts > 1) {
      yield* streamWorkbook(bytes, attempts - 1);
      return;
    }
    // exceljs reads the standard part names and unprefixed elements only; other layouts fail inside it
    throw err instanceof TypeError ? new Error(`its workbook XML cannot be read (${err.message})`) : err;
  }
}

/** How many times a workbook is read as a stream before a TypeError of exceljs is taken as an unreadable workbook. */
const STREAM_ATTEMPTS = 3;

/** Workbooks larger than this (bytes) are read as a stream (see the module note). */
export const XLSX_STREAM_ABOVE_BYTES = 2_000_000;

/**
 * The worksheets of a workbook, each with its rows as they are read: loaded whole up to
 * `streamAboveBytes`, streamed above it (see the module note).
 */
export async function* readSheets(bytes: Buffer, streamAboveBytes = XLSX_STREAM_ABOVE_BYTES): AsyncGenerator<SheetStream> {
  if (bytes.length > streamAboveBytes) {
    yield* streamWorkbook(bytes);
    return;
  }
  for (const sheet of await readWorkbook(bytes)) {
    yield {
      name: sheet.name,
      rows: (async function* () {
        yield* sheet.rows;
      })(),
    };
  }
}

/** One worksheet: its name and its non-blank rows (`line` = 1-based row number in the sheet). */
export interface Sheet {
  name: string;
  rows: RawRow[];
}

/**
 * Reads every worksheet of an xlsx workbook with exceljs, in workbook order. Blank rows (no cell
 * with a value, or only blank text) are skipped, so empty trailing rows are dropped; the cells
 * covered by a merged range other than its top-left one are empty.
 * @throws Error from `checkPackage`, or whatever exceljs throws on a workbook it cannot read
 */
export async function readWorkbook(bytes: Uint8Array): Promise<Sheet[]> {
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
      const cells = rowCells(row, dates, false);
      if (cells) rows.push({ line, cells });
    });
    return { name: ws.name, rows };
  });
}
