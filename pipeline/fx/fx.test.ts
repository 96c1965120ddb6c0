/**
 * The FX core on real published rates: the ECB history shipped with the product, the ECB's daily
 * file and the Fed H.10 monthly file (fixtures/reference/fx, fixtures/fx-sources, copied unchanged
 * from the shared data), read in their own layouts; rates for a fund's base currency quoted,
 * inverted or crossed through EUR or USD; the age of a rate in business days; rates as text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../testing/check-data.js';
import { businessDaysBefore, describeAge, lastBusinessDay, rateAge } from './age.js';
import { cleanRate, fmtRate } from './format.js';
import { FxResolver } from './resolve.js';
import { detectFxSourceLayout, parseFxSource } from './sources.js';

const read = (p: string) => readFileSync(join(FIXTURES, p), 'utf8');
const ecb = parseFxSource(read('reference/fx/eurofxref-hist_2020-onwards.csv'), 'eurofxref-hist_2020-onwards.csv');
const daily = parseFxSource(read('fx-sources/eurofxref_daily_2026-04-13.csv'), 'eurofxref_daily_2026-04-13.csv');
const fed = parseFxSource(read('fx-sources/fed_h10_fx_monthly.csv'), 'fed_h10_fx_monthly.csv');

/** A figure of the ECB history as published: units of `ccy` per EUR on `date`. */
function ecbFigure(date: string, ccy: string): number {
  const [header, ...rows] = read('reference/fx/eurofxref-hist_2020-onwards.csv').split('\n');
  const row = rows.find((r) => r.startsWith(`${date},`))!.split(',');
  return Number(row[header.split(',').indexOf(ccy)]);
}

describe('files of independent rates in their own layouts', () => {
  it('reads the ECB history: units per EUR, N/A skipped, every line', () => {
    expect(ecb.layout).toBe('ECB eurofxref-hist');
    const sek = ecb.quotes.find((q) => q.currency === 'SEK' && q.rate_date === '2023-03-31')!;
    expect(sek).toMatchObject({ base: 'EUR', units_per_base: 11.2805, source: 'eurofxref-hist_2020-onwards.csv ECB 2023-03-31: 11.2805 SEK per EUR' });
    expect(ecb.quotes.some((q) => q.currency === 'CYP')).toBe(false);
    const dates = new Set(ecb.quotes.map((q) => q.rate_date));
    expect(dates.size).toBe(1608);
    expect([...dates].sort().at(-1)).toBe('2026-04-13');
  });

  it('reads the ECB daily file with its spaces and long dates', () => {
    expect(daily.layout).toBe('ECB eurofxref daily');
    expect(daily.quotes.find((q) => q.currency === 'USD')).toMatchObject({ rate_date: '2026-04-13', units_per_base: 1.1684, base: 'EUR' });
    // the same figures as the history's row of that day
    for (const q of daily.quotes) expect(q.units_per_base).toBe(ecbFigure('2026-04-13', q.currency));
  });

  it('reads the Fed H.10 file as units per USD, monthly averages said so, Venezuela left out', () => {
    expect(fed.layout).toBe('Fed H.10');
    const twd = fed.quotes.find((q) => q.currency === 'TWD' && q.rate_date === '2023-03-01')!;
    expect(twd).toMatchObject({
      base: 'USD',
      units_per_base: 30.5352,
      source: 'fed_h10_fx_monthly.csv Fed H.10 monthly average 2023-03-01: 30.5352 TWD per USD',
    });
    expect(fed.quotes.some((q) => q.currency === 'VES' || q.source.includes('Venezuela'))).toBe(false);
    // the five series the Fed itself quotes in USD are units per USD in this file, as the ECB's
    // March 2023 average shows for the euro: 1 / average(USD per EUR) = 0.9341, the file 0.9336
    const eur = fed.quotes.find((q) => q.currency === 'EUR' && q.rate_date === '2023-03-01')!;
    const march = ecb.quotes.filter((q) => q.currency === 'USD' && q.rate_date.startsWith('2023-03-'));
    const avgUsdPerEur = march.reduce((s, q) => s + q.units_per_base, 0) / march.length;
    expect(Math.abs(eur.units_per_base - 1 / avgUsdPerEur) / eur.units_per_base).toBeLessThan(0.001);
  });

  it('reads a rates csv whose lines end in both CRLF and LF exactly like the file as written', () => {
    // the cross rates with some lines re-saved on Windows
    const lines = read('fx/ecb-usd-cross-rates-2023-03-31.csv').split(/\r?\n/).filter(Boolean);
    const mixed = lines.map((l, i) => l + (i % 2 ? '\n' : '\r\n')).join('');
    const asWritten = parseFxSource(`${lines.join('\n')}\n`, 'cross.csv');
    const parsed = parseFxSource(mixed, 'cross.csv');
    expect(parsed.quotes).toHaveLength(lines.length - 1);
    expect(parsed.quotes).toEqual(asWritten.quotes);
  });

  it('reads the rates csv in either direction, and says why another file is none of the layouts', () => {
    const perUsd = parseFxSource(read('fx/ecb-usd-cross-rates-2023-03-31.csv'), 'cross.csv');
    expect(perUsd.layout).toBe('rates csv');
    expect(perUsd.quotes.find((q) => q.currency === 'SEK')).toMatchObject({ base: 'USD', units_per_base: 10.37287356 });
    const inverse = parseFxSource('rate_date,currency,USD_per_unit,source\n2023-03-31,GBP,1.2333,WM/Reuters 4pm\n', 'wm.csv');
    expect(inverse.quotes[0]).toMatchObject({ base: 'GBP', currency: 'USD', units_per_base: 1.2333, figure: '1.2333 USD per GBP' });
    expect(detectFxSourceLayout('Currency;Rate Date;Rate\nCHF;28/02/2026;0,8')).toMatchObject({
      error: expect.stringContaining('closest is the rates csv, missing rate_date, currency, units_per_XXX or XXX_per_unit'),
    });
    expect(() => parseFxSource('rate_date,currency,units_per_eur\n2026-02-30,CHF,0.93\n', 'bad.csv')).toThrow('bad.csv line 2: bad date "2026-02-30"');
    expect(() => parseFxSource('rate_date,currency,units_per_eur\n2026-02-27,CHF,-1\n', 'bad.csv')).toThrow('bad.csv line 2: bad rate "-1"');
  });
});

