/**
 * Writing work-paper sheets row by row with exceljs' streaming writer: a bold frozen header row,
 * column widths, number formats per column (`FMT`), every text through `safeCellText`.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** The stream exceljs pipes a sheet's XML into (the zip entry's input). */
type ZipEntryInput = Writable & { _writableState?: { needDrain?: boolean } };
import type ExcelJS from 'exceljs';
import { safeCellText } from './safe-cell.js';

export const FMT = {
  money: '#,##0.00',
  pct: '0.00%',
  pct3: '0.000%',
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm',
  int: '#,##0',
  shares: '#,##0.000',
  rate: '0.00000000',
  price: '#,##0.00########',
} as const;
export type Fmt = keyof typeof FMT;

/** A cell value; numbers / dates may carry their format as `[value, fmt]`. */
export type Cell = string | number | Date | null | undefined | [number | Date | null | undefined, Fmt];

/** ISO date -> Date at UTC midnight (an integer Excel serial), or the text when not a date. */
export function isoDate(s: string | null | undefined): Date | string | null {
  if (!s) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : s;
}

/** Cell styles shared by every cell with the same format and weight (exceljs reuses a style object's id). */
const STYLES = new Map<string, Partial<ExcelJS.Style>>();
function styleOf(numFmt: string | null, bold: boolean): Partial<ExcelJS.Style> {
  const key = `${numFmt ?? ''}|${bold ? 'b' : ''}`;
  let style = STYLES.get(key);
  if (!style) {
    style = Object.freeze({ ...(numFmt ? { numFmt } : {}), ...(bold ? { font: { bold: true } } : {}) });
    STYLES.set(key, style);
  }
  return style;
}

/** One sheet being written: `row` commits each row at once. */
export class SheetWriter {
  private ws: ExcelJS.Worksheet;
  /** The style of a plain number, of a plain date and of a text in each column (not bold). */
  private numberStyles: Array<Partial<ExcelJS.Style>>;
  private dateStyles: Array<Partial<ExcelJS.Style>>;
  private readonly textStyle = styleOf(null, false);
  constructor(
    wb: ExcelJS.stream.xlsx.WorkbookWriter,
    name: string,
    widths: number[],
    private defaults: Array<Fmt | null> = [],
  ) {
    this.ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
    this.ws.columns = widths.map((width) => ({ width }));
    const columns = Array.from({ length: Math.max(widths.length, defaults.length) }, (_, i) => i);
    this.numberStyles = columns.map((i) => styleOf(FMT[defaults[i] ?? 'money'], false));
    this.dateStyles = columns.map((i) => styleOf(FMT[defaults[i] === 'datetime' ? 'datetime' : 'date'], false));
  }
  /**
   * Writes one row; `bold` for header and section rows. Row is committed at once. Each cell gets
   * one of a few shared style objects, so exceljs registers a style once, not once a cell; the
   * styles of a column's plain numbers, dates and texts are looked up once, when the sheet opens.
   */
  row(cells: Cell[], bold = false): void {
    const row = this.ws.addRow([]);
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      if (c === null || c === undefined) continue;
      const v = Array.isArray(c) ? c[0] : c;
      const f = Array.isArray(c) ? c[1] : null;
      if (v === null || v === undefined) continue;
      if (typeof v === 'number' && !Number.isFinite(v)) continue;
      const cell = row.getCell(i + 1);
      if (typeof v === 'string') {
        cell.value = safeCellText(v);
        cell.style = bold ? styleOf(null, bold) : this.textStyle;
      } else if (typeof v === 'number') {
        cell.value = v;
        cell.style = f || bold || i >= this.numberStyles.length ? styleOf(FMT[f ?? this.defaults[i] ?? 'money'], bold) : this.numberStyles[i];
      } else {
        cell.value = v;
        cell.style =
          f || bold || i >= this.dateStyles.length ? styleOf(FMT[f ?? (this.defaults[i] === 'datetime' ? 'datetime' : 'date')], bold) : this.dateStyles[i];
      }
    }
    row.commit();
  }
  blank(): void {
    this.row([]);
  }
  /**
   * Waits while the rows written so far wait to be compressed: exceljs' streaming writer hands a
   * sheet's XML to the zip as rows are committed, and a sheet written in one go would otherwise
   * pile up in memory whole. Long sheets call it every few hundred rows.
   */
  async drain(): Promise<void> {
    // the sheet's part of the zip: exceljs pipes it to the zip's entry as soon as it is opened
    // (a readable-stream 2 PassThrough, which keeps its state in `_writableState` only)
    const part = (this.ws as unknown as { stream?: { pipes?: ZipEntryInput[] } }).stream;
    const entry = part?.pipes?.[0];
    if (entry && (entry.writableNeedDrain ?? entry._writableState?.needDrain)) await once(entry, 'drain');
  }
  commit(): void {
    this.ws.commit();
  }
}
