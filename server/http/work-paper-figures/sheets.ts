/**
 * Test-only: a work paper's sheets read back with exceljs as plain rows (dates as ISO dates, empty
 * cells null, 0-based columns), sections found by their header cell, and rows compared with an
 * expectation cell by cell: amounts to the cent, everything else exactly.
 */
import type ExcelJS from 'exceljs';
import { expect } from 'vitest';

export type Cell = string | number | boolean | null;

/** A cell the comparison skips (e.g. a message whose figures are checked elsewhere). */
export const ANY = Symbol('any');
/** A number compared with its full precision (rates, prices, quantities), not to the cent. */
export const exact = (x: number) => ({ exact: x });
/** A ratio or rate computed from other figures, compared to 1e-9 relative. */
export const near = (x: number) => ({ near: x });
export type Expected = Cell | typeof ANY | { exact: number } | { near: number } | Date;

/** Every row of a sheet, row 1 first; blank rows are empty arrays. */
export function sheetRows(wb: ExcelJS.Workbook, name: string): Cell[][] {
  const ws = wb.getWorksheet(name);
  if (!ws) throw new Error(`no sheet '${name}' in the work paper (sheets: ${wb.worksheets.map((w) => w.name).join(', ')})`);
  const out: Cell[][] = [];
  for (let i = 1; i <= ws.rowCount; i++) {
    const values = (ws.getRow(i).values as unknown[]).slice(1);
    const cells = Array.from(values, (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v === undefined ? null : (v as Cell)));
    while (cells.length && cells[cells.length - 1] === null) cells.pop();
    out.push(cells);
  }
  return out;
}

/** The rows under the section whose header row starts with `title`, up to the next blank row. */
export function section(rows: Cell[][], title: string): Cell[][] {
  const at = rows.findIndex((r) => r[0] === title);
  if (at < 0) throw new Error(`no section '${title}'`);
  const out: Cell[][] = [];
  for (let i = at + 1; i < rows.length && rows[i].length; i++) out.push(rows[i]);
  return out;
}

/** The first row whose cell `col` (0-based, default the first) is `text`. */
export function rowOf(rows: Cell[][], text: string, col = 0): Cell[] {
  const r = rows.find((x) => x[col] === text);
  if (!r) throw new Error(`no row '${text}'`);
  return r;
}

/** Compares a row with its expectation: numbers to the cent (or exactly), the rest exactly; trailing cells beyond `expected` ignored. */
export function expectRow(actual: Cell[], expected: Expected[], where: string): void {
  expected.forEach((e, i) => {
    if (e === ANY) return;
    const a = actual[i] ?? null;
    const at = `${where}, column ${i + 1}`;
    if (e instanceof Date) expect(a, at).toBe(e.toISOString().slice(0, 10));
    else if (e && typeof e === 'object' && 'near' in e) {
      expect(typeof a, `${at}: ${String(a)} should be the number ${e.near}`).toBe('number');
      expect(Math.abs((a as number) - e.near), `${at}: got ${a}, expected ${e.near}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(e.near)));
    } else if (e && typeof e === 'object') expect(a, at).toBe(e.exact);
    else if (typeof e === 'number') {
      expect(typeof a, `${at}: ${String(a)} should be the number ${e}`).toBe('number');
      expect(Math.abs((a as number) - e), `${at}: got ${a}, expected ${e} (to the cent)`).toBeLessThanOrEqual(0.005 + 1e-7);
    } else expect(a, at).toBe(e);
  });
}

/** Compares consecutive rows with their expectations (same count). */
export function expectRows(actual: Cell[][], expected: Expected[][], where: string): void {
  expect(actual.length, `${where}: rows`).toBe(expected.length);
  expected.forEach((e, i) => expectRow(actual[i], e, `${where}, row ${i + 1}`));
}
