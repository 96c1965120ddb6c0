import { describe, expect, it } from 'vitest';
import { priceFactor } from '../checks/common.js';
import { runChecks } from '../checks/index.js';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import { chunksOf, type FundSdmArrays, type FxRate, type HoldingRow } from '../sdm/rows.js';
import { loadCsvTpa, loadKeystone } from '../testing/check-data.js';
import { aggregateRowCount, combineChildren, type ChildInput } from './combine.js';

const rate = (currency: string, rate_date: string, units_per_base: number): FxRate => ({ currency, rate_date, units_per_base, source: `test ${rate_date}` });
const child = (id: number, fundCode: string, currency: string, periodEnd: string, data: FundSdmArrays): ChildInput => ({
  id,
  fundCode,
  name: fundCode,
  currency,
  periodEnd,
  data,
});
const mv = (d: FundSdmArrays) => d.holdings.reduce((s, h) => s + h.market_value_base, 0);
const cents = (x: number) => Math.round(x * 100) / 100;

/**
 * The checks of a consolidated fund `GROUP` run on what `combineChildren` returned, at the
 * period end and in the currency given, with materiality from its NAV (PM 1%, TE 0.75%, SAD 0.05%).
 */
const checkGroup = (agg: Awaited<ReturnType<typeof combineChildren>>, periodEnd: string, currency: string) => {
  const nav = agg.summary.total.nav;
  return runChecks(agg.data, {
    fundCode: 'GROUP',
    periodEnd,
    currency,
    materiality: { pm: nav * 0.01, te: nav * 0.0075, sad: nav * 0.0005 },
    nav,
    externalValuations: false,
    accountClasses: STANDARD_ACCOUNTS,
  });
};

