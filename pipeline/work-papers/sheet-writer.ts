/**
 * Writing work-paper sheets row by row with exceljs' streaming writer: a bold frozen header row,
 * column widths, number formats per column (`FMT`), every text through `safeCellText`.
 */
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

/** One sheet being written: `row` commits each row at once. */
export class SheetWriter {
  private ws: ExcelJS.Worksheet;
  constructor(
    wb: ExcelJS.stream.xlsx.WorkbookWriter,
    name: string,
    widths: number[],
    private defaults: Array<Fmt | null> = [],
  ) {
    this.ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
    this.ws.columns = widths.map((width) => ({ width }));
  }
  /** Writes one row; `bold` for header and section rows. Row is committed at once. */
  row(cells: Cell[], bold = false): void {
    const row = this.ws.addRow([]);
    cells.forEach((c, i) => {
      if (c === null || c === undefined) return;
      const cell = row.getCell(i + 1);
      const [v, f] = Array.isArray(c) ? c : [c, null];
      if (v === null || v === undefined) return;
      if (typeof v === 'string') cell.value = safeCellText(v);
      else if (typeof v === 'number') {
        if (!Number.isFinite(v)) return;
        cell.value = v;
        cell.numFmt = FMT[f ?? this.defaults[i] ?? 'money'];
      } else {
        cell.value = v;
        cell.numFmt = FMT[f ?? (this.defaults[i] === 'datetime' ? 'datetime' : 'date')];
      }
      if (bold) cell.font = { bold: true };
    });
    if (bold) row.font = { bold: true };
    row.commit();
  }
  blank(): void {
    this.row([]);
  }
  commit(): void {
    this.ws.commit();
  }
}
