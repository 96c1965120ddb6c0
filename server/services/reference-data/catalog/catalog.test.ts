import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCountriesModule } from './generate-countries.js';
import { buildCurrencies, currencyCsvPath, renderCurrenciesModule } from './generate-currencies.js';
import { CATALOG_SOURCES, CURRENCY_MINOR_UNITS, isKnownCode, lookup, STATIC_LIST_NAMES, STATIC_LISTS, type StaticListName } from './index.js';

const ALL_LISTS: StaticListName[] = [
  'accountingStandards',
  'countries',
  'regions',
  'currencies',
  'structures',
  'auditTypes',
  'roles',
  'jobType',
  'soiRecType',
  'fundSubType',
  'priceType',
  'priceSource',
  'aggregateType',
  'fihiType',
  'hasInvestmentAnalyzer',
  'hasConnectedAudit',
];

/** Codes each list must hold (non-deprecated unless listed under DEPRECATED). */
const REQUIRED: Record<StaticListName, string[]> = {
  accountingStandards: [
    'IFRS',
    'US_GAAP',
    'UK_GAAP_FRS102',
    'IRISH_GAAP_FRS102',
    'LUX_GAAP',
    'JP_GAAP',
    'CA_ASPE',
    'AU_AAS',
    'CH_SWISS_GAAP_FER',
    'DE_HGB',
    'FR_PCG',
  ],
  countries: ['US', 'GB', 'LU', 'IE', 'JP', 'DE', 'FR', 'CH', 'KY', 'AX'],
  regions: ['EMEA', 'AMER', 'APAC'],
  currencies: ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'XAU'],
  structures: ['MUTUAL_FUND', 'SICAV', 'FCP', 'OEIC', 'UNIT_TRUST', 'ICAV', 'LP', 'LLC', 'ETF', 'CLOSED_END', 'SIF', 'RAIF', 'UCITS_OTHER'],
  auditTypes: ['STATUTORY', 'REGULATORY', 'INTERIM', 'LIQUIDATION', 'AGREED_UPON_PROCEDURES', 'SPECIAL_PURPOSE'],
  roles: ['Auditor', 'Manager', 'SeniorManager', 'Partner', 'TPAContact', 'ClientContact', 'DeliveryTeam'],
  jobType: ['FULL_AUDIT', 'SOI_ONLY', 'NAV_REVIEW', 'LIQUIDATION'],
  soiRecType: ['FULL_REC', 'SAMPLE_REC', 'NONE'],
  fundSubType: ['BOND', 'MUNICIPAL_BOND', 'EQUITY', 'MONEY_MARKET', 'MULTI_ASSET', 'FUND_OF_FUNDS', 'REAL_ESTATE', 'PRIVATE_EQUITY', 'HEDGE', 'INFRASTRUCTURE'],
  priceType: ['EVALUATED', 'BID', 'ASK', 'MID', 'LAST', 'CLOSE', 'NAV'],
  priceSource: ['ICE', 'BLOOMBERG', 'REFINITIV', 'MARKIT', 'ECB', 'FED_H10', 'TPA'],
  aggregateType: ['NONE', 'AGGREGATION', 'CONSOLIDATION'],
  fihiType: ['NONE', 'STANDARD', 'ENHANCED'],
  hasInvestmentAnalyzer: ['Y', 'N'],
  hasConnectedAudit: ['Y', 'N'],
};

const DEPRECATED: Partial<Record<StaticListName, string[]>> = {
  accountingStandards: ['UK_GAAP_OLD'],
  currencies: ['DEM', 'FRF', 'ITL', 'LUF', 'IEP', 'HRK', 'VEF', 'ZWD'],
};

