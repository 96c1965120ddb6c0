import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmArrays, HoldingRow, QaRec } from '../sdm/rows.js';
import type { CheckContext } from './common.js';
import { loadFxCsv } from './fx.js';
import { identifierProblems, valueProblems, holdingsIntegrity } from './holdings-integrity.js';
import { CHECK_LABELS, runChecks } from './index.js';
import { materiality, navFromTrialBalance } from './materiality.js';
import { priceTesting } from './price-testing.js';
import { expectedFund, FIXTURES, gsCheckContext, loadCsvTpa, loadKeystone } from '../testing/check-data.js';
import { tbBalance } from './tb-balance.js';
import { investmentsReconciliation } from './investments-reconciliation.js';
import { navCheck } from './nav.js';
import { capitalRollForward } from './capital-roll-forward.js';

const GS = 'meridian_fund_services';
const dupreeFx = loadFxCsv(join(FIXTURES, 'fx/ecb-usd-cross-rates-2022-12-30.csv'));

const contextFor = gsCheckContext;

const copy = (d: FundSdmArrays): FundSdmArrays => structuredClone(d);
const only = (items: QaRec[], name: string) => {
  const hit = items.filter((i) => i.name === name);
  expect(hit, name).toHaveLength(1);
  return hit[0];
};

describe('GS (Meridian) real data', () => {
  let gs: FundSdmArrays;
  let ctx: CheckContext;
  const exp = expectedFund(GS);
  beforeAll(() => {
    gs = loadCsvTpa(GS);
    ctx = contextFor(gs, '2023-03-31');
  });

  it('reads the fixture like the expected figures', () => {
    expect(gs.holdings).toHaveLength(exp.positions);
    expect(gs.trial_balance).toHaveLength(exp.trial_balance.lines.length);
    expect(gs.prices).toHaveLength(exp.prices_rows);
    expect(gs.holdings[0]).toMatchObject({ file: 'MFS_HOLDINGS_S000013795_20230331.csv', line: 5, security_id: 'US3138W7WP51', standard_instrument: 'DEBT' });
  });

  it('NAV from the mapped TB = net assets 361,898,455.93; materiality amounts', () => {
    expect(ctx.nav).toBe(361898455.93);
    expect(ctx.nav).toBe(exp.net_assets);
    expect(ctx.materiality).toEqual({ pm: 3618984.56, te: 2714238.42, sad: 180949.23 });
  });

  it('TB sums to 0 and passes', () => {
    const [item] = tbBalance(gs, ctx);
    expect(item).toMatchObject({ check: 'tb_balance', status: 'pass', diff: 0, threshold: 180949.23 });
    expect(item.details).toMatchObject({ debits: 573390244.6, credits: -573390244.6 });
  });

  it('investments and derivatives reconcile to the cent', async () => {
    const items = await investmentsReconciliation(gs, ctx);
    expect(items.map((i) => [i.status, i.diff])).toEqual([
      ['pass', 0],
      ['pass', 0],
    ]);
    expect(items[0].details).toMatchObject({ holdings: exp.holdings.market_value_base_non_derivative, tb: 374308678.89 });
    expect(items[1].details).toMatchObject({ holdings: exp.holdings.market_value_base_derivative, tb: 7551180.28 - 5730147.61 });
  });

  it('NAV agrees with share capital and with the capital accounts', () => {
    const items = navCheck(gs, ctx);
    expect(items.map((i) => [i.name, i.status, i.diff])).toEqual([
      ['NAV vs share capital', 'pass', 0],
      ['NAV vs TB capital accounts', 'pass', 0],
    ]);
    expect(items[0].details).toMatchObject({ navTb: 361898455.93, assets: exp.total_assets, liabilities: exp.total_liabilities });
  });

  it('capital rolls forward (shares) and the closing amount agrees to the TB', () => {
    const items = capitalRollForward(gs, ctx);
    expect(items.map((i) => [i.name, i.status, i.diff])).toEqual([
      ['Shares roll-forward ALL', 'pass', 0],
      ['Closing capital vs TB capital accounts', 'pass', 0],
    ]);
    expect(items[0].details).toMatchObject({ unit: 'shares', computedClosing: exp.share_capital.closing_shares });
    expect(items[1].details).toMatchObject({ amountRollForward: expect.stringContaining('not derivable') });
  });

  it('holdings integrity: every value within rounding, every ISIN (and its embedded CUSIP) valid, FIGIs recognised', async () => {
    expect(gs.holdings.flatMap((h) => valueProblems(h, ctx))).toEqual([]);
    expect(gs.holdings.flatMap((h) => identifierProblems(h))).toEqual([]);
    const us = gs.holdings.filter((h) => h.id_type === 'ISIN' && h.security_id.startsWith('US'));
    expect(us.length).toBeGreaterThan(500);
    const cusips = us.map((h) => ({ ...h, id_type: 'CUSIP', security_id: h.security_id.slice(2, 11) }));
    expect(cusips.flatMap((h) => identifierProblems(h))).toEqual([]);
    // the only findings are the 8 ids held twice (long / short legs): warnings, no fails
    const items = await holdingsIntegrity(gs, ctx);
    expect(items.every((i) => i.status === 'warning')).toBe(true);
    expect(items.map((i) => i.name).sort()).toEqual([...exp.holdings.duplicate_security_ids].sort());
  });

  it("price testing: the TPA's own prices are no evidence, so it is not performed; the rates are tested by FX testing", async () => {
    const [item, ...rest] = await priceTesting(gs, ctx);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ status: 'warning', notPerformed: "no independent prices (price sources meridian are the TPA's own)" });
  });

  it('runChecks: every check runs in order, GS ends as warning (the 8 two-leg ids) with no fail', async () => {
    const run = await runChecks(gs, ctx);
    expect([...new Set(run.items.map((i) => i.check))]).toEqual(Object.keys(CHECK_LABELS));
    // warnings: price testing (own prices only), the 8 two-leg ids and FX testing's CLP and TWD (no ECB rate)
    const warnings = run.items.filter((i) => i.status === 'warning').map((i) => (i.check === 'holdings_integrity' ? 'two-leg id' : i.name));
    expect(warnings).toEqual(['Price testing', 'FX CLP', 'FX TWD', ...Array(8).fill('two-leg id')]);
    expect(run.summary.fail).toBe(0);
    expect(run.status).toBe('warning');
  });
});

