import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { holdingsIntegrity } from '../checks/holdings-integrity.js';
import { priceFactor } from '../checks/common.js';
import { loadCsvTpa } from '../testing/check-data.js';
import type { FundSdmArrays, HoldingRow } from '../sdm/rows.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { buildWorkPaper } from '../work-papers/workbook.js';
import { applyAdjustments, type FundAdjustment } from './apply.js';
import { unappliedLines } from './unapplied.js';

let gs: FundSdmArrays;
beforeAll(() => {
  gs = loadCsvTpa('meridian_fund_services');
});

const adjustment = (id: number, lines: FundAdjustment['lines'], bookedByTpa = true): FundAdjustment => ({
  id,
  type: 'bond',
  description: 'Bond priced at the independent vendor price',
  bookedByTpa,
  author: 'Ada Lovelace',
  createdAt: '2023-04-20T10:00:00.000Z',
  updatedAt: '2023-04-20T10:00:00.000Z',
  lines,
});

/** Column values of the first row of a sheet whose cell `col` is `text`. */
function rowOf(ws: ExcelJS.Worksheet, text: string, col = 1): unknown[] {
  let hit: unknown[] | undefined;
  ws.eachRow((r) => {
    if (!hit && r.getCell(col).value === text) hit = (r.values as unknown[]).slice(1);
  });
  if (!hit) throw new Error(`${ws.name}: no row "${text}"`);
  return hit;
}

describe('adjustment lines that do not fit the fund (GS, real data)', () => {
  it('an account the trial balance does not have and a security the fund does not hold make the work paper Incomplete data', async () => {
    const accounts = new Set(gs.trial_balance.map((r) => r.account_code));
    expect(accounts.has('11900')).toBe(false);
    const bond = gs.holdings.find((h) => h.standard_instrument === 'DEBT')!;
    const adjustments = [
      adjustment(42, [
        { account: '11900', target: 'tb_balance', amount: 1_000 },
        { account: '11000', target: 'tb_balance', amount: -1_000 },
      ]),
      adjustment(43, [{ account: '11000', target: 'holding_value', securityId: 'US0000000000', amount: 500 }], false),
      // a valid one: the delivered account and a held security
      adjustment(44, [
        { account: '11000', target: 'holding_value', securityId: bond.security_id, amount: 250 },
        { account: '11000', target: 'tb_balance', amount: 250 },
        { account: 'UNREALIZED_GL', target: 'tb_balance', amount: -250 },
      ]),
    ];
    const unapplied = await unappliedLines(gs, adjustments);
    expect(unapplied.map((u) => [u.adjustment, u.line, u.account, u.securityId])).toEqual([
      [42, 1, '11900', null],
      [43, 1, '11000', 'US0000000000'],
    ]);
    const input = await gsWorkPaperInput(applyAdjustments(gs, adjustments, 'all'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await buildWorkPaper({ ...input, adjustments, unappliedAdjustments: unapplied })) as unknown as ArrayBuffer);
    const summary = wb.getWorksheet('Summary')!;
    expect(rowOf(summary, 'Overall status')[1]).toBe('Incomplete data');
    expect(String(rowOf(summary, 'Audit adjustments')[7])).toContain('Adjustment #42 line 1 posts to account 11900');
    const exceptions = wb.getWorksheet('Exceptions')!;
    expect(rowOf(exceptions, 'Account 11900', 2).slice(0, 3)).toEqual(['Audit adjustments', 'Account 11900', 'INCOMPLETE DATA']);
    expect(rowOf(exceptions, 'Account 11900', 2).slice(6, 8)).toEqual(['Adjustment #42', 1]);
    expect(String(rowOf(exceptions, 'Security US0000000000', 2)[5])).toContain('Adjustment #43 line 1 (not booked) revalues security US0000000000');
    expect(String(rowOf(wb.getWorksheet('Unadjusted differences')!, 'Conclusion')[1])).toBe('INCOMPLETE DATA');
  });

  it('adjustments that fit leave the outcome to the checks', async () => {
    const bond = gs.holdings.find((h) => h.standard_instrument === 'DEBT')!;
    const fits = adjustment(45, [
      { account: '11000', target: 'holding_value', securityId: bond.security_id, amount: 250 },
      { account: '11000', target: 'tb_balance', amount: 250 },
      { account: 'UNREALIZED_GL', target: 'tb_balance', amount: -250 },
    ]);
    expect(await unappliedLines(gs, [fits])).toEqual([]);
  });
});

describe('a revaluation and the TPA rounding', () => {
  it('revaluing the positions whose delivered values carry a sub-cent rounding difference adds no holdings-integrity warning', async () => {
    const ctx = (await gsWorkPaperInput(gs)).checkContext!;
    const flagged = new Set((await holdingsIntegrity(gs, ctx)).map((i) => i.line));
    const count = new Map<string, number>();
    for (const h of gs.holdings) count.set(h.security_id, (count.get(h.security_id) ?? 0) + 1);
    // quantity x price differs from the local value by a fraction of a cent: the TPA rounded the value
    const gap = (h: HoldingRow) => Math.abs((h.quantity * h.price) / priceFactor(h) - (h.market_value_local ?? 0));
    const rounded = gs.holdings.filter(
      (h) =>
        !flagged.has(h.line) &&
        h.market_value_local !== null &&
        h.price_currency === 'USD' &&
        count.get(h.security_id) === 1 &&
        gap(h) > 0.001 &&
        gap(h) < 0.01,
    );
    expect(rounded.length).toBeGreaterThan(10);
    // each written up by 1,000.00 (a bond adjustment per position, booked)
    const adjustments = rounded.map((h, i) =>
      adjustment(100 + i, [
        { account: '11000', target: 'holding_value', securityId: h.security_id, amount: 1_000 },
        { account: '11000', target: 'tb_balance', amount: 1_000 },
        { account: 'UNREALIZED_GL', target: 'tb_balance', amount: -1_000 },
      ]),
    );
    const items = await holdingsIntegrity(applyAdjustments(gs, adjustments, 'pre-calc'), ctx);
    const lines = new Set(rounded.map((h) => h.line));
    expect(items.filter((i) => lines.has(i.line as number)).map((i) => i.message)).toEqual([]);
  });
});
