import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { FundSdmArrays } from '../sdm/rows.js';
import type { CheckContext } from '../checks/index.js';
import { materiality } from '../checks/materiality.js';
import { GS_FUND, loadCsvTpa } from '../testing/check-data.js';
import { safeCellText } from './safe-cell.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { buildWorkPaper, SHEETS, type WorkPaperInput } from './workbook.js';
import { rowOf } from '../testing/sheets.js';

const fund = GS_FUND;

const inputFor = (data: FundSdmArrays, over: Partial<CheckContext> = {}): Promise<WorkPaperInput> => gsWorkPaperInput(data, { context: over });

async function open(buf: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

describe('safeCellText', () => {
  it('neutralises = + - @ (and tab / CR) at the start only', () => {
    expect(['=1+2', '+1', '-1', '@SUM(A1)', '\t=1', 'a=b', 'Fund', ''].map(safeCellText)).toEqual([
      "'=1+2",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\t=1",
      'a=b',
      'Fund',
      '',
    ]);
  });
});

describe('buildWorkPaper on the GS data', () => {
  let wb: ExcelJS.Workbook;
  let size = 0;
  beforeAll(async () => {
    const data = structuredClone(loadCsvTpa('meridian_fund_services'));
    data.trial_balance[2].account_name = '=HYPERLINK("http://x","cash")';
    data.holdings[0].security_name = '@SUM(1)';
    const input = await inputFor(data);
    input.fund = { ...fund, client: '+GOLDMAN' };
    const buf = await buildWorkPaper(input);
    size = buf.length;
    wb = await open(buf);
  });

  it('has exactly the eight sheets, in order', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual([...SHEETS]);
    expect(size).toBeGreaterThan(5000);
  });

  it('Summary: fund info, NAV 361,898,455.93 as a number, real dates, materiality as % and amounts', () => {
    const ws = wb.getWorksheet('Summary')!;
    const nav = rowOf(ws, 'NAV').getCell(2);
    expect(nav.value).toBe(361898455.93);
    expect(nav.numFmt).toBe('#,##0.00');
    const pe = rowOf(ws, 'Period end').getCell(2);
    expect(pe.value).toBeInstanceOf(Date);
    expect((pe.value as Date).toISOString()).toBe('2023-03-31T00:00:00.000Z');
    expect(pe.numFmt).toBe('dd/mm/yyyy');
    const te = rowOf(ws, 'Tolerable error (TE)');
    expect([te.getCell(3).value, te.getCell(3).numFmt, te.getCell(4).value]).toEqual([0.0075, '0.00%', 2714238.42]);
    expect(rowOf(ws, 'Client').getCell(2).value).toBe("'+GOLDMAN");
    expect(rowOf(ws, 'Overall status').getCell(2).value).toBe('WARNING');
    const tb = rowOf(ws, 'Trial balance');
    expect([tb.getCell(2).value, tb.getCell(5).value, tb.getCell(6).value]).toEqual(['Trial balance sums to zero', 'PASS', 0]);
  });

  it('header rows are bold and frozen, columns have widths', () => {
    for (const ws of wb.worksheets) {
      expect(ws.getRow(1).getCell(1).font?.bold, ws.name).toBe(true);
      expect(ws.views[0], ws.name).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(ws.getColumn(1).width, ws.name).toBeGreaterThan(10);
    }
  });

  it('Trial balance: numbers are numbers, formula-like text is neutralised', () => {
    const ws = wb.getWorksheet('Trial balance')!;
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Account code',
      'Account name',
      'Standard account',
      'Class',
      'Currency',
      'Balance local',
      'Balance (USD)',
      'File',
      'Line',
      'Adjusted by',
    ]);
    const cash = rowOf(ws, '10100');
    expect(cash.getCell(2).value).toBe('\'=HYPERLINK("http://x","cash")');
    expect(cash.getCell(7).value).toBe(8897774.45);
    expect(typeof cash.getCell(9).value).toBe('number');
    expect(rowOf(ws, 'NAV (assets - liabilities)', 2).getCell(7).value).toBe(361898455.93);
    let strings = 0;
    ws.eachRow((r, n) => {
      if (n > 1 && typeof r.getCell(7).value === 'string' && r.getCell(7).value !== 'Amount') strings++;
    });
    expect(strings).toBe(0);
  });

  it('Investments reconciliation, FX testing and Capital roll-forward carry the figures', () => {
    const inv = wb.getWorksheet('Investments reconciliation')!;
    const r = rowOf(inv, 'Investments vs INVESTMENTS_AT_VALUE');
    expect([r.getCell(2).value, r.getCell(3).value, r.getCell(4).value, r.getCell(5).value, r.getCell(7).value]).toEqual([
      911,
      374308678.89,
      374308678.89,
      0,
      'PASS',
    ]);
    const fx = wb.getWorksheet('FX testing')!;
    const sek = rowOf(fx, 'SEK');
    expect(sek.getCell(9).value).toBe(10.37287356);
    expect(sek.getCell(10).value).toBeInstanceOf(Date);
    expect(sek.getCell(14).numFmt).toBe('0.000%');
    expect(rowOf(fx, 'FX SEK').getCell(3).value).toBe('SEK');
    expect(rowOf(fx, 'Tolerance').getCell(2).value).toBe(0.005);
    const cap = wb.getWorksheet('Capital roll-forward')!;
    const all = rowOf(cap, 'ALL');
    expect([all.getCell(2).value, all.getCell(9).value, all.getCell(10).value, all.getCell(11).value]).toEqual([356409117.37, 361898455.93, 0, 'PASS']);
    expect(all.getCell(2).numFmt).toBe('#,##0.000');
  });

  it('Exceptions lists every warning / fail with its file and line', () => {
    const ws = wb.getWorksheet('Exceptions')!;
    // the 8 two-leg ids and, NOT PERFORMED, price testing (the TPA's own prices) and the FX test of CLP and TWD (no ECB rate)
    expect(ws.rowCount).toBe(1 + 8 + 3);
    const clp = rowOf(ws, 'FX CLP', 2);
    expect([clp.getCell(3).value, clp.getCell(7).value]).toEqual(['NOT PERFORMED', 'MFS_HOLDINGS_S000013795_20230331.csv']);
    const row = rowOf(ws, 'US01F0606420', 2);
    expect([row.getCell(1).value, row.getCell(3).value, row.getCell(7).value, row.getCell(8).value]).toEqual([
      'Holdings integrity',
      'WARNING',
      'MFS_HOLDINGS_S000013795_20230331.csv',
      441,
    ]);
  });
});