describe('reference-data catalogue: shape', () => {
  it('has exactly the static nrd lists, each with a source line', () => {
    expect([...STATIC_LIST_NAMES].sort()).toEqual([...ALL_LISTS].sort());
    expect(Object.keys(CATALOG_SOURCES).sort()).toEqual([...ALL_LISTS].sort());
    for (const name of ALL_LISTS) {
      expect(CATALOG_SOURCES[name].trim(), name).not.toBe('');
      expect(CATALOG_SOURCES[name], name).not.toContain('\n');
    }
  });

  it.each(ALL_LISTS)('%s: non-empty, unique (case-insensitive) codes, trimmed non-empty labels', (name) => {
    const list = STATIC_LISTS[name];
    expect(list.length).toBeGreaterThan(0);
    const codes = list.map((e) => e.code.toLowerCase());
    expect(new Set(codes).size).toBe(codes.length);
    for (const e of list) {
      expect(Object.keys(e).sort()).toEqual(['alt_code', 'code', 'deprecated']);
      expect(e.code).toMatch(/^\S(.*\S)?$/);
      expect(e.alt_code.trim(), `${name}/${e.code}`).toBe(e.alt_code);
      expect(e.alt_code, `${name}/${e.code}`).not.toBe('');
      expect(typeof e.deprecated).toBe('boolean');
    }
    expect(list.some((e) => !e.deprecated)).toBe(true);
  });

  it.each(ALL_LISTS)('%s: holds the required codes', (name) => {
    for (const code of REQUIRED[name]) expect(isKnownCode(name, code), `${name}/${code}`).toBe(true);
    for (const code of DEPRECATED[name] ?? []) {
      expect(lookup(name, code)?.deprecated, `${name}/${code}`).toBe(true);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(STATIC_LISTS)).toBe(true);
    expect(Object.isFrozen(STATIC_LISTS.countries)).toBe(true);
    expect(Object.isFrozen(STATIC_LISTS.countries[0])).toBe(true);
    expect(STATIC_LISTS.hasConnectedAudit).not.toBe(STATIC_LISTS.hasInvestmentAnalyzer);
  });
});

describe('reference-data catalogue: content', () => {
  it('has the 249 ISO 3166-1 countries with English names, none deprecated', () => {
    const countries = STATIC_LISTS.countries;
    expect(countries).toHaveLength(249);
    expect(countries.every((e) => /^[A-Z]{2}$/.test(e.code) && !e.deprecated)).toBe(true);
    expect(lookup('countries', 'US')?.alt_code).toMatch(/^United States/);
    expect(lookup('countries', 'GB')?.alt_code).toBe('United Kingdom');
    expect(lookup('countries', 'LU')?.alt_code).toBe('Luxembourg');
    expect(lookup('countries', 'XK')).toBeUndefined();
  });

  it('has one entry per ISO 4217 code, withdrawn ones deprecated', () => {
    const currencies = STATIC_LISTS.currencies;
    expect(currencies.every((e) => /^[A-Z]{3}$/.test(e.code))).toBe(true);
    expect(currencies.filter((e) => !e.deprecated).length).toBeGreaterThanOrEqual(150);
    expect(lookup('currencies', 'USD')).toEqual({ code: 'USD', alt_code: 'US Dollar', deprecated: false });
    expect(lookup('currencies', 'EUR')?.alt_code).toBe('Euro');
    expect(lookup('currencies', 'DEM')).toEqual({ code: 'DEM', alt_code: 'Deutsche Mark', deprecated: true });
  });

  it('has minor units for active currencies only', () => {
    expect(CURRENCY_MINOR_UNITS.USD).toBe(2);
    expect(CURRENCY_MINOR_UNITS.EUR).toBe(2);
    expect(CURRENCY_MINOR_UNITS.JPY).toBe(0);
    expect(CURRENCY_MINOR_UNITS.BHD).toBe(3);
    expect(CURRENCY_MINOR_UNITS.CLF).toBe(4);
    expect(CURRENCY_MINOR_UNITS.DEM).toBeUndefined();
    expect(CURRENCY_MINOR_UNITS.XAU).toBeUndefined();
    for (const [code, units] of Object.entries(CURRENCY_MINOR_UNITS)) {
      expect(isKnownCode('currencies', code), code).toBe(true);
      expect(Number.isInteger(units) && units >= 0 && units <= 4, code).toBe(true);
    }
  });

  it('labels the spec examples as agreed', () => {
    expect(lookup('roles', 'Auditor')).toEqual({ code: 'Auditor', alt_code: 'Auditor', deprecated: false });
    expect(lookup('regions', 'EMEA')?.alt_code).toBe('EMEIA');
    expect(lookup('accountingStandards', 'UK_GAAP_FRS102')?.alt_code).toBe('UK GAAP (FRS 102)');
    expect(lookup('priceSource', 'FED_H10')?.alt_code).toBe('Federal Reserve H.10');
    expect(lookup('hasConnectedAudit', 'Y')?.alt_code).toBe('Yes');
  });
});