describe('combining child funds into the parent currency', async () => {
  const gs = loadCsvTpa('meridian_fund_services');
  const ky = await loadKeystone();

  it('converts each child at its own period end, flags a stale rate and leaves out a child with no rate', async () => {
    // rates in units per EUR: USD on two dates, GBP only long before the GBP child's period end
    const rates = [rate('USD', '2022-12-30', 1.0666), rate('USD', '2023-03-31', 1.0875), rate('GBP', '2022-12-01', 0.87)];
    const agg = await combineChildren(
      [
        child(1, 'GS', 'USD', '2023-03-31', gs),
        child(2, 'KY', 'USD', '2022-12-31', ky),
        child(3, 'GB', 'GBP', '2022-12-31', ky),
        child(4, 'JP', 'JPY', '2022-12-31', ky),
      ],
      'EUR',
      rates,
      5,
    );
    const [g, k, gb, jp] = agg.summary.children;
    expect(g.conversion).toMatchObject({ unitsPerParent: 1.0875, rateDate: '2023-03-31', stale: false });
    expect(k.conversion).toMatchObject({ unitsPerParent: 1.0666, rateDate: '2022-12-30', ageDays: 1, stale: false });
    expect(gb.conversion).toMatchObject({ unitsPerParent: 0.87, rateDate: '2022-12-01', ageDays: 30, stale: true });
    expect(jp.conversion.unitsPerParent).toBeNull();
    expect(jp.converted).toBeNull();
    // the KY and GB children are the same fund: each of its securities is one position of the parent
    expect(agg.items.map((i) => i.status)).toEqual(['pass', 'pass', 'warning', 'fail', 'pass']);
    expect(agg.items[4].name).toBe('Consolidated positions');
    expect(agg.items[2].message).toMatch(/^Stale rate: .* 30 days before its period end 2022-12-31/);
    expect(agg.items[3].notPerformed).toBe('no JPY rate per EUR on or before 2022-12-31');
    expect(g.converted!.holdingsMarketValue).toBe(cents(mv(gs) / 1.0875));
    expect(k.converted!.holdingsMarketValue).toBe(cents(mv(ky) / 1.0666));
    // the total is over the converted children only (the JPY one is left out)
    expect(agg.summary.total.holdingsMarketValue).toBe(cents(mv(gs) / 1.0875 + mv(ky) / 1.0666 + mv(ky) / 0.87));
    const kyIds = new Set(ky.holdings.map((h) => h.security_id));
    expect(agg.summary.consolidated).toEqual({ positions: kyIds.size, rows: 2 * ky.holdings.length });
    expect(agg.data.holdings.length).toBe(gs.holdings.length + kyIds.size);
    expect(agg.summary.rowCount).toBe(aggregateRowCount([{ data: gs }, { data: ky }, { data: ky }, { data: ky }]));
  });

  it('keeps the combined data consistent: the TB still balances, holdings values still agree, share classes stay apart', async () => {
    const agg = await combineChildren(
      [child(1, 'GS', 'USD', '2023-03-31', gs), child(2, 'KY', 'USD', '2022-12-31', ky)],
      'EUR',
      [rate('USD', '2023-03-31', 1.0875), rate('USD', '2022-12-30', 1.0666)],
      5,
    );
    const run = await checkGroup(agg, '2023-03-31', 'EUR');
    const byCheck = (id: string) => run.items.filter((i) => i.check === id);
    expect(byCheck('tb_balance').map((i) => i.status)).toEqual(['pass']);
    expect(byCheck('investments_reconciliation').every((i) => i.status === 'pass')).toBe(true);
    // no holding's local value / fx_rate disagrees with its converted base value
    expect(byCheck('holdings_integrity').filter((i) => /market value base/.test(i.message))).toEqual([]);
    expect(agg.data.share_capital.map((r) => r.share_class)).toContain('KY C000032728');
  });

  it('needs no rate for a child in the parent currency', async () => {
    const agg = await combineChildren([child(2, 'KY', 'USD', '2022-12-31', ky)], 'USD', [], 5);
    expect(agg.summary.children[0].conversion).toMatchObject({ unitsPerParent: 1, source: 'same currency' });
    expect(agg.summary.total.holdingsMarketValue).toBe(cents(mv(ky)));
  });

  it('consolidates a security two children hold into one position, checked without a double count', async () => {
    // the Dupree fund as delivered by Keystone (xlsx) and by the demo TPA (csv): the same 55 real securities
    const dm = loadCsvTpa('demo_test');
    const agg = await combineChildren([child(2, 'KY', 'USD', '2022-12-31', ky), child(3, 'DM', 'USD', '2022-12-31', dm)], 'USD', [], 5);
    const both = [...ky.holdings, ...dm.holdings];
    const ids = [...new Set(both.map((h) => h.security_id))];
    const positions: HoldingRow[] = [];
    for await (const chunk of chunksOf(agg.data.holdings)) positions.push(...chunk);
    expect(positions.length).toBe(ids.length);
    expect(agg.data.holdings.length).toBe(ids.length);
    for (const id of ids) {
      const rows = both.filter((h) => h.security_id === id);
      const p = positions.filter((h) => h.security_id === id);
      expect(p.length, id).toBe(1);
      expect(p[0].quantity, id).toBeCloseTo(
        rows.reduce((s, h) => s + h.quantity, 0),
        6,
      );
      expect(p[0].market_value_base, id).toBeCloseTo(
        rows.reduce((s, h) => s + h.market_value_base, 0),
        6,
      );
      // each delivered row stays named: its own file and line
      expect(p[0].parts?.map((h) => `${h.file}:${h.line}`).sort(), id).toEqual(rows.map((h) => `${h.file}:${h.line}`).sort());
    }
    expect(agg.summary.total.holdingsMarketValue).toBe(cents(mv(ky) + mv(dm)));
    const run = await checkGroup(agg, '2022-12-31', 'USD');
    const integrity = run.items.filter((i) => i.check === 'holdings_integrity');
    expect(integrity.filter((i) => /double count/.test(i.message))).toEqual([]);
    expect(integrity.filter((i) => i.status === 'fail')).toEqual([]);
    expect(run.items.filter((i) => i.check === 'investments_reconciliation').every((i) => i.status === 'pass')).toBe(true);
  });
});

