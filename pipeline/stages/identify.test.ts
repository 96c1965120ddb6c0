import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadMappingDir } from '../mappings/load-dir.js';
import type { Layout } from '../mappings/parse.js';
import { IDENTIFICATION_LIMIT_BYTES, readTables, type RawTable } from '../readers/table.js';
import { identifyTable, normalizeColumnName, splitByFund, unidentifiedError } from './identify.js';

const TPAS = new URL('../../fixtures/tpas/', import.meta.url);
const MERIDIAN = new URL('meridian_fund_services/', TPAS);
const meridian = loadMappingDir(fileURLToPath(new URL('mappings/', MERIDIAN)));
const readFile = (url: URL) => readTables(url.pathname.split('/').pop()!, readFileSync(url), { limitBytes: IDENTIFICATION_LIMIT_BYTES });

interface Expected {
  funds: Array<{ fund_code_in_files: string; period_end: string }>;
  input_files: Array<{ file: string; sdm_type?: string; data_rows?: number; sheets?: Array<{ sheet: string; sdm_type: string; data_rows: number }> }>;
}

describe('identifyTable on every fixture input', () => {
  const cases = readdirSync(TPAS).flatMap((tpa) => {
    const expected = JSON.parse(readFileSync(new URL(`${tpa}/expected.json`, TPAS), 'utf8')) as Expected;
    return expected.input_files.map((f) => [tpa, f.file, f, expected.funds[0]] as const);
  });

  it.each(cases)('%s %s', async (tpa, file, spec, fund) => {
    const { layouts } = loadMappingDir(fileURLToPath(new URL(`${tpa}/mappings/`, TPAS)));
    const tables = await readFile(new URL(`${tpa}/${file}`, TPAS));
    const sheets = spec.sheets ?? [{ sheet: null, sdm_type: spec.sdm_type!, data_rows: spec.data_rows! }];
    expect(tables.map((t) => t.sheetName)).toEqual(sheets.map((s) => s.sheet));
    tables.forEach((table, i) => {
      const idf = identifyTable(table, layouts);
      expect(idf).toMatchObject({ sdmType: sheets[i].sdm_type, columnMatchPercent: 100, columnsMissing: [], error_code: null });
      expect(Object.keys(idf.layoutColumns).length).toBe(idf.layout!.columns.length);
      const parts = splitByFund(table, idf);
      const code = sheets[i].sdm_type === 'prices' ? '' : fund.fund_code_in_files;
      expect(parts.map((p) => [p.fundCode, p.asOf, p.rows.length])).toEqual([[code, fund.period_end, sheets[i].data_rows]]);
    });
  });
});

describe('identifyTable on broken Meridian files', () => {
  it('an unknown layout is unidentified, with the closest layout and its missing required columns', async () => {
    const [table] = await readFile(new URL('broken/MFS_HOLDINGS_wrong_layout.csv', MERIDIAN));
    const idf = identifyTable(table, meridian.layouts);
    expect(idf).toMatchObject({
      sdmType: null,
      layout: null,
      closestMatch: 'holdings',
      columnMatchPercent: 75,
      columnsMissing: ['Sec ID', 'Price'],
      error_code: 'UNIDENTIFIED',
      error_message: 'No file layout of the TPA matches: closest is holdings (75%), missing Sec ID, Price',
    });
    expect(unidentifiedError(table, idf)).toEqual({
      sheet_name: 'MFS_HOLDINGS_wrong_layout.csv',
      error_code: 'UNIDENTIFIED',
      error_message: 'No file layout of the TPA matches: closest is holdings (75%), missing Sec ID, Price',
      columns_missing: ['Sec ID', 'Price'],
      closest_match: 'holdings',
      column_match_percent: 75,
    });
    expect(() => splitByFund(table, idf)).toThrow(/identified/);
  });

  it('an unknown fund is still identified; the split names its fund code', async () => {
    const [table] = await readFile(new URL('broken/MFS_HOLDINGS_unknown_fund.csv', MERIDIAN));
    const idf = identifyTable(table, meridian.layouts);
    expect([idf.sdmType, idf.columnMatchPercent]).toEqual(['holdings', 100]);
    expect(splitByFund(table, idf)).toEqual([{ fundCode: 'NOFUND0001', asOf: '2023-03-31', rows: table.rows }]);
  });
});

