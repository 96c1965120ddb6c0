/**
 * A work-paper sheet that continues on further sheets when it would pass Excel's row limit:
 * 'Holdings', 'Holdings (2)', 'Holdings (3)', … each with the same header rows, frozen header,
 * column widths and number formats as the first, every row on exactly one sheet in the order
 * written. Where a row lands is computed, not looked up (`placeOf`), so a sheet written before
 * (the Summary) can name the sheet and row of any row of a later one.
 */
import type { XlsxWorkbook } from './xlsx-stream.js';
import { SheetWriter, type Cell, type Fmt } from './sheet-writer.js';

/**
 * Excel's limit of rows on a worksheet, header rows included (Microsoft, "Excel specifications
 * and limits": total number of rows and columns on a worksheet, 1,048,576 rows by 16,384
 * columns). A sheet with more rows is not opened whole by Excel.
 */
export const EXCEL_MAX_ROWS = 1_048_576;

/** Excel's limit of columns on a worksheet (same source as `EXCEL_MAX_ROWS`). */
export const EXCEL_MAX_COLUMNS = 16_384;

/** The name of the `index`-th (0-based) sheet a sheet continues on: `base`, then `base (2)`, `base (3)`, … */
export const continuedName = (base: string, index: number): string => (index === 0 ? base : `${base} (${index + 1})`);

/** A row's sheet and its 1-based row number there. */
export interface RowPlace {
  sheet: string;
  row: number;
}

/**
 * Checks a rows-per-sheet limit: an integer above the header rows and at most Excel's.
 * Throws a RangeError naming the limit otherwise.
 */
export function checkMaxRows(maxRows: number, headerRows = 1): number {
  if (!Number.isInteger(maxRows) || maxRows <= headerRows || maxRows > EXCEL_MAX_ROWS)
    throw new RangeError(`rows per sheet must be an integer from ${headerRows + 1} to ${EXCEL_MAX_ROWS} (Excel's limit), got ${maxRows}`);
  return maxRows;
}

/**
 * Where the `index`-th (0-based) row after the header rows lands when a sheet named `base` with
 * `headerRows` header rows continues every `maxRows` rows (header rows included).
 */
export function placeOf(base: string, index: number, headerRows: number, maxRows: number): RowPlace {
  const perSheet = maxRows - headerRows;
  return { sheet: continuedName(base, Math.floor(index / perSheet)), row: headerRows + 1 + (index % perSheet) };
}

/** The sheets `rows` rows (after the header rows) fill: one at least. */
export function sheetsFor(base: string, rows: number, headerRows: number, maxRows: number): string[] {
  const n = Math.max(1, Math.ceil(rows / (maxRows - headerRows)));
  return Array.from({ length: n }, (_, i) => continuedName(base, i));
}

/** One sheet being written row by row that continues on a new sheet, header rows repeated, when it is full. */
export class ContinuedSheet {
  private current: SheetWriter;
  private rowsOnSheet = 0;
  private readonly names: string[];
  /**
   * Opens the first sheet and writes its header rows (bold).
   * @param header the header rows, repeated at the top of every sheet
   * @param maxRows rows a sheet holds, header rows included (default Excel's limit); throws a
   *   RangeError unless above the header rows and at most Excel's limit
   */
  constructor(
    private readonly wb: XlsxWorkbook,
    private readonly base: string,
    private readonly widths: number[],
    private readonly defaults: Array<Fmt | null>,
    private readonly header: Cell[][],
    private readonly maxRows = EXCEL_MAX_ROWS,
  ) {
    checkMaxRows(maxRows, header.length);
    this.names = [base];
    this.current = this.open(base);
  }

  private open(name: string): SheetWriter {
    const s = new SheetWriter(this.wb, name, this.widths, this.defaults);
    for (const h of this.header) s.row(h, true);
    this.rowsOnSheet = this.header.length;
    return s;
  }

  /** Writes one row (see `SheetWriter.row`), on a new sheet when the current one is full. */
  row(cells: Cell[], bold = false): void {
    if (this.rowsOnSheet === this.maxRows) {
      this.current.commit();
      const name = continuedName(this.base, this.names.length);
      this.names.push(name);
      this.current = this.open(name);
    }
    this.current.row(cells, bold);
    this.rowsOnSheet++;
  }

  blank(): void {
    this.row([]);
  }

  /** Waits while the current sheet's rows wait to be compressed (see `SheetWriter.drain`). */
  drain(): Promise<void> {
    return this.current.drain();
  }

  /** The sheets written so far, in order. */
  get sheets(): readonly string[] {
    return this.names;
  }

  commit(): void {
    this.current.commit();
  }
}