describe('lookup and isKnownCode', () => {
  it('is case-insensitive and ignores surrounding spaces', () => {
    expect(lookup('currencies', 'usd')?.code).toBe('USD');
    expect(lookup('countries', ' lu ')?.code).toBe('LU');
    expect(lookup('roles', 'AUDITOR')?.code).toBe('Auditor');
    expect(isKnownCode('structures', 'mutual_fund')).toBe(true);
  });

  it('returns undefined / false for unknown codes and lists', () => {
    expect(lookup('currencies', 'ZZZ')).toBeUndefined();
    expect(lookup('currencies', '')).toBeUndefined();
    expect(isKnownCode('countries', 'ZZ')).toBe(false);
    expect(lookup('administrators' as StaticListName, 'X')).toBeUndefined();
    expect(isKnownCode('users' as StaticListName, '1')).toBe(false);
  });

  it('accepts deprecated codes only when allowed', () => {
    expect(isKnownCode('currencies', 'DEM')).toBe(false);
    expect(isKnownCode('currencies', 'dem', { allowDeprecated: true })).toBe(true);
    expect(isKnownCode('accountingStandards', 'UK_GAAP_OLD')).toBe(false);
    expect(isKnownCode('accountingStandards', 'UK_GAAP_OLD', { allowDeprecated: true })).toBe(true);
  });
});

describe('generated data files are up to date', () => {
  const here = import.meta.dirname ?? resolve(new URL('.', import.meta.url).pathname);

  it('countries.data.ts matches generate-countries.ts', () => {
    expect(readFileSync(resolve(here, 'countries.data.ts'), 'utf8')).toBe(renderCountriesModule());
  });

  const csv = currencyCsvPath();
  it.skipIf(!existsSync(csv))('currencies.data.ts matches the shared ISO 4217 csv', () => {
    const committed = readFileSync(resolve(here, 'currencies.data.ts'), 'utf8');
    const regenerated = renderCurrenciesModule(readFileSync(csv, 'utf8'));
    const body = (text: string) => text.slice(text.indexOf('import type'));
    expect(body(committed)).toBe(body(regenerated));
  });

  it('de-duplicates codes listed once per country and keeps withdrawn ones', () => {
    const csvText = [
      'Entity,Currency,AlphabeticCode,NumericCode,MinorUnit,WithdrawalDate',
      'GERMANY,Euro,EUR,978,2,',
      'FRANCE,Euro,EUR,978,2,',
      'GERMANY,Deutsche Mark,DEM,276,,2002-03',
      'ZIMBABWE,Zimbabwe Dollar (old),ZWD,716,,2006-08',
      'ZIMBABWE,Zimbabwe Dollar,ZWD,716,,2008-08',
      'ANTARCTICA,No universal currency,,,,',
      'ZZ07_Gold,Gold,XAU,959,-,',
    ].join('\n');
    const { entries, minorUnits } = buildCurrencies(csvText);
    expect(entries.map((e) => [e.code, e.alt_code, e.deprecated])).toEqual([
      ['DEM', 'Deutsche Mark', true],
      ['EUR', 'Euro', false],
      ['XAU', 'Gold', false],
      ['ZWD', 'Zimbabwe Dollar', true],
    ]);
    expect(minorUnits).toEqual({ EUR: 2 });
  });
});