const layout = (sdmType: Layout['sdmType'], pairs: Array<[string, string, string?]>): Layout => ({
  sdmType,
  columns: pairs.map(([source, sdmColumn, dateFormat]) => ({
    source,
    sdmColumn,
    dateFormat: dateFormat ?? null,
    decimalSeparator: '.',
    thousandsSeparator: '',
  })),
});
const tbLayout = layout('trial_balance', [
  ['Fund', 'fund_code'],
  ['Date', 'as_of', 'DD/MM/YYYY'],
  ['Account', 'account_code'],
  ['Name', 'account_name'],
  ['Balance', 'balance_base'],
]);
const table = (header: string[], rows: Array<Array<string | null>>): RawTable => ({
  file: 't.csv',
  sheetName: null,
  encoding: 'utf-8',
  delimiter: ',',
  headerLine: 1,
  header,
  rows: rows.map((cells, i) => ({ line: i + 2, cells })),
});

describe('identifyTable rules', () => {
  it('compares names ignoring case, spaces and punctuation', () => {
    expect(normalizeColumnName(' Market Value (Base) ')).toBe('marketvaluebase');
    expect(normalizeColumnName('Shares/Par')).toBe('sharespar');
    const idf = identifyTable(table(['FUND', ' date ', 'account.', 'BALANCE'], []), [tbLayout]);
    expect([idf.sdmType, idf.columnMatchPercent]).toEqual(['trial_balance', 100]);
    expect(idf.layoutColumns).toEqual({ fund_code: 0, as_of: 1, account_code: 2, balance_base: 3 });
  });

  it('counts only required columns in the percentage; optional ones missing do not matter', () => {
    const idf = identifyTable(table(['Fund', 'Date', 'Account'], []), [tbLayout]);
    expect(idf).toMatchObject({ sdmType: null, columnMatchPercent: 75, columnsMissing: ['Balance'], closestMatch: 'trial_balance' });
    expect(identifyTable(table(['Fund', 'Account', 'Balance', 'Date', 'Extra'], []), [tbLayout]).columnMatchPercent).toBe(100);
    expect(identifyTable(table(['Fund'], []), [tbLayout]).columnMatchPercent).toBe(25);
    expect(
      identifyTable(table(['x', 'y', 'z'], []), [
        layout('trial_balance', [
          ['Fund', 'fund_code'],
          ['A', 'account_code'],
          ['B', 'balance_base'],
        ]),
      ]).columnMatchPercent,
    ).toBe(0);
    const third = layout('trial_balance', [
      ['Fund', 'fund_code'],
      ['Date', 'as_of'],
      ['A', 'account_code'],
      ['B', 'balance_base'],
      ['C', 'account_code'],
    ]);
    expect(identifyTable(table(['Fund'], []), [third]).columnMatchPercent).toBe(20);
  });

  it('prefers, among layouts at 100%, the one with more of its columns present, then fewer unexplained header columns', () => {
    const small = layout('prices', [
      ['Id', 'security_id'],
      ['Date', 'price_date'],
      ['Px', 'price'],
      ['Src', 'price_source'],
    ]);
    const big = layout('holdings', [
      ['Fund', 'fund_code'],
      ['Date', 'as_of'],
      ['Id', 'security_id'],
      ['Name', 'security_name'],
      ['Type', 'instrument_type'],
      ['Qty', 'quantity'],
      ['Px', 'price'],
      ['MV', 'market_value_base'],
      ['Src', 'country'],
    ]);
    const header = ['Fund', 'Date', 'Id', 'Name', 'Type', 'Qty', 'Px', 'MV', 'Src'];
    expect(identifyTable(table(header, []), [small, big]).sdmType).toBe('holdings');
    expect(identifyTable(table(['Id', 'Date', 'Px', 'Src'], []), [small, big]).sdmType).toBe('prices');
  });

  it('without layouts nothing is identified', () => {
    expect(identifyTable(table(['a'], []), [])).toMatchObject({
      sdmType: null,
      closestMatch: null,
      columnMatchPercent: 0,
      error_message: 'No file layout of the TPA matches: the TPA has no file layouts',
    });
    expect(unidentifiedError({ file: 'b.xlsx#Sheet1', sheetName: 'Sheet1' }, identifyTable(table(['a'], []), [])).sheet_name).toBe('Sheet1');
  });
});

