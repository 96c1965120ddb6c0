import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { expectedFund, FIXTURES, GS_FUND, loadCsvTpa, tpaDir } from '../testing/check-data.js';
import type { CheckContext } from '../checks/common.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { unadjustedDifferences } from './unadjusted-differences.js';
import { buildWorkPaper } from './workbook.js';
import { rowOf } from '../testing/sheets.js';

const GS = 'meridian_fund_services';
const fund = GS_FUND;

/**
 * FX testing's impact recomputed from the delivered holdings file and an ECB fx file alone: per
 * currency and TPA rate, the positions' base value - local value / ECB rate, counted when the rate
 * differs from the ECB's by more than `tolerancePct`.
 */
function fxImpactFromSources(fxFile: string, tolerancePct: number): number {
  const rates = new Map(
    readFileSync(join(FIXTURES, 'fx', fxFile), 'utf8')
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.split(','))
      .map((c) => [c[0], Number(c[2])] as const),
  );
  const amount = (t: string) => Number(t.replace(/\./g, '').replace(',', '.'));
  let cents = 0;
  const lines = readFileSync(join(tpaDir(GS), 'inputs', 'MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8')
    .split(/\r?\n/)
    .slice(4);
  for (const l of lines.filter((x) => x.trim())) {
    const c = l.split(';');
    const rate = rates.get(c[8]);
    if (c[8] === 'USD' || !rate) continue;
    if (Math.abs((amount(c[9]) - rate) / rate) * 100 <= tolerancePct) continue;
    cents += (amount(c[11]) - amount(c[10]) / rate) * 100;
  }
  return Math.round(cents) / 100;
}

async function workPaper(fxFile: string, pct = { pm: fund.pm, te: fund.te, sad: fund.sad }, context: Partial<CheckContext> = {}) {
  const input = await gsWorkPaperInput(loadCsvTpa(GS), { fxFile, pct, context, generatedAt: new Date() });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await buildWorkPaper(input)) as unknown as ArrayBuffer);
  const m = input.materiality;
  return { wb, m, items: input.checks.items, schedule: unadjustedDifferences(input.checks.items, m), ws: wb.getWorksheet('Unadjusted differences')! };
}

