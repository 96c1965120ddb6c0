/**
 * FX testing on the Goldman Sachs Bond Fund (Meridian fixture, 1,685 positions in 24 currencies)
 * against the real ECB rates: every figure recomputed here from the delivered rows and the ECB
 * cross rates of the fixture, independently of the check.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { FundSdmArrays, HoldingRow, QaRec } from '../sdm/rows.js';
import type { CheckContext } from './common.js';
import { loadFxCsv } from './fx.js';
import { FX_TOTAL, fxTesting } from './fx-testing.js';
import { materiality, navFromTrialBalance } from './materiality.js';
import { FIXTURES, gsCheckContext, gsFx, loadCsvTpa } from '../testing/check-data.js';

const olderFx = loadFxCsv(join(FIXTURES, 'fx/ecb-usd-cross-rates-2022-12-30.csv'));

let gs: FundSdmArrays;
let base: CheckContext;
beforeAll(() => {
  gs = loadCsvTpa('meridian_fund_services');
  base = gsCheckContext(gs, '2023-03-31');
});

const cents = (x: number) => Math.round(x * 100) / 100;
const item = (items: QaRec[], name: string) => items.find((i) => i.name === name)!;

/** The expected result of one currency, recomputed: its positions' rates (delivered fx_rate) against the ECB cross rate. */
function recompute(rows: HoldingRow[], independent: number, tolerance: number) {
  const byRate = new Map<number, HoldingRow[]>();
  for (const h of rows) byRate.set(h.fx_rate!, [...(byRate.get(h.fx_rate!) ?? []), h]);
  let exceptionImpact = 0;
  const rates = [...byRate].map(([rate, hs]) => {
    const impact = hs.reduce((s, h) => s + h.market_value_base - h.market_value_local! / independent, 0);
    const diffPct = ((rate - independent) / independent) * 100;
    const exception = Math.abs(diffPct) > tolerance;
    if (exception) exceptionImpact += impact;
    return { rate, positions: hs.length, diffPct, exception, impact };
  });
  return { rates, exceptionImpact: cents(exceptionImpact) };
}

describe('FX testing against the ECB rates of the period end (GS, real data)', () => {
  it('tests every currency the ECB publishes, each TPA rate against the tolerance, judged on its impact', async () => {
    const items = await fxTesting(gs, base);
    const { sad, te, pm } = base.materiality;
    const foreign = gs.holdings.filter((h) => h.price_currency !== 'USD');
    const currencies = [...new Set(foreign.map((h) => h.price_currency!))].sort();
    expect(currencies).toHaveLength(23);
    expect(items.map((i) => i.name)).toEqual([...currencies.map((c) => `FX ${c}`), FX_TOTAL]);
    let net = 0;
    for (const ccy of currencies) {
      const it = item(items, `FX ${ccy}`);
      const ind = gsFx.find((r) => r.currency === ccy);
      if (!ind) {
        // the ECB publishes no CLP or TWD rate: NOT PERFORMED, named per currency, never a pass
        expect(['CLP', 'TWD']).toContain(ccy);
        expect(it).toMatchObject({ status: 'warning', notPerformed: `no independent ${ccy} rate per USD dated on or before the period end 2023-03-31` });
        expect(it.message).toMatch(new RegExp(`^Not performed: ${ccy} \\(\\d+ position\\(s\\), `));
        continue;
      }
      const e = recompute(
        foreign.filter((h) => h.price_currency === ccy),
        ind.units_per_base,
        0.5,
      );
      const status = Math.abs(e.exceptionImpact) > te ? 'fail' : Math.abs(e.exceptionImpact) > sad ? 'warning' : 'pass';
      expect([ccy, it.status, it.diff]).toEqual([ccy, e.rates.some((r) => r.exception) ? status : 'pass', e.exceptionImpact]);
      const d = it.details as any;
      expect(d.independentRate).toBe(ind.units_per_base);
      expect(d.rateDate).toBe('2023-03-31');
      for (const r of e.rates) {
        const t = d.tpaRates.find((x: any) => x.rate === r.rate);
        expect(t.positions).toBe(r.positions);
        expect(t.exception).toBe(r.exception);
        expect(t.rateDiffPct).toBeCloseTo(r.diffPct, 9);
        expect(t.impact).toBeCloseTo(r.impact, 2);
      }
      net += e.exceptionImpact;
    }
    const total = item(items, FX_TOTAL);
    expect(total.diff).toBeCloseTo(net, 2);
    expect(total.status).toBe(Math.abs(net) > pm ? 'fail' : Math.abs(net) > sad ? 'warning' : 'pass');
    expect(total.message).toContain('NOT PERFORMED for CLP, TWD');
    // SEK: the filing's 10.36489313 is 0.077% from the ECB's 11.2805 / 1.0875 = 10.37287356, within the tolerance
    const sek = item(items, 'FX SEK').details as any;
    expect(sek.tpaRates.find((t: any) => t.rate === 10.36489313)).toMatchObject({ exception: false });
    expect(sek.tpaRates.find((t: any) => t.rate === 10.36489313).rateDiffPct).toBeCloseTo(-0.077, 3);
  });

  it('a tolerance of the fund widens or narrows what is an exception, and is shown', async () => {
    const tight = item(await fxTesting(gs, { ...base, fxTolerancePct: 0.01 }), 'FX SEK');
    const wide = item(await fxTesting(gs, { ...base, fxTolerancePct: 5 }), 'FX SEK');
    expect(tight.message).toContain('outside the tolerance 0.01%');
    expect(wide).toMatchObject({ status: 'pass', diff: 0 });
    expect(wide.message).toContain('within the tolerance 5%');
    expect((item(await fxTesting(gs, { ...base, fxTolerancePct: 5 }), FX_TOTAL).details as any).tolerancePct).toBe(5);
  });

  it('prints rates without float noise', async () => {
    const sek = item(await fxTesting(gs, base), 'FX SEK');
    expect(sek.message).toContain('vs independent 10.37287356 (');
    expect(sek.message).not.toMatch(/\d\.\d{13,}/);
  });
});

