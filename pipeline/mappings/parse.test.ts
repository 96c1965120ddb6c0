import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { MAPPING_TYPES } from '../sdm/model.js';
import { loadMappingDir } from './load-dir.js';
import { buildCodeMap, buildLayouts, mappingTypeFromFileName, parseMappingCsv } from './parse.js';

const TPAS = new URL('../../fixtures/tpas/', import.meta.url);
const tpaCodes = readdirSync(TPAS);
const csv = (text: string) => Buffer.from(text);

describe('parseMappingCsv on the fixture TPAs', () => {
  it.each(tpaCodes.flatMap((tpa) => MAPPING_TYPES.map((type) => [tpa, type] as const)))('%s %s.csv is valid', (tpa, type) => {
    const bytes = readFileSync(new URL(`${tpa}/mappings/${type}.csv`, TPAS));
    const r = parseMappingCsv(type, `${type}.csv`, bytes);
    expect(r.errors).toEqual([]);
    expect(r).toMatchObject({ valid: true, totalErrorsFound: 0, maxErrorsNo: 20 });
    expect(r.rows.length).toBeGreaterThan(3);
  });

  it('compiles the Meridian layouts and maps', () => {
    const set = loadMappingDir(fileURLToPath(new URL('meridian_fund_services/mappings/', TPAS)));
    expect(set.layouts.map((l) => l.sdmType)).toEqual(['trial_balance', 'holdings', 'prices', 'share_capital']);
    const holdings = set.layouts.find((l) => l.sdmType === 'holdings')!;
    expect(holdings.columns.find((c) => c.sdmColumn === 'market_value_base')).toEqual({
      source: 'Market Value USD',
      sdmColumn: 'market_value_base',
      dateFormat: null,
      decimalSeparator: ',',
      thousandsSeparator: '.',
    });
    expect(holdings.columns.find((c) => c.sdmColumn === 'as_of')).toMatchObject({
      source: 'Valuation Date',
      dateFormat: 'DD/MM/YYYY',
      decimalSeparator: '.',
      thousandsSeparator: '',
    });
    expect(set.codeMaps.instrument_mapping!.get('dfe')).toEqual({ target: 'DERIVATIVE', description: 'Derivative - foreign exchange' });
    expect(set.codeMaps.account_mapping!.get('11000')?.target).toBe('INVESTMENTS_AT_VALUE');
  });
});

describe('parseMappingCsv errors', () => {
  it('reports an unknown target, a duplicate source and an empty value, each with its line', () => {
    const text = 'source_code,target_code,description\nDBT,DEBT,Debt\n\nDFE,NOT_A_TARGET,Forex\nDBT,DEBT,Again\nEC,,Equity\n';
    const r = parseMappingCsv('instrument_mapping', 'instrument_mapping.csv', csv(text));
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual([
      "Line 4: target_code 'NOT_A_TARGET' is not a valid instrument_mapping target (allowed: EQUITY, DEBT, FUND, DERIVATIVE, CASH_EQUIVALENT, REPO, LOAN, OTHER)",
      "Line 5: source_code 'DBT' is a duplicate of line 2",
      'Line 6: target_code is empty',
    ]);
    expect(r.totalErrorsFound).toBe(3);
    expect(r.maxErrorsNo).toBe(20);
    // an invalid file gives no rows to save
    expect(r.rows).toEqual([]);
  });

  it('returns at most maxErrors errors but counts them all', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `C${i},NOPE`);
    const r = parseMappingCsv('account_mapping', 'a.csv', csv(`source_code,target_code\n${lines.join('\n')}`), { maxErrors: 5 });
    expect(r.errors).toHaveLength(5);
    expect(r.errors[4]).toMatch(/^Line 6: target_code 'NOPE'/);
    expect(r).toMatchObject({ valid: false, totalErrorsFound: 30, maxErrorsNo: 5 });
    const d = parseMappingCsv('account_mapping', 'a.csv', csv(`source_code,target_code\n${lines.join('\n')}`));
    expect([d.errors.length, d.totalErrorsFound, d.maxErrorsNo]).toEqual([20, 30, 20]);
  });

  it('treats duplicates case-insensitively, normalises target case and header spelling, reads ; and Windows-1252', () => {
    const text = 'Source Code;Target Code;Description\r\nSubscriptions;subscription;Souscriptions réglées\r\nsubscriptions;SUBSCRIPTION;\r\n';
    const r = parseMappingCsv('share_capital_mapping', 's.csv', iconv.encode(text, 'windows-1252'));
    expect(r.errors).toEqual(["Line 3: source_code 'subscriptions' is a duplicate of line 2"]);
    const valid = parseMappingCsv('share_capital_mapping', 's.csv', iconv.encode(text.split('\r\n').slice(0, 2).join('\r\n'), 'windows-1252'));
    expect(valid.rows).toEqual([{ source_code: 'Subscriptions', target_code: 'SUBSCRIPTION', description: 'Souscriptions réglées' }]);
  });

  it('refuses a file with more than maxRows data rows before checking its rows, and takes one with exactly that many', () => {
    const body = (n: number) => csv(`source_code,target_code\n${Array.from({ length: n }, (_, i) => `C${i},NOPE`).join('\n')}\n`);
    const over = parseMappingCsv('account_mapping', 'a.csv', body(11), { maxRows: 10 });
    expect(over).toMatchObject({
      valid: false,
      rows: [],
      errors: ['a.csv has more than 10 rows, the most a mapping file may have (setting maxUploadRows)'],
      totalErrorsFound: 1,
    });
    // exactly at the limit the rows are checked (here every target is wrong)
    expect(parseMappingCsv('account_mapping', 'a.csv', body(10), { maxRows: 10 }).totalErrorsFound).toBe(10);
  });

  it('rejects missing columns, empty files and rows wider than the header', () => {
    expect(parseMappingCsv('account_mapping', 'a.csv', csv('code,target\nA,CASH\n')).errors).toEqual([
      'Line 1: missing columns source_code, target_code (expected columns: source_code,target_code[,description])',
    ]);
    expect(parseMappingCsv('account_mapping', 'a.csv', csv('\n\n')).errors[0]).toMatch(/^Line 1: a\.csv is empty/);
    expect(parseMappingCsv('account_mapping', 'a.csv', csv('source_code,target_code,description\n1900,OTHER_ASSETS,Cash, receivables\n')).errors).toEqual([
      'Line 2: 4 fields where the header has 3 (quote values that contain the delimiter)',
    ]);
    expect(parseMappingCsv('account_mapping', 'a.csv', csv('source_code,target_code\n"A,1\n')).errors[0]).toMatch(
      /^a\.csv is not a readable csv: Quote Not Closed/,
    );
  });

  it('validates file layouts: types, columns, formats, separators and required coverage', () => {
    const head = 'sdm_type,source_column,sdm_column,date_format,decimal_separator,thousands_separator';
    const rows = [
      'prices,Id,security_id,,,',
      'prices,Date,price_date,DD-MM-YY,,',
      'prices,Px,price,,;,',
      'prices,Px2,price,,,',
      'prices,Src,price_source,,",",","',
      'prices,,price_type,,,',
      'prices,Ccy,currency,,,',
      'holding,X,security_id,,,',
      'prices,Amt,price_currency,,.,_',
    ];
    const r = parseMappingCsv('file_layout', 'file_layout.csv', csv(`${head}\n${rows.join('\n')}\n`));
    expect(r.errors).toEqual([
      "Line 3: date_format 'DD-MM-YY' is not one of DD/MM/YYYY, MM/DD/YYYY, YYYY-MM-DD, DD.MM.YYYY, YYYYMMDD",
      "Line 4: decimal_separator ';' must be '.' or ','",
      'Line 5: prices column price is already mapped on line 4',
      "Line 6: thousands_separator and decimal_separator are both ','",
      'Line 7: source_column is empty',
      "Line 8: sdm_column 'currency' is not a prices column (security_id, price_date, price, price_currency, price_source, price_type)",
      "Line 9: sdm_type 'holding' is not an SDM type (trial_balance, holdings, transactions, share_capital, prices)",
      "Line 10: thousands_separator '_' must be empty, ',', '.', ' ' (space) or \"'\"",
    ]);
    const missing = parseMappingCsv('file_layout', 'f.csv', csv(`${head}\nprices,Id,security_id,,,\nprices,Px,price,,,\n`));
    expect(missing.errors).toEqual([
      'Line 2: the prices layout (from this line) maps no source column to the required SDM column price_date',
      'Line 2: the prices layout (from this line) maps no source column to the required SDM column price_source',
    ]);
    expect(parseMappingCsv('file_layout', 'f.csv', csv('sdm_type,source_column,sdm_column\n')).errors[0]).toMatch(
      /^Line 1: missing columns date_format, decimal_separator, thousands_separator/,
    );
  });
});