describe('splitByFund', () => {
  it("splits by trimmed fund code in order of appearance, with each part's most common as-of date; empty codes form a reported part", () => {
    const t = table(
      ['Fund', 'Date', 'Account', 'Balance'],
      [
        ['F1', '31/03/2023', '1', '10'],
        [' F2 ', '31/12/2022', '1', '5'],
        ['F1', '31/03/2023', '2', '-10'],
        [null, '31/03/2023', '3', '1'],
        ['F2', '30/12/2022', '2', '-5'],
        ['F1', 'bad date', '3', '0'],
        ['  ', '31/03/2023', '4', '1'],
      ],
    );
    const parts = splitByFund(t, identifyTable(t, [tbLayout]));
    expect(parts.map((p) => [p.fundCode, p.asOf, p.rows.map((r) => r.line), p.note])).toEqual([
      ['F1', '2023-03-31', [2, 4, 7], undefined],
      ['F2', '2022-12-31', [3, 6], undefined],
      ['', '2023-03-31', [5, 8], '2 rows without a fund code, on lines 5, 8'],
    ]);
  });

  it("gives prices (no fund code column) one part with fund code '' and says why", async () => {
    const [prices] = await readFile(new URL('inputs/MFS_PRICES_S000013795_20230331.csv', MERIDIAN));
    const parts = splitByFund(prices, identifyTable(prices, meridian.layouts));
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ fundCode: '', asOf: '2023-03-31' });
    expect(parts[0].rows).toHaveLength(1677);
    expect(parts[0].note).toMatch(/no fund code column/);
  });

  it('has no as-of date for trade-dated tables and when no date parses', () => {
    const tx = layout('transactions', [
      ['Fund', 'fund_code'],
      ['Trade', 'trade_date'],
      ['Type', 'transaction_type'],
      ['Amount', 'amount_base'],
    ]);
    const t = table(['Fund', 'Trade', 'Type', 'Amount'], [['F1', '2023-01-02', 'BY', '1']]);
    expect(splitByFund(t, identifyTable(t, [tx]))).toEqual([{ fundCode: 'F1', asOf: null, rows: t.rows }]);
    const u = table(['Fund', 'Date', 'Account', 'Balance'], [['F1', 'x', '1', '1']]);
    expect(splitByFund(u, identifyTable(u, [tbLayout]))[0].asOf).toBeNull();
  });
});

describe('identifying an FX table', () => {
  const lakeside = fileURLToPath(new URL('../../fixtures/local-currency/lakeside_fund_services/', import.meta.url));
  const { layouts } = loadMappingDir(`${lakeside}mappings`);
  const fxTable = readFileSync(`${lakeside}inputs/LFS_FX_S000013795_20230331.csv`);

  it('identifies the TPA FX table as fx_rates, past its title lines, in Windows-1252 with decimal comma', async () => {
    const [table] = await readTables('LFS_FX_S000013795_20230331.csv', fxTable, { limitBytes: IDENTIFICATION_LIMIT_BYTES });
    expect(table.headerLine).toBe(3);
    expect(identifyTable(table, layouts)).toMatchObject({ sdmType: 'fx_rates', columnMatchPercent: 100 });
  });

  it('says which layout came closest and which columns it lacks when the rate column is renamed', async () => {
    const renamed = Buffer.from(fxTable.toString('latin1').replace('Units per Base', 'Rate'), 'latin1');
    const [table] = await readTables('fx.csv', renamed, { limitBytes: IDENTIFICATION_LIMIT_BYTES });
    const idf = identifyTable(table, layouts);
    expect(idf).toMatchObject({ sdmType: null, closestMatch: 'fx_rates', columnsMissing: ['Units per Base'], columnMatchPercent: 66.7 });
    expect(idf.error_message).toBe('No file layout of the TPA matches: closest is fx_rates (66.7%), missing Units per Base');
  });
});