describe("a consolidated position's rows that disagree (the Dupree fund as Keystone and the demo TPA deliver it)", async () => {
  const ky = await loadKeystone();
  const dm = loadCsvTpa('demo_test');
  // the demo TPA prices its first bond 1% higher (values recomputed to the cent, so its row is consistent),
  // and delivers its second position twice, identically
  const repriced = dm.holdings[0];
  const factor = priceFactor(repriced);
  const price = Math.round(repriced.price * 1.01 * 1e6) / 1e6;
  const value = Math.round(((repriced.quantity * price) / factor) * 100) / 100;
  dm.holdings[0] = { ...repriced, price, market_value_local: value, market_value_base: value };
  const twin = dm.holdings[1];
  dm.holdings.push({ ...twin, line: dm.holdings[dm.holdings.length - 1].line + 1 });
  const agg = await combineChildren([child(2, 'KY', 'USD', '2022-12-31', ky), child(3, 'DM', 'USD', '2022-12-31', dm)], 'USD', [], 5);
  const run = await checkGroup(agg, '2022-12-31', 'USD');
  const integrity = run.items.filter((i) => i.check === 'holdings_integrity');
  const kyRow = (id: string) => ky.holdings.find((h) => h.security_id === id)!;

  it('children pricing a security differently is a warning naming both rows, consolidated at the value-weighted price', async () => {
    const items = integrity.filter((i) => i.name === repriced.security_id);
    expect(items.map((i) => i.status)).toEqual(['warning']);
    const k = kyRow(repriced.security_id);
    // each row named by the fund code its file gives, its file and line
    expect(items[0].message).toContain(
      `priced differently by the child funds (${k.fund_code} ${k.file} line ${k.line}: ${k.price}; ${repriced.fund_code} ${repriced.file} line ${repriced.line}: ${price})`,
    );
    const positions: HoldingRow[] = [];
    for await (const chunk of chunksOf(agg.data.holdings)) positions.push(...chunk.filter((h) => h.security_id === repriced.security_id));
    expect(positions).toHaveLength(1);
    const local = (k.market_value_local ?? 0) + value;
    expect(positions[0].price).toBeCloseTo((local * factor) / (k.quantity + repriced.quantity), 9);
    expect(positions[0].market_value_base).toBeCloseTo(k.market_value_base + value, 6);
    expect(items[0].message).toContain(`consolidated at the value-weighted price ${positions[0].price}; confirm which price is right`);
  });

  it('within one child, two identical rows of a shared security are still a probable double count (fail)', () => {
    const items = integrity.filter((i) => i.name === twin.security_id);
    expect(items.map((i) => i.status)).toEqual(['fail']);
    const copy = dm.holdings[dm.holdings.length - 1];
    expect(items[0].message).toContain(
      `${twin.fund_code} ${twin.file} line ${copy.line} is an exact duplicate of line ${twin.line} (same quantity, price and value): probable double count`,
    );
    expect(items[0].diff).toBe(twin.market_value_base);
    // the other securities, held once by each child, raise nothing
    expect(
      integrity
        .filter((i) => i.status !== 'pass')
        .map((i) => i.name)
        .sort(),
    ).toEqual([repriced.security_id, twin.security_id].sort());
  });

  it("the parent's overall status is the worst of its items, over the children's NAVs summed", () => {
    // the duplicate row's value is not in the demo TPA's trial balance: investments do not reconcile either
    expect(run.items.filter((i) => i.status === 'fail').map((i) => i.check)).toEqual(['investments_reconciliation', 'holdings_integrity']);
    expect(run.status).toBe('fail');
    expect(agg.summary.total.nav).toBeCloseTo(
      agg.summary.children.reduce((s, c) => s + (c.converted?.nav ?? 0), 0),
      1,
    );
  });
});