describe('GS failure cases (one row altered)', () => {
  let gs: FundSdmArrays;
  let ctx: CheckContext;
  beforeAll(() => {
    gs = loadCsvTpa(GS);
    ctx = contextFor(gs, '2023-03-31');
  });

  it('a TB off by 1,000,000 fails against SAD', () => {
    const d = copy(gs);
    d.trial_balance[3].balance_base += 1_000_000;
    const [item] = tbBalance(d, ctx);
    expect(item).toMatchObject({ status: 'fail', diff: 1_000_000, threshold: 180949.23 });
    const small = copy(gs);
    small.trial_balance[3].balance_base += 0.5;
    expect(tbBalance(small, ctx)[0]).toMatchObject({ status: 'warning', diff: 0.5 });
  });

  it('an investments difference above SAD warns, above TE fails', async () => {
    const d = copy(gs);
    d.trial_balance[0].balance_base -= 200_000;
    expect((await investmentsReconciliation(d, ctx))[0]).toMatchObject({ status: 'warning', diff: 200_000, threshold: 180949.23 });
    d.trial_balance[0].balance_base -= 3_000_000;
    expect((await investmentsReconciliation(d, ctx))[0]).toMatchObject({ status: 'fail', diff: 3_200_000, threshold: 2714238.42 });
  });

  it('a duplicated holding is flagged as a probable double count', async () => {
    const d = copy(gs);
    d.holdings.push({ ...d.holdings[0], line: 9999 });
    const item = (await holdingsIntegrity(d, ctx)).find((i) => i.line === 9999)!;
    expect(item).toMatchObject({ name: 'US3138W7WP51', status: 'fail', diff: 12467.33, file: 'MFS_HOLDINGS_S000013795_20230331.csv' });
    expect(item.message).toContain('line 5');
  });

  it('a wrong price fails holdings integrity (value) and price testing (independent price)', async () => {
    const d = copy(gs);
    const h = d.holdings.find((x) => x.security_id === 'US01F0526495' && x.quantity > 0)!;
    h.price = 91.0156; // 10 points below: 3,000,000 on 30,000,000 nominal
    const bad = (await holdingsIntegrity(d, ctx)).find((i) => i.line === h.line)!;
    expect(bad).toMatchObject({ status: 'fail', diff: -3_000_000 });
    expect(bad.message).toContain('/ 100');

    const p = copy(gs);
    p.prices.push({
      security_id: 'US01F0526495',
      price_date: '2023-03-31',
      price: 90,
      price_currency: 'USD',
      price_source: 'ICE',
      price_type: null,
      file: 'ice.csv',
      line: 2,
    });
    const items = await priceTesting(p, ctx);
    const flagged = items.filter((i) => i.status === 'fail' && i.name === 'US01F0526495');
    // the long leg (30,000,000) is above TE, the short leg (-10,000,000: -1,101,560) is not
    expect(flagged).toHaveLength(1);
    expect(flagged[0].diff).toBeCloseTo((30_000_000 * 11.0156) / 100, 2);
    const total = only(items, 'Price testing: total impact');
    expect(total.diff).toBeCloseTo((20_000_000 * 11.0156) / 100, 2);
    expect(total.status).toBe('warning'); // 2.2m: above SAD, below PM
    expect((total.details as any).tested).toBe(2);
  });

  it('a known-bad ISIN / CUSIP check digit fails', async () => {
    const d = copy(gs);
    d.holdings[0].security_id = 'US3138W7WP52';
    expect((await holdingsIntegrity(d, ctx)).find((i) => i.line === 5)).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('ISIN check digit 2 should be 1'),
    });
    const c: HoldingRow = { ...gs.holdings[0], id_type: 'CUSIP', security_id: '3138W7WP4' };
    expect(identifierProblems(c)).toEqual([{ status: 'fail', diff: 0, text: 'CUSIP check digit 4 should be 5' }]);
  });

  it('a share roll-forward off by more than 0.001 shares fails; NAV vs share capital fails above TE', () => {
    const d = copy(gs);
    d.share_capital[d.share_capital.length - 1].shares += 0.01;
    expect(capitalRollForward(d, ctx)[0]).toMatchObject({ status: 'fail', diff: -0.01, threshold: 0.001 });
    const n = copy(gs);
    n.share_capital[n.share_capital.length - 1].nav_per_share = 1.01;
    expect(navCheck(n, ctx)[0]).toMatchObject({ status: 'fail', diff: -3618984.56 });
    const none = copy(gs);
    Object.assign(none.share_capital[none.share_capital.length - 1], { nav_per_share: null, amount_base: null });
    expect(navCheck(none, ctx)[0]).toMatchObject({ status: 'warning', message: expect.stringContaining('not computed') });
  });

  it('a check that throws becomes one fail item; the run goes on', async () => {
    const d = copy(gs);
    (d.holdings[3] as any).security_id = undefined;
    const run = await runChecks(d, ctx);
    expect(run.items.find((i) => i.check === 'holdings_integrity')).toMatchObject({
      status: 'fail',
      name: 'Holdings integrity could not run',
      notPerformed: expect.stringMatching(/^the check failed with an error: /),
    });
    expect(run.items.find((i) => i.check === 'tb_balance')?.status).toBe('pass');
    expect(run.status).toBe('fail');
  });

  it('a check with nothing to check is not performed, with its reason, never a pass', async () => {
    const d = copy(gs);
    d.holdings = [];
    d.share_capital = [];
    const run = await runChecks(d, ctx);
    const notPerformed = run.items.filter((i) => i.notPerformed).map((i) => [i.check, i.status, i.notPerformed]);
    expect(notPerformed).toEqual([
      ['price_testing', 'warning', 'no holdings delivered'],
      ['fx_testing', 'warning', 'no holdings delivered'],
      ['capital_roll_forward', 'warning', 'no share capital rows delivered'],
      ['holdings_integrity', 'warning', 'no holdings delivered'],
    ]);
    const noTb = await runChecks({ ...d, trial_balance: [] }, ctx);
    expect(noTb.items.find((i) => i.check === 'tb_balance')).toMatchObject({ status: 'fail', notPerformed: 'no trial balance rows delivered' });
    expect(noTb.items.find((i) => i.check === 'nav')).toMatchObject({ status: 'fail', notPerformed: expect.stringContaining('no TB account') });
  });

  it('caps the items of one check and says how many were left out', async () => {
    const d = { ...gs, holdings: [...gs.holdings, ...gs.holdings, ...gs.holdings] };
    const run = await runChecks(d, { ...ctx, maxItemsPerCheck: 100 });
    const hi = run.items.filter((i) => i.check === 'holdings_integrity');
    expect(hi).toHaveLength(100);
    expect(hi[99]).toMatchObject({ name: 'Items not listed', status: 'fail' });
    expect(run.omitted?.holdings_integrity).toBe(3370 + 8 - 99);
  });
});