describe('the age of the independent rates', () => {
  it('never concludes on a rate more than 5 business days old: NOT PERFORMED per currency with the rate date', async () => {
    // the ECB rates of 2022-12-30 for a fund at 2023-03-31: 91 days, 65 business days
    const items = await fxTesting(gs, { ...base, fxRates: olderFx });
    const sek = item(items, 'FX SEK');
    expect(sek.status).toBe('warning');
    expect(sek.notPerformed).toBe(
      'the latest independent SEK rate, 10.42733921 (ECB 2022-12-30: 11.1218 SEK per EUR / 1.0666 USD per EUR), is dated 2022-12-30, 91 days before the period end 2023-03-31 (65 business days; limit 5): too old to conclude on',
    );
    const total = item(items, FX_TOTAL);
    expect(total).toMatchObject({ status: 'warning', diff: 0 });
    expect(total.notPerformed).toMatch(
      /^no currency could be tested against an independent rate dated at most 5 business days before the period end 2023-03-31/,
    );
  });

  it('5 business days old is used, 6 is not; the limit is the fund context', async () => {
    const at = async (periodEnd: string, fxMaxAgeBusinessDays?: number) =>
      item(await fxTesting(gs, { ...base, periodEnd, ...(fxMaxAgeBusinessDays === undefined ? {} : { fxMaxAgeBusinessDays }) }), 'FX SEK').notPerformed ?? null;
    expect(await at('2023-04-07')).toBeNull(); // Friday, 5 business days after Friday 2023-03-31
    expect(await at('2023-04-10')).toMatch(/6 business days; limit 5/);
    expect(await at('2023-04-10', 6)).toBeNull();
    expect(await at('2023-04-01', 0)).toBeNull(); // a Saturday: the Friday rate is 0 business days old
  });

  it('no rate on or before the period end: each currency NOT PERFORMED', async () => {
    const items = await fxTesting(gs, { ...base, periodEnd: '2023-03-30' });
    expect(items.filter((i) => i.name.startsWith('FX ') && i.name !== FX_TOTAL).every((i) => i.notPerformed?.startsWith('no independent '))).toBe(true);
  });

  it('a fund without foreign holdings passes saying so; without holdings it is not performed', async () => {
    const usdOnly = { ...gs, holdings: gs.holdings.filter((h) => h.price_currency === 'USD') };
    expect(await fxTesting(usdOnly, base)).toEqual([
      expect.objectContaining({ name: FX_TOTAL, status: 'pass', message: expect.stringContaining('No foreign-currency holdings') }),
    ]);
    expect(await fxTesting({ ...gs, holdings: [] }, base)).toEqual([expect.objectContaining({ status: 'warning', notPerformed: 'no holdings delivered' })]);
  });
});