describe('rates for a fund base currency', () => {
  const resolver = new FxResolver([...ecb.quotes, ...fed.quotes]);

  it('crosses ECB rates through EUR for a USD fund, both legs of the same day', () => {
    const sek = resolver.resolve('USD', 'SEK', '2023-03-31')!;
    expect(sek.units_per_base).toBe(ecbFigure('2023-03-31', 'SEK') / ecbFigure('2023-03-31', 'USD'));
    expect(sek).toMatchObject({
      rate_date: '2023-03-31',
      how: 'cross via EUR',
      source: 'eurofxref-hist_2020-onwards.csv ECB 2023-03-31: 11.2805 SEK per EUR / 1.0875 USD per EUR',
    });
    // the euro itself is the inverse of the ECB's USD figure
    expect(resolver.resolve('USD', 'EUR', '2023-03-31')).toMatchObject({ units_per_base: 1 / 1.0875, how: 'inverse' });
    // a EUR fund takes the ECB figure as quoted
    expect(resolver.resolve('EUR', 'SEK', '2023-03-31')).toMatchObject({ units_per_base: 11.2805, how: 'quoted' });
  });

  it('takes the latest date on or before the period end: a Saturday period end gets the Friday rate', () => {
    expect(resolver.resolve('USD', 'GBP', '2026-02-28')?.rate_date).toBe('2026-02-27');
    // the shipped history starts in 2020
    expect(new FxResolver(ecb.quotes).resolve('USD', 'GBP', '2019-12-31')).toBeNull();
  });

  it('finds a currency the ECB does not publish in the Fed file, crossed through USD for a EUR fund', () => {
    const twd = resolver.resolve('EUR', 'TWD', '2023-03-31')!;
    const fedTwd = fed.quotes.find((q) => q.currency === 'TWD' && q.rate_date === '2023-03-01')!.units_per_base;
    const fedEur = fed.quotes.find((q) => q.currency === 'EUR' && q.rate_date === '2023-03-01')!.units_per_base;
    expect(twd).toMatchObject({ rate_date: '2023-03-01', how: 'cross via USD' });
    expect(twd.units_per_base).toBe(fedTwd / fedEur);
    // and no rate at all for a currency neither publishes
    expect(resolver.resolve('USD', 'AED', '2026-02-27')).toBeNull();
  });

  it('prefers the first file for the same pair and day (an uploaded file before the shipped history)', () => {
    const uploaded = parseFxSource('rate_date,currency,units_per_usd,source\n2023-03-31,SEK,10.3649,WM/Reuters 4pm London\n', 'wm.csv').quotes;
    const r = new FxResolver([...uploaded, ...ecb.quotes]).resolve('USD', 'SEK', '2023-03-31')!;
    expect(r).toMatchObject({ units_per_base: 10.3649, how: 'quoted', source: 'wm.csv WM/Reuters 4pm London' });
  });
});

describe('the age of a rate in business days (Mon-Fri)', () => {
  it('counts from the last business day on or before the period end', () => {
    expect(lastBusinessDay('2026-02-28')).toBe('2026-02-27');
    expect(businessDaysBefore('2026-02-27', '2026-02-28')).toBe(0);
    expect(businessDaysBefore('2026-02-27', '2026-03-02')).toBe(1);
    const age = rateAge('2026-02-18', '2026-02-28', 5);
    expect(age).toMatchObject({ days: 10, businessDays: 7, tooOld: true });
    expect(describeAge('2026-02-18', '2026-02-28', age)).toBe('dated 2026-02-18, 10 days before the period end 2026-02-28 (7 business days; limit 5)');
    expect(rateAge('2023-03-24', '2023-03-31', 5)).toMatchObject({ businessDays: 5, tooOld: false });
    expect(rateAge('2023-03-23', '2023-03-31', 5)).toMatchObject({ businessDays: 6, tooOld: true });
    expect(rateAge('2023-04-03', '2023-03-31', 5)).toMatchObject({ afterPeriodEnd: true, tooOld: true });
    // the shipped 2023 rates against a 2026 period end
    expect(rateAge('2023-03-31', '2026-02-28', 5)).toMatchObject({ days: 1065, tooOld: true });
  });
});

describe('rates as text', () => {
  it('prints rates without float noise, delivered rates as delivered', () => {
    expect(fmtRate(11.2805 / 1.0875)).toBe('10.3728735632');
    expect(fmtRate(132.19281304)).toBe('132.19281304');
    expect(fmtRate(1 / 1.0875)).toBe('0.919540229885');
    expect(fmtRate(0.1 + 0.2)).toBe('0.3');
    expect(cleanRate(0.1 + 0.2)).toBe(0.3);
  });
});