describe('Dupree (demo_test and keystone) real data', () => {
  it.each([['demo_test'], ['keystone_admin']])('%s: every check performed passes; price testing is not performed (external valuations N)', async (tpa) => {
    const data = tpa === 'keystone_admin' ? await loadKeystone() : loadCsvTpa(tpa);
    const exp = expectedFund(tpa);
    const ctx = contextFor(data, '2022-12-31', { fxRates: dupreeFx, externalValuations: false });
    expect(ctx.nav).toBe(exp.net_assets);
    const run = await runChecks(data, ctx);
    // a check that could not be performed is never a pass: the run is a warning, not a clean pass
    expect(run.status).toBe('warning');
    expect(run.items.filter((i) => i.status !== 'pass').map((i) => [i.check, i.notPerformed])).toEqual([
      ['price_testing', 'the fund has no external valuations (external_valuations = N)'],
    ]);
    expect(run.items.map((i) => [i.check, i.name, i.status])).toEqual([
      ['tb_balance', 'Trial balance sums to zero', 'pass'],
      ['investments_reconciliation', 'Investments vs INVESTMENTS_AT_VALUE', 'pass'],
      ['investments_reconciliation', 'Derivatives vs DERIVATIVES_ASSET + DERIVATIVES_LIABILITY', 'pass'],
      ['nav', 'NAV vs share capital', 'pass'],
      ['nav', 'NAV vs TB capital accounts', 'pass'],
      ['price_testing', 'Price testing', 'warning'],
      ['fx_testing', 'FX testing: total impact', 'pass'],
      ['capital_roll_forward', 'Shares roll-forward C000032728', 'pass'],
      ['capital_roll_forward', 'Closing capital vs TB capital accounts', 'pass'],
      ['holdings_integrity', 'All holdings', 'pass'],
    ]);
    expect(run.items.at(-1)?.details).toMatchObject({ holdings: 55, pricedPer100: 55 });
  });

  it('keystone with external valuations: its own prices are no evidence, so price testing is not performed (warning)', async () => {
    const data = await loadKeystone();
    const [item] = await priceTesting(data, contextFor(data, '2022-12-31', { fxRates: dupreeFx }));
    expect(item).toMatchObject({ status: 'warning', notPerformed: expect.stringContaining('no independent prices'), details: { performed: false } });
  });
});
