import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { FundSdmArrays, HoldingRow } from '../sdm/rows.js';
import { GS_FUND, loadCsvTpa } from '../testing/check-data.js';
import { EXCEL_MAX_ROWS, placeOf, sheetsFor } from './continued-sheet.js';
import { HOLDINGS_COLUMNS } from './holdings-sheet.js';
import { HOLDINGS_ROW_COLUMN } from './holdings-layout.js';
import { FMT } from './sheet-writer.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { buildWorkPaper, SHEETS, type WorkPaperInput } from './workbook.js';

const fund = GS_FUND;
/** Positions whose quantity is doubled, so holdings integrity reports each one (0-based, one on each Holdings sheet). */
const BROKEN = [2, 13, 21];

/** The first 25 GS positions (3 of them with a wrong value) and the GS trial balance. */
function delivery(): FundSdmArrays {
  const data = structuredClone(loadCsvTpa('meridian_fund_services'));
  data.holdings = data.holdings.slice(0, 25);
  for (const i of BROKEN) data.holdings[i].quantity *= 2;
  return data;
}

const inputFor = (data: FundSdmArrays): Promise<WorkPaperInput> => gsWorkPaperInput(data);

async function open(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

const sheet = (wb: ExcelJS.Workbook, name: string) => {
  const ws = wb.getWorksheet(name);
  if (!ws) throw new Error(`no sheet '${name}' (sheets: ${wb.worksheets.map((w) => w.name).join(', ')})`);
  return ws;
};
const values = (row: ExcelJS.Row) => (row.values as unknown[]).slice(1);
const col = (ws: ExcelJS.Worksheet, header: string) => {
  const i = values(ws.getRow(1)).indexOf(header);
  if (i < 0) throw new Error(`${ws.name}: no column '${header}'`);
  return i + 1;
};

describe('a work paper whose sheets pass the row limit (10 rows a sheet)', () => {
  let data: FundSdmArrays;
  let wb: ExcelJS.Workbook;
  const holdingsSheets = ['Holdings', 'Holdings (2)', 'Holdings (3)'];
  beforeAll(async () => {
    data = delivery();
    wb = await open(await buildWorkPaper(await inputFor(data), { maxRowsPerSheet: 10 }));
  });

  it('continues Holdings on Holdings (2) and Holdings (3), in order, and no sheet the limit concerns passes it', () => {
    const names = wb.worksheets.map((w) => w.name);
    const at = names.indexOf('Holdings');
    expect(names.slice(at, at + 4)).toEqual([...holdingsSheets, 'Investments reconciliation']);
    expect(names.filter((n) => n.startsWith('Holdings'))).toEqual(holdingsSheets);
    for (const n of names.filter((x) => /^(Holdings|Trial balance|Exceptions)( \(\d+\))?$/.test(x))) expect(sheet(wb, n).rowCount, n).toBeLessThanOrEqual(10);
    // the Trial balance (GS: more than 9 accounts) continues the same way, in its place
    const tb = names.filter((n) => n.startsWith('Trial balance'));
    expect(tb.length).toBeGreaterThan(1);
    expect(names.slice(names.indexOf('Trial balance'), names.indexOf('Holdings'))).toEqual(tb);
    const last = sheet(wb, tb[tb.length - 1]);
    expect(values(last.getRow(last.rowCount))[1]).toBe('Sum of all balances (should be 0)');
    const accounts = tb.flatMap((n) => {
      const ws = sheet(wb, n);
      expect(values(ws.getRow(1))[0], n).toBe('Account code');
      const out: unknown[] = [];
      // the accounts' rows (their Line), not the totals after them
      for (let r = 2; r <= ws.rowCount && typeof ws.getRow(r).getCell(9).value === 'number'; r++) out.push(ws.getRow(r).getCell(9).value);
      return out;
    });
    expect(accounts).toEqual(data.trial_balance.map((r) => r.line));
    let nav: unknown;
    sheet(wb, 'Summary').eachRow((r) => {
      if (nav === undefined && r.getCell(1).value === 'NAV') nav = r.getCell(8).value;
    });
    expect(nav).toBe(`Trial balance: assets - liabilities (sheets Trial balance to ${tb[tb.length - 1]}, totals on the last)`);
  });

  it('repeats the header, frozen pane, column widths and formats of the first Holdings sheet on every one', () => {
    const first = sheet(wb, 'Holdings');
    const header = HOLDINGS_COLUMNS.map((c) => (c === 'Value base' ? 'Value base (USD)' : c));
    for (const name of holdingsSheets) {
      const ws = sheet(wb, name);
      expect(values(ws.getRow(1)), name).toEqual(header);
      expect(ws.getRow(1).getCell(1).font?.bold, name).toBe(true);
      expect(ws.views[0], name).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(
        ws.columns.map((c) => c.width),
        name,
      ).toEqual(first.columns.map((c) => c.width));
      const r = ws.getRow(2);
      expect(r.getCell(col(ws, 'Quantity')).numFmt, name).toBe(FMT.price);
      expect(r.getCell(col(ws, 'Value base (USD)')).numFmt, name).toBe(FMT.money);
      expect(r.getCell(col(ws, 'TPA FX rate')).numFmt, name).toBe(FMT.rate);
      expect(r.getCell(col(ws, 'Line')).numFmt, name).toBe(FMT.int);
    }
  });

  it('has every position on exactly one sheet, in delivery order: 9, 9 and 7, then the total', () => {
    const seen: Array<{ sheet: string; id: unknown; file: unknown; line: unknown; value: unknown }> = [];
    for (const name of holdingsSheets) {
      const ws = sheet(wb, name);
      for (let r = 2; r <= ws.rowCount && ws.getRow(r).hasValues; r++) {
        const row = ws.getRow(r);
        if (String(row.getCell(1).value).startsWith('Total:')) break;
        seen.push({
          sheet: name,
          id: row.getCell(col(ws, 'Security id')).value,
          file: row.getCell(col(ws, 'File')).value,
          line: row.getCell(col(ws, 'Line')).value,
          value: row.getCell(col(ws, 'Value base (USD)')).value,
        });
      }
    }
    expect(seen.map((s) => [s.id, s.file, s.line, s.value])).toEqual(
      data.holdings.map((h: HoldingRow) => [h.security_id, h.file, h.line, h.market_value_base]),
    );
    expect(seen.map((s) => s.sheet)).toEqual([...Array(9).fill('Holdings'), ...Array(9).fill('Holdings (2)'), ...Array(7).fill('Holdings (3)')]);
    const last = sheet(wb, 'Holdings (3)');
    expect(last.getRow(9).hasValues).toBe(false);
    expect(last.getRow(10).getCell(1).value).toBe('Total: 25 position(s)');
    const total = data.holdings.reduce((a, h) => a + (h.market_value_base ?? 0), 0);
    expect(last.getRow(10).getCell(col(last, 'Value base (USD)')).value).toBeCloseTo(total, 2);
    expect(sheet(wb, 'Holdings').rowCount).toBe(10);
  });

  it('the Summary names each Holdings sheet with its positions', () => {
    const summary = sheet(wb, 'Summary');
    let message: unknown;
    summary.eachRow((r) => {
      if (r.getCell(1).value === 'Holdings') message = r.getCell(8).value;
    });
    expect(message).toBe(
      'Market value (base) of every position: sheets Holdings (positions 1-9), Holdings (2) (positions 10-18), Holdings (3) (positions 19-25 and the total), one row per position in delivery order with its file and line',
    );
  });

  /** The rows of a check-items table (header row `headerAt`) with their File, Line and Holdings row cells. */
  function refs(ws: ExcelJS.Worksheet, headerAt: number) {
    const head = values(ws.getRow(headerAt));
    const [f, l, h] = ['File', 'Line', HOLDINGS_ROW_COLUMN].map((x) => head.indexOf(x) + 1);
    expect(h, `${ws.name}: '${HOLDINGS_ROW_COLUMN}' column`).toBeGreaterThan(0);
    const out: Array<{ check: unknown; file: unknown; line: unknown; at: unknown }> = [];
    for (let r = headerAt + 1; r <= ws.rowCount && ws.getRow(r).hasValues; r++) {
      const row = ws.getRow(r);
      out.push({ check: row.getCell(1).value, file: row.getCell(f).value, line: row.getCell(l).value, at: row.getCell(h).value });
    }
    return out;
  }

  /** Checks that every 'Holdings row' cell names the sheet and row of the position with that file and line. */
  function expectRightRows(list: ReturnType<typeof refs>, where: string) {
    const pointed = list.filter((x) => x.at !== null && x.at !== undefined);
    for (const i of BROKEN) {
      const h = data.holdings[i];
      const hit = pointed.find((x) => x.check === 'Holdings integrity' && x.file === h.file && x.line === h.line);
      expect(hit, `${where}: holdings integrity item of line ${h.line}`).toBeDefined();
    }
    for (const x of pointed) {
      const m = /^(Holdings(?: \(\d+\))?), row (\d+)$/.exec(String(x.at));
      expect(m, `${where}: ${String(x.at)}`).not.toBeNull();
      const ws = sheet(wb, m![1]);
      const row = ws.getRow(Number(m![2]));
      expect([row.getCell(col(ws, 'File')).value, row.getCell(col(ws, 'Line')).value], `${where}: ${String(x.at)}`).toEqual([x.file, x.line]);
    }
    const index = (i: number) => `${['Holdings', 'Holdings (2)', 'Holdings (3)'][Math.floor(i / 9)]}, row ${(i % 9) + 2}`;
    expect(BROKEN.map((i) => pointed.find((x) => x.line === data.holdings[i].line)?.at)).toEqual(BROKEN.map(index));
  }

  it("the Summary's check items from one position name its Holdings sheet and row", () => {
    const summary = sheet(wb, 'Summary');
    let headerAt = 0;
    summary.eachRow((r, n) => {
      if (r.getCell(1).value === 'Check') headerAt = n;
    });
    expectRightRows(refs(summary, headerAt), 'Summary');
  });

  it("the Exceptions' items from one position name its Holdings sheet and row", () => {
    const names = wb.worksheets.map((w) => w.name).filter((n) => /^Exceptions( \(\d+\))?$/.test(n));
    const list = names.flatMap((n) => refs(sheet(wb, n), 1));
    expectRightRows(list, 'Exceptions');
    for (const n of names) expect(values(sheet(wb, n).getRow(1))).toEqual(values(sheet(wb, 'Exceptions').getRow(1)));
  });
});

describe("Excel's row limit", () => {
  it('is the default: 1,048,576 rows a sheet; 25 positions give the usual sheets with no Holdings row column', async () => {
    expect(EXCEL_MAX_ROWS).toBe(1_048_576);
    const wb = await open(await buildWorkPaper(await inputFor(delivery())));
    expect(wb.worksheets.map((w) => w.name)).toEqual([...SHEETS]);
    expect(values(sheet(wb, 'Exceptions').getRow(1))).not.toContain(HOLDINGS_ROW_COLUMN);
  });

  it('is not passed: a larger limit, or one that leaves no room under the header, is refused', async () => {
    const input = await inputFor(delivery());
    await expect(buildWorkPaper(input, { maxRowsPerSheet: EXCEL_MAX_ROWS + 1 })).rejects.toThrow(/1048576/);
    await expect(buildWorkPaper(input, { maxRowsPerSheet: 1 })).rejects.toThrow(RangeError);
  });

  it("puts the stress delivery's 1,179,500 positions on Holdings and Holdings (2)", () => {
    expect(sheetsFor('Holdings', 1_179_500 + 2, 1, EXCEL_MAX_ROWS)).toEqual(['Holdings', 'Holdings (2)']);
    expect(placeOf('Holdings', 1_048_574, 1, EXCEL_MAX_ROWS)).toEqual({ sheet: 'Holdings', row: 1_048_576 });
    expect(placeOf('Holdings', 1_048_575, 1, EXCEL_MAX_ROWS)).toEqual({ sheet: 'Holdings (2)', row: 2 });
    expect(placeOf('Holdings', 1_179_499, 1, EXCEL_MAX_ROWS)).toEqual({ sheet: 'Holdings (2)', row: 130_926 });
  });
});
