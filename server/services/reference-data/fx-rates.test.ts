import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { fixturesDir } from '../../paths.js';
import { loadFxRates } from '../../jobs/stages/calculations.js';
import { seedFxRates } from '../../runtime.js';
import { rateFor } from '../../../pipeline/checks/fx.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { importEcbFxFile, listFxRates } from './fx-rates.js';

const ECB = join(fixturesDir(), 'ecb', 'eurofxref-hist_2022-12_2024-02.csv');

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

describe('independent FX rates: ECB eurofxref-hist import', () => {
  it('loads the ECB history and says which dates and currencies it covers', () => {
    const f = importEcbFxFile(ctx, ECB);
    expect(f).toMatchObject({
      file: 'eurofxref-hist_2022-12_2024-02.csv',
      format: 'ECB eurofxref-hist',
      firstDate: '2022-12-01',
      lastDate: '2024-02-29',
      dates: 319,
    });
    expect(f.currencies).toEqual(expect.arrayContaining(['EUR', 'USD', 'SEK', 'JPY', 'GBP']));
    expect(f.currencies).not.toContain('CYP');
    seedFxRates(ctx);
    expect(listFxRates(ctx).map((x) => [x.file, x.format, x.firstDate, x.lastDate, x.dates])).toEqual([
      ['ecb-usd-cross-rates-2022-12-30.csv', 'cross rates', '2022-12-30', '2022-12-30', 1],
      ['ecb-usd-cross-rates-2023-03-31.csv', 'cross rates', '2023-03-31', '2023-03-31', 1],
      ['eurofxref-hist_2022-12_2024-02.csv', 'ECB eurofxref-hist', '2022-12-01', '2024-02-29', 319],
    ]);
  });

  it('gives a USD fund the same cross rates as the shipped ECB-derived ones, and rates of the right date for a later period end', () => {
    importEcbFxFile(ctx, ECB);
    const rates = loadFxRates(ctx, 'USD');
    seedFxRates(ctx);
    const shipped = loadFxRates(ctx, 'USD').filter((r) => r.source.startsWith('ECB 2023-03-31'));
    expect(shipped.length).toBeGreaterThan(25);
    for (const s of shipped) {
      const r = rateFor(rates, s.currency, '2023-03-31')!;
      expect(r.rate_date, s.currency).toBe('2023-03-31');
      expect(r.units_per_base, s.currency).toBeCloseTo(s.units_per_base, 7);
    }
    // a fund at 2024-01-31 is tested against that day's ECB figures: 11.2682 SEK and 1.0837 USD per EUR
    const sek = rateFor(rates, 'SEK', '2024-01-31')!;
    expect(sek.rate_date).toBe('2024-01-31');
    expect(sek.units_per_base).toBeCloseTo(11.2682 / 1.0837, 10);
    expect(sek.source).toBe('eurofxref-hist_2022-12_2024-02.csv ECB 2024-01-31: 11.2682 SEK per EUR / 1.0837 USD per EUR');
    // a EUR fund gets the ECB's own figures
    expect(rateFor(loadFxRates(ctx, 'EUR'), 'USD', '2024-01-31')).toMatchObject({ rate_date: '2024-01-31', units_per_base: 1.0837 });
  });

  it('refuses a file that is not an ECB history, or a wrong row, naming the line', () => {
    expect(() => importEcbFxFile(ctx, join(fixturesDir(), 'fx', 'ecb-usd-cross-rates-2023-03-31.csv'))).toThrow(
      'ecb-usd-cross-rates-2023-03-31.csv is not an ECB eurofxref-hist csv: its header must be Date followed by currency codes (Date,USD,JPY,...)',
    );
    const bad = join(ctx.dir, 'eurofxref-hist.csv');
    writeFileSync(bad, 'Date,USD,SEK,\n2024-01-31,1.0837,11.2125,\n31.01.2024,1.0837,11.2125,\n');
    expect(() => importEcbFxFile(ctx, bad)).toThrow('eurofxref-hist.csv line 3: bad date "31.01.2024" (YYYY-MM-DD expected)');
    writeFileSync(bad, 'Date,USD,SEK,\n2024-01-31,1.0837,-1,\n');
    expect(() => importEcbFxFile(ctx, bad)).toThrow('eurofxref-hist.csv line 2: bad SEK rate "-1"');
    expect(() => importEcbFxFile(ctx, join(ctx.dir, 'none.csv'))).toThrow(/No such file/);
    expect(listFxRates(ctx)).toEqual([]);
  });
});

describe('the stale-rate limit', () => {
  it('is FUND_AUDIT_FX_MAX_AGE_DAYS (default 5), refused when not a whole number of days', () => {
    expect(loadConfig({ dataDir: ctx.dir, env: {} }).fxMaxAgeDays).toBe(5);
    expect(loadConfig({ dataDir: ctx.dir, env: { FUND_AUDIT_FX_MAX_AGE_DAYS: '30' } }).fxMaxAgeDays).toBe(30);
    expect(() => loadConfig({ dataDir: ctx.dir, env: { FUND_AUDIT_FX_MAX_AGE_DAYS: 'a week' } })).toThrow(/FUND_AUDIT_FX_MAX_AGE_DAYS/);
  });
});