describe('buildWorkPaper: honest outcomes', () => {
  it('a check that could not be performed says NOT PERFORMED with its reason, never PASS', async () => {
    const wb = await open(await buildWorkPaper(await inputFor(loadCsvTpa('meridian_fund_services'), { externalValuations: false })));
    const summary = wb.getWorksheet('Summary')!;
    const pt = rowOf(summary, 'Price testing', 2);
    expect([pt.getCell(1).value, pt.getCell(5).value, pt.getCell(8).value]).toEqual([
      'Price testing',
      'NOT PERFORMED',
      'Not performed: the fund has no external valuations (external_valuations = N)',
    ]);
    // nothing was measured: no Difference, which would read as a nil one
    expect(pt.getCell(6).value).toBeNull();
    // passed: 7 items of the other checks, FX testing's 21 currencies with an ECB rate and its total;
    // the checks not performed (price testing, FX CLP and TWD) are among the warnings
    expect(rowOf(summary, 'Items passed / warnings / failed').getCell(2).value).toBe('29 / 11 / 0, of which 3 not performed');
    expect(rowOf(wb.getWorksheet('Price testing')!, 'Price testing').getCell(2).value).toBe('NOT PERFORMED');
    expect(rowOf(wb.getWorksheet('Exceptions')!, 'Price testing', 2).getCell(3).value).toBe('NOT PERFORMED');
  });

  it("an Invalid standardization makes the outcome 'Incomplete data' and lists each unmapped code and row error with file, line and column", async () => {
    const input = await inputFor(loadCsvTpa('meridian_fund_services'));
    input.standardization = [
      {
        file: 'H.csv',
        sdmType: 'holdings',
        validationStatus: 'Invalid',
        qaMapping: [
          { name: 'BANK LOAN', column: 'Asset Class', file: 'H.csv', error: "'BANK LOAN' is not in the instrument_mapping of this TPA", lines: [7, 12] },
        ],
        rowErrors: [{ file: 'H.csv', line: 9, column: 'Market Value USD', error: "'#VALUE!' is not a number" }],
        rowErrorsTotal: 1,
      },
      { file: 'TB.csv', sdmType: 'trial_balance', validationStatus: 'Valid', qaMapping: [], rowErrors: [], rowErrorsTotal: 0 },
    ];
    input.mappings = [{ type: 'instrument_mapping', id: 3, kind: 'custom', description: 'gs_instruments', version: 4, sha256: 'ab'.repeat(32) }];
    const wb = await open(await buildWorkPaper(input));
    const summary = wb.getWorksheet('Summary')!;
    expect(rowOf(summary, 'Overall status').getCell(2).value).toBe('Incomplete data');
    expect(rowOf(summary, 'Standardization').getCell(2).value).toBe('Invalid');
    const m = rowOf(summary, 'instrument_mapping');
    expect([m.getCell(2).value, m.getCell(3).value, m.getCell(5).value]).toEqual(['gs_instruments', 4, 'custom']);
    const ex = wb.getWorksheet('Exceptions')!;
    const code = rowOf(ex, 'Unmapped code BANK LOAN', 2);
    expect([code.getCell(3).value, code.getCell(7).value, code.getCell(8).value, code.getCell(9).value]).toEqual([
      'INCOMPLETE DATA',
      'H.csv',
      7,
      'Asset Class',
    ]);
    expect(String(code.getCell(6).value)).toContain('line(s) 7, 12');
    const err = rowOf(ex, 'Row error line 9', 2);
    expect([err.getCell(6).value, err.getCell(7).value, err.getCell(8).value, err.getCell(9).value]).toEqual([
      "'#VALUE!' is not a number",
      'H.csv',
      9,
      'Market Value USD',
    ]);
  });
});

describe('buildWorkPaper on large inputs', () => {
  it('handles a 100x copy of the GS holdings (168,500 rows) with every item listed', async () => {
    const gs = loadCsvTpa('meridian_fund_services');
    const big: FundSdmArrays = { ...gs, holdings: Array.from({ length: 100 }, (_, k) => gs.holdings.map((h) => ({ ...h, line: h.line + k * 1700 }))).flat() };
    const t0 = performance.now();
    const input = await inputFor(big, { maxItemsPerCheck: Number.POSITIVE_INFINITY });
    const t1 = performance.now();
    const buf = await buildWorkPaper(input);
    const t2 = performance.now();
    console.info(
      `100x GS: ${big.holdings.length} holdings, ${input.checks.items.length} items; checks ${(t1 - t0).toFixed(0)} ms, work paper ${(t2 - t1).toFixed(0)} ms, ${(buf.length / 1e6).toFixed(1)} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
    );
    expect(input.checks.items.length).toBeGreaterThan(160_000);
    expect(buf.subarray(0, 2).toString()).toBe('PK');
  }, 120_000);
});