describe('summary of unadjusted differences (GS, real data)', () => {
  it('lists the FX-testing difference, recomputed from the delivered files, as clearly trivial below SAD', async () => {
    const { ws, m, wb, items } = await workPaper('ecb-usd-cross-rates-2023-03-31.csv');
    const expected = fxImpactFromSources('ecb-usd-cross-rates-2023-03-31.csv', 0.5);
    const row = rowOf(ws, 'FX testing: total impact', 2);
    expect(Math.abs((row.getCell(3).value as number) - expected)).toBeLessThan(0.011);
    expect(Math.abs(expected)).toBeLessThan(m.sad);
    expect([row.getCell(1).value, row.getCell(5).value, row.getCell(7).value]).toEqual([
      'FX testing',
      'Clearly trivial (at or below SAD)',
      'MFS_HOLDINGS_S000013795_20230331.csv',
    ]);
    expect(rowOf(ws, 'Summary of audit differences (SAD): clearly trivial at or below').getCell(3).value).toBe(m.sad);
    expect(rowOf(ws, 'Differences above SAD (absolute): compared with PM').getCell(3).value).toBe(0);
    const conclusion = rowOf(ws, 'Conclusion');
    expect(conclusion.getCell(2).value).toBe('NOT MATERIAL');
    // price testing (the TPA's own prices) and FX testing of CLP and TWD (no ECB rate)
    expect(items.filter((i) => i.notPerformed).map((i) => i.name)).toEqual(['Price testing', 'FX CLP', 'FX TWD']);
    expect(conclusion.getCell(6).value).toBe(
      'No difference above SAD 180,949.23: every difference found is clearly trivial; 3 check item(s) NOT PERFORMED: no difference could be measured there',
    );
    expect(rowOf(ws, 'Not performed (no difference measured)').number).toBeGreaterThan(conclusion.number);
    const summary = rowOf(wb.getWorksheet('Summary')!, 'Unadjusted differences above SAD (absolute)');
    expect([summary.getCell(4).value, summary.getCell(5).value]).toEqual([0, 'NOT MATERIAL']);
  });

  it('with no tolerance and a tight materiality, the aggregate above SAD is compared with PM: material', async () => {
    // PM 0.001%, TE 0.00075%, SAD 0.0005% of NAV, every rate difference an exception
    const { ws, m, schedule, wb } = await workPaper('ecb-usd-cross-rates-2023-03-31.csv', { pm: 0.001, te: 0.00075, sad: 0.0005 }, { fxTolerancePct: 0 });
    const expected = fxImpactFromSources('ecb-usd-cross-rates-2023-03-31.csv', 0);
    expect(Math.abs(expected)).toBeGreaterThan(m.pm);
    const total = schedule.differences.find((d) => d.item.name === 'FX testing: total impact')!;
    expect(Math.abs(total.amount - expected)).toBeLessThan(0.011);
    expect(total.judgement).toBe('Above TE: individually significant');
    // the per-currency items are parts of the total: listed in FX testing, not counted twice here
    expect(schedule.differences.filter((d) => d.item.check === 'fx_testing')).toHaveLength(1);
    const conclusion = rowOf(ws, 'Conclusion');
    expect(conclusion.getCell(2).value).toBe('MATERIAL');
    expect(String(conclusion.getCell(6).value)).toContain(`more than PM ${m.pm.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    // the Summary's '% of NAV' column holds the aggregate's share of NAV (the N-PORT net assets), its share of PM is in words
    const summary = rowOf(wb.getWorksheet('Summary')!, 'Unadjusted differences above SAD (absolute)');
    const nav = Number(expectedFund(GS).net_assets);
    expect(summary.getCell(3).value as number).toBeCloseTo(Math.abs(expected) / nav, 9);
    expect(String(summary.getCell(8).value)).toContain(`${((Math.abs(expected) / m.pm) * 100).toFixed(1)}% of PM`);
  });

  it('with rates 91 days old nothing is concluded from them: FX testing is NOT PERFORMED, not a difference', async () => {
    const { ws, schedule } = await workPaper('ecb-usd-cross-rates-2022-12-30.csv', { pm: 0.01, te: 0.0075, sad: 0.005 });
    expect(schedule.differences.filter((d) => d.item.check === 'fx_testing')).toEqual([]);
    expect(schedule.notPerformed.map((i) => i.name)).toContain('FX testing: total impact');
    expect(schedule.material).toBe(false);
    expect(rowOf(ws, 'Conclusion').getCell(2).value).not.toBe('MATERIAL');
  });

  it('an Invalid standardization: no conclusion can be signed', () => {
    const u = unadjustedDifferences([], { pm: 100, te: 75, sad: 5 }, true);
    expect(u.conclusion).toBe(
      'Incomplete data: No difference above SAD 5.00: every difference found is clearly trivial; the checks ran on incomplete data, so no conclusion can be signed',
    );
  });

  it('one derivative mapped as a bond is one classification difference, counted once', async () => {
    const data = loadCsvTpa(GS);
    // the largest derivative position of the delivery, given a non-derivative instrument type (a wrong mapping row)
    const derivatives = data.holdings.filter((h) => h.standard_instrument === 'DERIVATIVE');
    const moved = derivatives.reduce((a, b) => (Math.abs(b.market_value_base) > Math.abs(a.market_value_base) ? b : a));
    moved.standard_instrument = 'DEBT';
    const input = await gsWorkPaperInput(data, { pct: { pm: 0.01, te: 0.0075, sad: 0.005 } });
    const m = input.materiality;
    expect(Math.abs(moved.market_value_base)).toBeGreaterThan(m.sad);
    const u = unadjustedDifferences(input.checks.items, m);
    const recon = u.differences.filter((d) => d.item.check === 'investments_reconciliation');
    const classification = recon.find((d) => d.item.name === 'Classification between investments and derivatives')!;
    expect(Math.abs(classification.amount)).toBeCloseTo(Math.abs(moved.market_value_base), 2);
    // what each reconciliation item keeps beyond the misclassification is what it showed before it
    const before = unadjustedDifferences((await gsWorkPaperInput(loadCsvTpa(GS), { pct: { pm: 0.01, te: 0.0075, sad: 0.005 } })).checks.items, m);
    const reconGross = (x: typeof u) =>
      x.differences
        .filter((d) => d.item.check === 'investments_reconciliation' && d.judgement !== 'Clearly trivial (at or below SAD)')
        .reduce((s, d) => s + Math.abs(d.amount), 0);
    expect(reconGross(u) - reconGross(before)).toBeCloseTo(Math.abs(moved.market_value_base), 1);
  });
});