describe('buildLayouts and buildCodeMap', () => {
  it('defaults date formats and separators, keeps a space thousands separator, skips unknown rows', () => {
    const layouts = buildLayouts([
      { sdm_type: 'prices', source_column: ' Date ', sdm_column: 'price_date', date_format: '', decimal_separator: '', thousands_separator: '' },
      { sdm_type: 'prices', source_column: 'Px', sdm_column: 'price', date_format: '', decimal_separator: ',', thousands_separator: ' ' },
      { sdm_type: 'prices', source_column: 'Px2', sdm_column: 'price', date_format: '', decimal_separator: ',', thousands_separator: 'space' },
      { sdm_type: 'nope', source_column: 'X', sdm_column: 'price', date_format: '', decimal_separator: '', thousands_separator: '' },
      { sdm_type: 'prices', source_column: 'Y', sdm_column: 'nope', date_format: '', decimal_separator: '', thousands_separator: '' },
    ]);
    expect(layouts).toEqual([
      {
        sdmType: 'prices',
        columns: [
          { source: 'Date', sdmColumn: 'price_date', dateFormat: 'YYYY-MM-DD', decimalSeparator: '.', thousandsSeparator: '' },
          { source: 'Px', sdmColumn: 'price', dateFormat: null, decimalSeparator: ',', thousandsSeparator: ' ' },
          { source: 'Px2', sdmColumn: 'price', dateFormat: null, decimalSeparator: ',', thousandsSeparator: ' ' },
        ],
      },
    ]);
  });

  it('keys code maps by trimmed lower-case source code, first row wins', () => {
    const map = buildCodeMap([
      { source_code: ' Shares Sold ', target_code: 'SUBSCRIPTION', description: '' },
      { source_code: 'SHARES SOLD', target_code: 'REDEMPTION', description: 'dup' },
      { source_code: '', target_code: 'CASH' },
    ]);
    expect([...map]).toEqual([['shares sold', { target: 'SUBSCRIPTION', description: null }]]);
  });

  it.each([
    ['account_mapping.csv', 'account_mapping'],
    ['uploads/File_Layout.CSV', 'file_layout'],
    ['C:\\maps\\share_capital_mapping.csv', 'share_capital_mapping'],
    ['account_mapping.xlsx', null],
    ['meridian_account_mapping.csv', null],
    ['accounts.csv', null],
  ])('mappingTypeFromFileName(%s) = %s', (name, type) => {
    expect(mappingTypeFromFileName(name)).toBe(type);
  });
});
