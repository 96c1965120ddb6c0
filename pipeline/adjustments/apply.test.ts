import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import { allRows, type FundSdmArrays, type HoldingRow, type QaRec } from '../sdm/rows.js';
import { loadFxCsv } from '../checks/fx.js';
import { runChecks, type CheckContext } from '../checks/index.js';
import { materiality, navFromTrialBalance } from '../checks/materiality.js';
import { FIXTURES, GS_FUND, loadCsvTpa } from '../testing/check-data.js';
import type { FundSdmData } from '../sdm/rows.js';
import { applyAdjustments, type FundAdjustment } from './apply.js';

const fx = loadFxCsv(join(FIXTURES, 'fx/ecb-usd-cross-rates-2023-03-31.csv'));

/** What the calculations stage gives the checks: NAV and PM / TE / SAD from the (adjusted) trial balance. */
async function checksOf(data: FundSdmData): Promise<{ items: QaRec[]; ctx: CheckContext }> {
  const nav = navFromTrialBalance(data.trial_balance, STANDARD_ACCOUNTS);
  const ctx: CheckContext = {
    fundCode: GS_FUND.fundCode,
    periodEnd: GS_FUND.periodEnd,
    currency: 'USD',
    nav,
    materiality: materiality({ nav, pm: GS_FUND.pm, te: GS_FUND.te, sad: GS_FUND.sad }),
    fxRates: fx,
    externalValuations: true,
    accountClasses: STANDARD_ACCOUNTS,
  };
  return { items: (await runChecks(data, ctx)).items, ctx };
}

const item = (items: QaRec[], name: string) => items.find((i) => i.name === name)!;

let gs: FundSdmArrays;
let bond: HoldingRow;

/** A bond written down by 1,000,000: the position, the investments account 11000 and unrealised G/L. */
const writeDown = (over: Partial<FundAdjustment> = {}): FundAdjustment => ({
  id: 41,
  type: 'bond',
  description: 'Bond priced at the independent vendor price',
  bookedByTpa: true,
  author: 'Ada Lovelace',
  createdAt: '2023-04-20T10:00:00.000Z',
  updatedAt: '2023-04-20T10:00:00.000Z',
  lines: [
    { account: '11000', target: 'holding_value', securityId: bond.security_id, amount: -1_000_000 },
    { account: '11000', target: 'tb_balance', amount: -1_000_000 },
    { account: 'UNREALIZED_GL', target: 'tb_balance', amount: 1_000_000, description: 'Unrealised loss on the write-down' },
  ],
  ...over,
});

beforeAll(() => {
  gs = loadCsvTpa('meridian_fund_services');
  // the largest USD debt position the fund holds once
  const counts = new Map<string, number>();
  for (const h of gs.holdings) counts.set(h.security_id, (counts.get(h.security_id) ?? 0) + 1);
  bond = gs.holdings
    .filter((h) => h.standard_instrument === 'DEBT' && h.price_currency === 'USD' && counts.get(h.security_id) === 1)
    .sort((a, b) => b.market_value_base - a.market_value_base)[0];
});

describe('a booked pre-calc bond adjustment on the Goldman Sachs Bond Fund (real N-PORT data)', () => {
  it('before: the TPA figures reconcile and NAV agrees with the share register', async () => {
    const { items } = await checksOf(gs);
    expect(item(items, 'NAV vs share capital')).toMatchObject({ status: 'pass', diff: 0 });
    expect(item(items, 'Investments vs INVESTMENTS_AT_VALUE')).toMatchObject({ status: 'pass', diff: 0 });
  });

  it('after: investments still reconcile at the lower value, and NAV falls 1,000,000 below the share register (above SAD: a warning)', async () => {
    const adjusted = applyAdjustments(gs, [writeDown()], 'pre-calc');
    const { items, ctx } = await checksOf(adjusted);
    expect(item(items, 'Trial balance sums to zero').status).toBe('pass');
    const inv = item(items, 'Investments vs INVESTMENTS_AT_VALUE');
    expect(inv).toMatchObject({ status: 'pass', diff: 0 });
    expect(inv.message).toContain('373,308,678.89');
    const nav = item(items, 'NAV vs share capital');
    expect(nav).toMatchObject({ status: 'warning', diff: -1_000_000 });
    expect(Math.abs(nav.diff)).toBeGreaterThan(ctx.materiality.sad);
    expect(Math.abs(nav.diff)).toBeLessThan(ctx.materiality.te);
    // the capital accounts carry the unrealised loss: NAV still agrees with them
    expect(item(items, 'NAV vs TB capital accounts')).toMatchObject({ status: 'pass', diff: 0 });
    // the revalued position: a new price, no holdings-integrity exception on it
    const revalued = (await allRows(adjusted.holdings)).find((h) => h.line === bond.line)!;
    expect(revalued.market_value_base).toBeCloseTo(bond.market_value_base - 1_000_000, 2);
    expect(revalued.price / bond.price).toBeCloseTo(revalued.market_value_base / bond.market_value_base, 10);
    expect(items.filter((i) => i.check === 'holdings_integrity' && i.line === bond.line)).toEqual([]);
    // the unrealised G/L account is a new trial-balance row that names the adjustment
    expect(adjusted.trial_balance.at(-1)).toMatchObject({
      account_code: 'UNREALIZED_GL',
      standard_account: 'UNREALIZED_GL',
      balance_base: 1_000_000,
      file: 'Adjustment #41',
      line: 3,
    });
    // the delivered data is unchanged
    expect(gs.trial_balance).toHaveLength(8);
    expect(gs.holdings.find((h) => h.line === bond.line)!.market_value_base).toBe(bond.market_value_base);
  });

  it('an adjustment the TPA has not booked, or a post-calc one, leaves the checked figures as delivered', () => {
    expect(applyAdjustments(gs, [writeDown({ bookedByTpa: false })], 'pre-calc')).toBe(gs);
    const apportion = writeDown({
      type: 'uk_apportionment',
      lines: [
        { account: '30000', target: 'tb_balance', amount: 250_000 },
        { account: 'DISTRIBUTABLE_EARNINGS', target: 'tb_balance', amount: -250_000 },
      ],
    });
    expect(applyAdjustments(gs, [apportion], 'pre-calc')).toBe(gs);
    const reported = applyAdjustments(gs, [apportion], 'all');
    expect(reported.trial_balance.find((r) => r.account_code === '30000')!.balance_base).toBe(-361_898_455.93 + 250_000);
  });
});
