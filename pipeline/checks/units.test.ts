import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { STANDARD_ACCOUNTS } from '../sdm/model.js';
import type { HoldingRow } from '../sdm/rows.js';
import { priceFactor, round, sum } from './common.js';
import { loadFxCsv, parseFxCsv, rateFor } from './fx.js';
import { checkCusip, checkFigi, checkIsin, cusipCheckDigit, isinCheckDigit, isValidCusip, isValidIsin } from './identifiers.js';
import { materiality, navFromTrialBalance } from './materiality.js';
import { FIXTURES } from '../testing/check-data.js';

describe('fx', () => {
  const gs = loadFxCsv(join(FIXTURES, 'fx/ecb-usd-cross-rates-2023-03-31.csv'));
  const dupree = loadFxCsv(join(FIXTURES, 'fx/ecb-usd-cross-rates-2022-12-30.csv'));

  it('loads the ECB-derived fixture as units per USD', () => {
    expect(gs.find((r) => r.currency === 'SEK')).toMatchObject({
      rate_date: '2023-03-31',
      units_per_base: 10.37287356,
      source: expect.stringContaining('ECB'),
    });
    expect(gs.find((r) => r.currency === 'USD')?.units_per_base).toBe(1);
    expect(gs.some((r) => r.currency === 'TWD')).toBe(false);
  });

  it('rateFor picks the latest rate on or before the date', () => {
    const both = [...gs, ...dupree];
    expect(rateFor(both, 'EUR', '2022-12-31')?.rate_date).toBe('2022-12-30');
    expect(rateFor(both, 'eur', '2023-04-15')?.rate_date).toBe('2023-03-31');
    expect(rateFor(both, 'EUR', '2023-03-30')?.rate_date).toBe('2022-12-30');
    expect(rateFor(both, 'EUR', '2022-12-29')).toBeUndefined();
    expect(rateFor(both, 'TWD', '2023-03-31')).toBeUndefined();
  });

  it('rebases to another fund currency and rejects bad rows', () => {
    const eur = parseFxCsv('currency,rate_date,units_per_usd,source\nEUR,2023-03-31,0.5,x\nSEK,2023-03-31,10,x\nXYZ,2023-03-31,N/A,x\n', 'EUR');
    expect(eur.map((r) => [r.currency, r.units_per_base])).toEqual([
      ['EUR', 1],
      ['SEK', 20],
    ]);
    expect(() => parseFxCsv('currency,rate_date,units_per_usd\nSEK,31/03/2023,10\n')).toThrow(/line 2: bad date/);
    expect(() => parseFxCsv('currency,rate_date,units_per_usd\nSEK,2023-03-31,-1\n')).toThrow(/line 2: bad rate/);
    expect(() => parseFxCsv('currency,date,rate\nSEK,2023-03-31,1\n')).toThrow(/column "rate_date" missing/);
  });
});

describe('materiality', () => {
  it('amount = pct / 100 x NAV, rounded to the cent', () => {
    expect(materiality({ nav: 361898455.93, pm: 1, te: 0.75, sad: 0.05 })).toEqual({ pm: 3618984.56, te: 2714238.42, sad: 180949.23 });
    expect(materiality({ nav: 41349926.01, pm: 1, te: 0.75, sad: 0.05 })).toEqual({ pm: 413499.26, te: 310124.45, sad: 20674.96 });
  });

  it('takes NAV from the TB when not given', () => {
    const tb = [
      { balance_base: 100, standard_account: 'CASH' },
      { balance_base: -30, standard_account: 'PAYABLES' },
      { balance_base: -70, standard_account: 'CAPITAL' },
      { balance_base: 5, standard_account: null },
    ].map((r, i) => ({
      ...r,
      fund_code: 'F',
      as_of: '2023-03-31',
      account_code: String(i),
      account_name: null,
      currency: null,
      balance_local: null,
      file: 'tb.csv',
      line: i + 2,
    }));
    expect(navFromTrialBalance(tb, STANDARD_ACCOUNTS)).toBe(70);
    expect(materiality({ trialBalance: tb, accountClasses: STANDARD_ACCOUNTS, pm: 10, te: 5, sad: 1 })).toEqual({ pm: 7, te: 3.5, sad: 0.7 });
  });

  it('rejects percentages outside 0-100 and a missing NAV', () => {
    expect(() => materiality({ nav: 1, pm: 101, te: 1, sad: 1 })).toThrow(RangeError);
    expect(() => materiality({ nav: 1, pm: 1, te: Number.NaN, sad: 1 })).toThrow(/TE/);
    expect(() => materiality({ pm: 1, te: 1, sad: 1 })).toThrow(/NAV/);
  });
});

describe('identifiers', () => {
  it('ISIN check digits (ISO 6166)', () => {
    for (const id of ['US0378331005', 'GB0002634946', 'AU0000XVGZA3', 'US3138W7WP51', 'XS2103218538']) expect(isValidIsin(id), id).toBe(true);
    expect(isinCheckDigit('US037833100')).toBe(5);
    expect(checkIsin('US0378331006')).toEqual({ ok: false, reason: 'ISIN check digit 6 should be 5' });
    expect(checkIsin('US03783310')).toMatchObject({ ok: false });
  });

  it('CUSIP check digits (double-add-double)', () => {
    for (const id of ['037833100', '38259P508', '594918104', '3138W7WP5']) expect(isValidCusip(id), id).toBe(true);
    expect(cusipCheckDigit('38259P50')).toBe(8);
    expect(checkCusip('037833101')).toEqual({ ok: false, reason: 'CUSIP check digit 1 should be 0' });
  });

  it('FIGI check digits', () => {
    expect(checkFigi('BBG000BLNNH6')).toEqual({ ok: true });
    expect(checkFigi('BBG019PMT1H1')).toEqual({ ok: true });
    expect(checkFigi('BBG019PMT1H2').ok).toBe(false);
  });
});

describe('common', () => {
  it('sums money without drift and rounds half away from zero', () => {
    expect(sum(Array.from({ length: 100000 }, () => 0.1))).toBe(10000);
    expect(round(1.005)).toBe(1.01);
    expect(round(-1.005)).toBe(-1.01);
    expect(Object.is(round(-0.001), 0)).toBe(true);
  });

  it('detects prices per 100 of nominal vs per unit', () => {
    const h = {
      quantity: 15000,
      price: 114.867,
      market_value_local: 17230.05,
      market_value_base: 17230.05,
      fx_rate: 1,
      standard_instrument: 'DEBT',
    } as HoldingRow;
    expect(priceFactor(h)).toBe(100);
    expect(priceFactor({ ...h, quantity: -1560000, price: 0.0225244, market_value_local: -35138.06 })).toBe(1);
    expect(priceFactor({ ...h, market_value_local: null, fx_rate: null })).toBe(100);
  });
});
