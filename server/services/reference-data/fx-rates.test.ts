/**
 * The independent FX rates of a data directory: the shipped ECB history seeded once (and the files
 * earlier versions seeded removed when unchanged), files uploaded in the layouts the product reads
 * (ECB history or daily, Fed H.10, the rates csv) taking precedence over it, and the rates a fund
 * in any base currency is given at its period end.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { fixturesDir } from '../../paths.js';
import { rateFor } from '../../../pipeline/checks/fx.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { listAuditLog } from '../audit/audit-log.js';
import { fxDir, fxRatesOverview, importFxFile, importFxPath, independentRatesAt, listFxRates, loadFxRates, removeFxFile, seedFxRates } from './fx-rates.js';

const SHIPPED = 'eurofxref-hist_2020-onwards.csv';
const sources = (f: string) => join(fixturesDir(), 'fx-sources', f);

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

describe('the shipped ECB history', () => {
  it('is seeded once, with its dates, and replaces the cross rates earlier versions seeded', async () => {
    mkdirSync(fxDir(ctx), { recursive: true });
    // what an earlier version seeded: one file unchanged, one a user edited
    copyFileSync(join(fixturesDir(), 'fx', 'ecb-usd-cross-rates-2022-12-30.csv'), join(fxDir(ctx), 'ecb-usd-cross-rates-2022-12-30.csv'));
    writeFileSync(join(fxDir(ctx), 'ecb-usd-cross-rates-2023-03-31.csv'), 'currency,rate_date,units_per_usd,source\nSEK,2023-03-31,10.4,edited\n');
    seedFxRates(ctx);
    const files = listFxRates(ctx);
    expect(files.map((f) => [f.file, f.format, f.shipped])).toEqual([
      ['ecb-usd-cross-rates-2023-03-31.csv', 'rates csv', false],
      [SHIPPED, 'ECB eurofxref-hist', true],
    ]);
    expect(files[1]).toMatchObject({ firstDate: '2020-01-02', lastDate: '2026-04-13', dates: 1608 });
    expect(fxRatesOverview(ctx).shipped).toEqual({ file: SHIPPED, firstDate: '2020-01-02', lastDate: '2026-04-13' });
    await expect(removeFxFile(ctx, SHIPPED, null)).rejects.toThrow(/shipped with Fund Audit: it cannot be removed/);
  });

  it('gives a fund in any currency the rate of each currency at its period end, crossed through EUR', () => {
    seedFxRates(ctx);
    const ecb = readFileSync(join(fixturesDir(), 'reference', 'fx', SHIPPED), 'utf8').split('\n');
    const header = ecb[0].split(',');
    const row = ecb.find((l) => l.startsWith('2026-02-27,'))!.split(',');
    const perEur = (c: string) => Number(row[header.indexOf(c)]);
    // a Saturday period end: the Friday's figures
    const gbpFund = independentRatesAt(ctx, 'GBP', '2026-02-28');
    expect(rateFor(gbpFund, 'CHF', '2026-02-28')).toMatchObject({
      rate_date: '2026-02-27',
      units_per_base: perEur('CHF') / perEur('GBP'),
      source: `${SHIPPED} ECB 2026-02-27: ${row[header.indexOf('CHF')]} CHF per EUR / ${row[header.indexOf('GBP')]} GBP per EUR`,
    });
    expect(rateFor(gbpFund, 'EUR', '2026-02-28')?.units_per_base).toBe(1 / perEur('GBP'));
    expect(gbpFund.some((r) => r.currency === 'TWD')).toBe(false);
    // the history per USD for fund aggregation: one rate per currency and date
    const usd = loadFxRates(ctx, 'USD');
    expect(rateFor(usd, 'SEK', '2023-03-31')?.units_per_base).toBe(11.2805 / 1.0875);
  });
});

describe('uploaded files of independent rates', () => {
  it('loads the Fed H.10 file and the ECB daily file, which then come before the shipped history, and records who did', async () => {
    seedFxRates(ctx);
    const actor = { id: ctx.boot.admin.id, email: ctx.boot.admin.email };
    const fed = await importFxPath(ctx, sources('fed_h10_fx_monthly.csv'), actor);
    expect(fed).toMatchObject({ file: 'fed_h10_fx_monthly.csv', format: 'Fed H.10', shipped: false, firstDate: '1971-01-01', lastDate: '2026-06-01' });
    expect(fed.currencies).toEqual(expect.arrayContaining(['TWD', 'USD', 'EUR', 'LKR']));
    const daily = await importFxPath(ctx, sources('eurofxref_daily_2026-04-13.csv'), actor);
    expect(daily).toMatchObject({ format: 'ECB eurofxref daily', firstDate: '2026-04-13', lastDate: '2026-04-13', dates: 1 });
    expect(listFxRates(ctx).map((f) => f.file)).toEqual(['eurofxref_daily_2026-04-13.csv', 'fed_h10_fx_monthly.csv', SHIPPED]);
    // TWD, which the ECB does not publish, now has a rate: the Fed's monthly average, dated as the file dates it
    expect(rateFor(independentRatesAt(ctx, 'USD', '2023-03-31'), 'TWD', '2023-03-31')).toMatchObject({
      rate_date: '2023-03-01',
      units_per_base: 30.5352,
      source: 'fed_h10_fx_monthly.csv Fed H.10 monthly average 2023-03-01: 30.5352 TWD per USD',
    });
    expect(await removeFxFile(ctx, 'fed_h10_fx_monthly.csv', actor)).toEqual({ file: 'fed_h10_fx_monthly.csv', removed: true });
    expect(rateFor(independentRatesAt(ctx, 'USD', '2023-03-31'), 'TWD', '2023-03-31')).toBeUndefined();
    const log = (await listAuditLog(ctx, { limit: 10 })).filter((e) => e.action.startsWith('fx-rates'));
    expect(log.map((e) => [e.action, e.subject, e.actorEmail]).reverse()).toEqual([
      ['fx-rates-loaded', 'fx-rates:fed_h10_fx_monthly.csv', actor.email],
      ['fx-rates-loaded', 'fx-rates:eurofxref_daily_2026-04-13.csv', actor.email],
      ['fx-rates-removed', 'fx-rates:fed_h10_fx_monthly.csv', actor.email],
    ]);
  });

  it('takes an uploaded rate before the shipped one for the same pair and day', () => {
    seedFxRates(ctx);
    const bytes = new TextEncoder().encode('rate_date,currency,units_per_usd,source\n2023-03-31,SEK,10.36489313,WM/Reuters 4pm London\n');
    importFxFile(ctx, { fileName: 'wm-2023-03-31.csv', bytes });
    expect(rateFor(independentRatesAt(ctx, 'USD', '2023-03-31'), 'SEK', '2023-03-31')).toMatchObject({
      units_per_base: 10.36489313,
      source: 'wm-2023-03-31.csv WM/Reuters 4pm London',
    });
  });

  it('refuses a file in no known layout, a bad row or a bad name, naming the line, and keeps what was loaded', async () => {
    seedFxRates(ctx);
    const load = (fileName: string, text: string) => () => importFxFile(ctx, { fileName, bytes: new TextEncoder().encode(text) });
    expect(load('fx.csv', 'Currency;Rate Date;Rate\nCHF;27/02/2026;0,9\n')).toThrow(
      /fx\.csv: not a file of independent rates the product reads.*closest is the rates csv, missing rate_date, currency/,
    );
    expect(load('eurofxref-hist.csv', 'Date,USD,SEK,\n2024-01-31,1.0837,11.2125,\n31.01.2024,1.0837,11.2125,\n')).toThrow(
      'eurofxref-hist.csv line 3: bad date "31.01.2024" (YYYY-MM-DD expected)',
    );
    expect(load('eurofxref-hist.csv', 'Date,USD,SEK,\n2024-01-31,1.0837,-1,\n')).toThrow('eurofxref-hist.csv line 2: bad SEK rate "-1"');
    expect(load('../rates.txt', 'rate_date,currency,units_per_usd\n')).toThrow(/the file name must end in \.csv/);
    await expect(importFxPath(ctx, join(ctx.dir, 'none.csv'), null)).rejects.toThrow(/No such file/);
    expect(listFxRates(ctx).map((f) => f.file)).toEqual([SHIPPED]);
  });
});

describe('the age limit and the default tolerance', () => {
  it('are FUND_AUDIT_FX_MAX_AGE_BUSINESS_DAYS (default 5) and FUND_AUDIT_FX_TOLERANCE_PCT (default 0.5)', () => {
    expect(loadConfig({ dataDir: ctx.dir, env: {} })).toMatchObject({ fxMaxAgeBusinessDays: 5, fxTolerancePct: 0.5 });
    expect(loadConfig({ dataDir: ctx.dir, env: { FUND_AUDIT_FX_MAX_AGE_BUSINESS_DAYS: '2', FUND_AUDIT_FX_TOLERANCE_PCT: '0.25' } })).toMatchObject({
      fxMaxAgeBusinessDays: 2,
      fxTolerancePct: 0.25,
    });
    expect(() => loadConfig({ dataDir: ctx.dir, env: { FUND_AUDIT_FX_MAX_AGE_BUSINESS_DAYS: 'a week' } })).toThrow(/FUND_AUDIT_FX_MAX_AGE_BUSINESS_DAYS/);
  });
});
