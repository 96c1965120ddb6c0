/**
 * Writing work-paper sheets row by row (`xlsx-stream.ts`): a bold frozen header row, column
 * widths, number formats per column (`FMT`), every text through `safeCellText`. Each row's cells
 * go straight into the sheet's XML: no cell object is made.
 */
import { safeCellText } from './safe-cell.js';
import { excelSerial, type XlsxSheet, type XlsxWorkbook } from './xlsx-stream.js';

export { XlsxWorkbook } from './xlsx-stream.js';

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

/** One sheet being written: `row` writes each row at once. */
export class SheetWriter {
  private readonly sheet: XlsxSheet;
  /** The cell style of a plain number and of a plain date in each column (not bold). */
  private readonly numberStyles: number[];
  private readonly dateStyles: number[];
  /** Cell styles by format and weight (`${fmt}|b`), registered once each. */
  private readonly styles = new Map<string, number>();
  private readonly boldText: number;
  constructor(
    private readonly wb: XlsxWorkbook,
    name: string,
    widths: number[],
    private readonly defaults: Array<Fmt | null> = [],
  ) {
    this.sheet = wb.addSheet(name, { widths, frozenRows: 1 });
    const columns = Array.from({ length: Math.max(widths.length, defaults.length) }, (_, i) => i);
    this.numberStyles = columns.map((i) => this.styleOf(defaults[i] ?? 'money', false));
    this.dateStyles = columns.map((i) => this.styleOf(defaults[i] === 'datetime' ? 'datetime' : 'date', false));
    this.boldText = wb.style(null, true);
  }

  private styleOf(fmt: Fmt, bold: boolean): number {
    const key = bold ? `${fmt}|b` : fmt;
    let s = this.styles.get(key);
    if (s === undefined) {
      s = this.wb.style(FMT[fmt], bold);
      this.styles.set(key, s);
    }
    return s;
  }

  /**
   * Writes one row; `bold` for header and section rows. Texts are shared strings without a style
   * (bold: the bold font); numbers and dates (as Excel serials) carry their format, the column's
   * default unless the cell names one (`[value, fmt]`). Empty, null and non-finite values leave
   * the cell out.
   */
  row(cells: Cell[], bold = false): void {
    const sheet = this.sheet;
    sheet.row();
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      if (c === null || c === undefined) continue;
      const v = Array.isArray(c) ? c[0] : c;
      const f = Array.isArray(c) ? c[1] : null;
      if (v === null || v === undefined) continue;
      if (typeof v === 'string') {
        sheet.text(i, safeCellText(v), bold ? this.boldText : 0);
      } else if (typeof v === 'number') {
        if (!Number.isFinite(v)) continue;
        sheet.number(i, v, f || bold || i >= this.numberStyles.length ? this.styleOf(f ?? this.defaults[i] ?? 'money', bold) : this.numberStyles[i]);
      } else {
        const serial = excelSerial(v);
        if (!Number.isFinite(serial)) continue;
        sheet.number(
          i,
          serial,
          f || bold || i >= this.dateStyles.length ? this.styleOf(f ?? (this.defaults[i] === 'datetime' ? 'datetime' : 'date'), bold) : this.dateStyles[i],
        );
      }
    }
  }
  blank(): void {
    this.row([]);
  }
  /**
   * Waits while the rows written so far wait to be compressed: the zip takes a sheet's XML as it
   * comes, and a sheet written in one go would otherwise pile up in memory whole. Long sheets
   * call it every few hundred rows.
   */
  drain(): Promise<void> {
    return this.sheet.drain();
  }
  commit(): void {
    this.sheet.end();
  }
}
