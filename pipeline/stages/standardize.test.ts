import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadMappingDir, type MappingSet } from '../mappings/load-dir.js';
import { buildCodeMap, type Layout } from '../mappings/parse.js';
import { IDENTIFICATION_LIMIT_BYTES, readTables, type RawRow, type RawTable } from '../readers/table.js';
import type { HoldingRow, ShareCapitalRow, TrialBalanceRow } from '../sdm/rows.js';
import { identifyTable, splitByFund } from './identify.js';
import { createStandardizer, standardizeTable } from './standardize.js';

const TPAS = new URL('../../fixtures/tpas/', import.meta.url);
const MERIDIAN = new URL('meridian_fund_services/', TPAS);
const sets = new Map<string, MappingSet>();
const mappingsOf = (tpa: string) => {
  if (!sets.has(tpa)) sets.set(tpa, loadMappingDir(fileURLToPath(new URL(`${tpa}/mappings/`, TPAS))));
  return sets.get(tpa)!;
};
const readFile = (url: URL) => readTables(url.pathname.split('/').pop()!, readFileSync(url), { limitBytes: IDENTIFICATION_LIMIT_BYTES });
const cents = (values: number[]) => values.reduce((s, v) => s + Math.round(v * 100), 0);

/** Reads, identifies and standardizes a fixture file with its TPA's own mappings. */
async function pipeline(tpa: string, url: URL) {
  const m = mappingsOf(tpa);
  return (await readFile(url)).map((table) => {
    const idf = identifyTable(table, m.layouts);
    expect(idf.columnMatchPercent).toBe(100);
    return { table, idf, out: standardizeTable({ table, layout: idf.layout!, sdmType: idf.sdmType!, codeMaps: m.codeMaps }) };
  });
}

interface Expected {
  funds: Array<{
    holdings_market_value_base: number;
    net_assets: number;
    prices_rows: number | null;
    share_capital: { subscriptions: number; closing_shares: number };
  }>;
  input_files: Array<{ file: string; sdm_type?: string; data_rows?: number; sheets?: Array<{ sdm_type: string; data_rows: number }> }>;
}

describe('standardizeTable on every fixture input', () => {
  const cases = readdirSync(TPAS).flatMap((tpa) => {
    const expected = JSON.parse(readFileSync(new URL(`${tpa}/expected.json`, TPAS), 'utf8')) as Expected;
    return expected.input_files.map((f) => [tpa, f.file, f, expected.funds[0]] as const);
  });

  it.each(cases)('%s %s: zero errors, zero QA_Mapping, every row, the expected totals', async (tpa, file, spec, fund) => {
    const sheets = spec.sheets ?? [{ sdm_type: spec.sdm_type!, data_rows: spec.data_rows! }];
    const results = await pipeline(tpa, new URL(`${tpa}/${file}`, TPAS));
    expect(results.map((r) => r.idf.sdmType)).toEqual(sheets.map((s) => s.sdm_type));
    results.forEach(({ table, out }, i) => {
      expect(out.errors).toEqual([]);
      expect(out.qaMapping).toEqual([]);
      expect(out.validationStatus).toBe('Valid');
      expect(out.rows).toHaveLength(sheets[i].data_rows);
      expect(out.rows.map((r) => r.line)).toEqual(table.rows.map((r) => r.line));
      expect(out.rows.every((r) => r.file === table.file)).toBe(true);
      if (sheets[i].sdm_type === 'trial_balance') {
        const tb = out.rows as TrialBalanceRow[];
        expect(cents(tb.map((r) => r.balance_base))).toBe(0);
        expect(tb.every((r) => r.standard_account !== null)).toBe(true);
        expect(-cents(tb.filter((r) => r.standard_account === 'CAPITAL').map((r) => r.balance_base))).toBe(Math.round(fund.net_assets * 100));
      }
      if (sheets[i].sdm_type === 'holdings') {
        const h = out.rows as HoldingRow[];
        expect(cents(h.map((r) => r.market_value_base))).toBe(Math.round(fund.holdings_market_value_base * 100));
        expect(h.every((r) => r.standard_instrument !== null && typeof r.quantity === 'number' && /^\d{4}-\d{2}-\d{2}$/.test(r.as_of))).toBe(true);
      }
      if (sheets[i].sdm_type === 'share_capital') {
        const sc = out.rows as ShareCapitalRow[];
        const sum = (t: string) => cents(sc.filter((r) => r.standard_activity === t).map((r) => r.amount_base ?? 0));
        expect(sum('SUBSCRIPTION')).toBe(Math.round(fund.share_capital.subscriptions * 100));
        expect(cents(sc.filter((r) => r.standard_activity === 'CLOSING').map((r) => r.shares))).toBe(Math.round(fund.share_capital.closing_shares * 100));
      }
      if (sheets[i].sdm_type === 'prices') expect(out.rows).toHaveLength(fund.prices_rows!);
    });
  });

  it('gives the GS holdings as typed rows: decimal comma, thousands dots, negatives, DD/MM/YYYY', async () => {
    const [{ out }] = await pipeline('meridian_fund_services', new URL('inputs/MFS_HOLDINGS_S000013795_20230331.csv', MERIDIAN));
    expect(out.rows).toHaveLength(1685);
    expect(out.rows[2]).toEqual({
      file: 'MFS_HOLDINGS_S000013795_20230331.csv',
      line: 7,
      fund_code: 'S000013795',
      as_of: '2023-03-31',
      security_id: '23CSKBB736N',
      id_type: 'INTERNAL',
      security_name: 'PURCHASED USD / SOLD SEK',
      instrument_type: 'DFE',
      standard_instrument: 'DERIVATIVE',
      quantity: 1,
      price: -6109.28,
      price_currency: 'SEK',
      fx_rate: 10.36489313,
      market_value_local: -6109.28,
      market_value_base: -589.42,
      cost_base: null,
      accrued_income_base: null,
      country: 'US',
    });
    expect((out.rows as HoldingRow[]).filter((r) => r.market_value_base < 0)).toHaveLength(419);
  });

  it('standardizes the GS holdings in well under 100 ms', async () => {
    const [table] = await readFile(new URL('inputs/MFS_HOLDINGS_S000013795_20230331.csv', MERIDIAN));
    const m = mappingsOf('meridian_fund_services');
    const idf = identifyTable(table, m.layouts);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const out = standardizeTable({ table, layout: idf.layout!, sdmType: 'holdings', codeMaps: m.codeMaps });
      times.push(performance.now() - t0);
      expect(out.rows).toHaveLength(1685);
    }
    times.sort((a, b) => a - b);
    expect(times[3]).toBeLessThan(100);
  });

  it('gives the same rows from an xlsx table after a JSON round trip (how the identification job stores parts)', async () => {
    for (const { table, idf, out } of await pipeline('keystone_admin', new URL('keystone_admin/inputs/KEYSTONE_5493006TF05454RBY690_20221231.xlsx', TPAS))) {
      const stored = JSON.parse(
        JSON.stringify({
          file: table.file,
          sheetName: table.sheetName,
          header: table.header,
          headerLine: table.headerLine,
          rows: splitByFund(table, idf)[0].rows,
        }),
      ) as RawTable;
      const again = standardizeTable({ table: stored, layout: idf.layout!, sdmType: idf.sdmType!, codeMaps: mappingsOf('keystone_admin').codeMaps });
      expect(again).toEqual(out);
    }
  });
});

describe('standardizeTable on broken Meridian files', () => {
  it('an unknown instrument type gives one QA_Mapping entry naming the code and its lines; the file is Invalid', async () => {
    const [{ out }] = await pipeline('meridian_fund_services', new URL('broken/MFS_HOLDINGS_unknown_instrument.csv', MERIDIAN));
    expect(out.qaMapping).toEqual([
      {
        name: 'BANK LOAN',
        column: 'Asset Class',
        file: 'MFS_HOLDINGS_unknown_instrument.csv',
        error: "'BANK LOAN' is not in the instrument_mapping of this TPA",
        lines: [7],
      },
    ]);
    expect(out.errors).toEqual([]);
    expect(out.validationStatus).toBe('Invalid');
    expect(out.rows).toHaveLength(6);
    expect((out.rows as HoldingRow[]).find((r) => r.line === 7)?.standard_instrument).toBeNull();
  });

  it('unparseable numbers give row errors with the file line and the source column; the file is Invalid', async () => {
    const [{ out }] = await pipeline('meridian_fund_services', new URL('broken/MFS_HOLDINGS_bad_numbers.csv', MERIDIAN));
    expect(out.errors).toEqual([
      { file: 'MFS_HOLDINGS_bad_numbers.csv', line: 6, column: 'Nominal', error: "Unparseable number 'n/a' in required column quantity" },
      { file: 'MFS_HOLDINGS_bad_numbers.csv', line: 9, column: 'Market Value USD', error: "Unparseable number '#VALUE!' in required column market_value_base" },
    ]);
    expect(out.qaMapping).toEqual([]);
    expect(out.validationStatus).toBe('Invalid');
    expect(out.rows.map((r) => r.line)).toEqual([5, 7, 8, 10]);
  });

  it("an unknown fund standardizes cleanly (the fund match is identification's business)", async () => {
    const [{ out }] = await pipeline('meridian_fund_services', new URL('broken/MFS_HOLDINGS_unknown_fund.csv', MERIDIAN));
    expect([out.validationStatus, out.rows.length, (out.rows[0] as HoldingRow).fund_code]).toEqual(['Valid', 6, 'NOFUND0001']);
  });
});

const scLayout: Layout = {
  sdmType: 'share_capital',
  columns: [
    { source: 'Fund', sdmColumn: 'fund_code', dateFormat: null, decimalSeparator: '.', thousandsSeparator: '' },
    { source: 'Date', sdmColumn: 'as_of', dateFormat: 'MM/DD/YYYY', decimalSeparator: '.', thousandsSeparator: '' },
    { source: 'Class', sdmColumn: 'share_class', dateFormat: null, decimalSeparator: '.', thousandsSeparator: '' },
    { source: 'Activity', sdmColumn: 'activity_type', dateFormat: null, decimalSeparator: '.', thousandsSeparator: '' },
    { source: 'Units', sdmColumn: 'shares', dateFormat: null, decimalSeparator: '.', thousandsSeparator: ',' },
    { source: 'NAV', sdmColumn: 'nav_per_share', dateFormat: null, decimalSeparator: '.', thousandsSeparator: '' },
  ],
};
const scMap = buildCodeMap([
  { source_code: 'Sub', target_code: 'SUBSCRIPTION' },
  { source_code: 'Red', target_code: 'REDEMPTION' },
]);
const header = ['Fund', 'Date', 'Class', 'Activity', 'Units', 'NAV'];
const rows = (...cells: Array<Array<string | number | Date | null>>): RawRow[] => cells.map((c, i) => ({ line: 10 + i, cells: c }));
const run = (r: RawRow[], codeMaps = { share_capital_mapping: scMap }, h = header, layout = scLayout) =>
  standardizeTable({ table: { file: 'sc.csv', header: h, headerLine: 9, rows: r }, layout, sdmType: 'share_capital', codeMaps });

describe('standardizeTable rules', () => {
  it('maps codes case-insensitively, reports each unmapped code once with all its lines, parses layout formats', () => {
    const out = run(
      rows(
        ['F1', '03/31/2023', 'A', ' SUB ', '(1,234.5)', '1.00'],
        ['F1', '03/31/2023', 'A', 'Switch', '2', null],
        ['F1', new Date(Date.UTC(2023, 2, 31)), 'A', 'switch', 3, 1],
        ['F1', '03/31/2023', 'A', 'Other', '4', '1'],
      ),
    );
    expect(
      out.rows.map((r) => [
        (r as ShareCapitalRow).activity_type,
        (r as ShareCapitalRow).standard_activity,
        (r as ShareCapitalRow).shares,
        (r as ShareCapitalRow).as_of,
      ]),
    ).toEqual([
      ['SUB', 'SUBSCRIPTION', -1234.5, '2023-03-31'],
      ['Switch', null, 2, '2023-03-31'],
      ['switch', null, 3, '2023-03-31'],
      ['Other', null, 4, '2023-03-31'],
    ]);
    expect(out.qaMapping).toEqual([
      { name: 'Switch', column: 'Activity', file: 'sc.csv', error: "'Switch' is not in the share_capital_mapping of this TPA", lines: [11, 12] },
      { name: 'Other', column: 'Activity', file: 'sc.csv', error: "'Other' is not in the share_capital_mapping of this TPA", lines: [13] },
    ]);
    expect(out.validationStatus).toBe('Invalid');
  });

  it('reports missing required values and bad dates (row left out) and bad optional values (row kept, value null)', () => {
    const out = run(
      rows(
        ['F1', '31/03/2023', 'A', 'Sub', '1', '1'],
        [null, '03/31/2023', 'A', 'Sub', '1', '1'],
        ['F1', '03/31/2023', 'A', 'Sub', '  ', 'abc'],
        ['F1', '03/31/2023', 'A', 'Sub', '5', 'abc'],
      ),
    );
    expect(out.errors).toEqual([
      { file: 'sc.csv', line: 10, column: 'Date', error: "Unparseable date '31/03/2023' in required column as_of (expected MM/DD/YYYY)" },
      { file: 'sc.csv', line: 11, column: 'Fund', error: 'Missing value in required column fund_code' },
      { file: 'sc.csv', line: 12, column: 'Units', error: 'Missing value in required column shares' },
      { file: 'sc.csv', line: 12, column: 'NAV', error: "Unparseable number 'abc' in column nav_per_share" },
      { file: 'sc.csv', line: 13, column: 'NAV', error: "Unparseable number 'abc' in column nav_per_share" },
    ]);
    expect(out.rows).toEqual([
      {
        file: 'sc.csv',
        line: 13,
        fund_code: 'F1',
        as_of: '2023-03-31',
        share_class: 'A',
        activity_type: 'Sub',
        standard_activity: 'SUBSCRIPTION',
        shares: 5,
        amount_base: null,
        nav_per_share: null,
      },
    ]);
    expect(out.validationStatus).toBe('Invalid');
  });

  it('without the mapping type every code is unmapped', () => {
    const out = run(rows(['F1', '03/31/2023', 'A', 'Sub', '1', '1']), {} as { share_capital_mapping: typeof scMap });
    expect(out.qaMapping.map((q) => q.name)).toEqual(['Sub']);
  });

  it('a required column missing from the header or the layout is one error at the header line, no rows', () => {
    const noUnits = run(rows(['F1', '03/31/2023', 'A', 'Sub', '1']), undefined, ['Fund', 'Date', 'Class', 'Activity', 'Shares']);
    expect(noUnits.errors).toEqual([{ file: 'sc.csv', line: 9, column: 'Units', error: "Required column Units (shares) is not in the file's header" }]);
    expect([noUnits.rows.length, noUnits.validationStatus]).toEqual([0, 'Invalid']);
    const layout = { ...scLayout, columns: scLayout.columns.filter((c) => c.sdmColumn !== 'share_class') };
    const noClass = run(rows(['F1', '03/31/2023', 'A', 'Sub', '1']), undefined, header, layout);
    expect(noClass.errors).toEqual([
      { file: 'sc.csv', line: 9, column: 'share_class', error: 'The share_capital layout maps no column to the required SDM column share_class' },
    ]);
  });

  it('takes rows from any iterable (a fund part, a generator) and row by row', () => {
    function* gen() {
      yield* rows(['F1', '03/31/2023', 'A', 'Sub', '1', '1'], ['F2', '03/31/2023', 'A', 'Red', '2', '1']);
    }
    const table = { file: 'sc.csv', header, headerLine: 9, rows: [] };
    const out = standardizeTable({ table, rows: gen(), layout: scLayout, sdmType: 'share_capital', codeMaps: { share_capital_mapping: scMap } });
    expect(out.rows.map((r) => (r as ShareCapitalRow).fund_code)).toEqual(['F1', 'F2']);
    const std = createStandardizer({
      file: 'sc.csv',
      header,
      headerLine: 9,
      layout: scLayout,
      sdmType: 'share_capital',
      codeMaps: { share_capital_mapping: scMap },
    });
    expect(std.add({ line: 20, cells: ['F1', '03/31/2023', 'A', 'Red', '7', '1'] })).toMatchObject({ line: 20, standard_activity: 'REDEMPTION', shares: 7 });
    expect(std.add({ line: 21, cells: ['F1', 'bad', 'A', 'Red', '7', '1'] })).toBeNull();
    expect(std.finish()).toMatchObject({ validationStatus: 'Invalid', qaMapping: [], errors: [{ line: 21, column: 'Date' }] });
    expect(() => createStandardizer({ file: 'x', header, headerLine: 1, layout: scLayout, sdmType: 'fund_request', codeMaps: {} })).toThrow(/fund_request/);
  });
});

describe('standardizeTable on an FX table and on holdings in local currency', () => {
  const col = (source: string, sdmColumn: string, decimalSeparator: '.' | ',' = '.') => ({
    source,
    sdmColumn,
    dateFormat: null,
    decimalSeparator,
    thousandsSeparator: '' as const,
  });
  const fxLayout = (rateColumn: 'units_per_base' | 'base_per_unit'): Layout => ({
    sdmType: 'fx_rates',
    columns: [col('Date', 'rate_date'), col('Ccy', 'currency'), col('Rate', rateColumn, ',')],
  });
  const fx = (layout: Layout, cells: Array<Array<string | null>>) =>
    standardizeTable({
      table: { file: 'fx.csv', header: ['Date', 'Ccy', 'Rate'], headerLine: 1, rows: rows(...cells) },
      layout,
      sdmType: 'fx_rates',
      codeMaps: {},
    });

  it('inverts a table quoted as base per unit, upper-cases codes and refuses a rate that is not positive', () => {
    const out = fx(fxLayout('base_per_unit'), [
      ['2026-02-27', 'gbp', '1,25'],
      ['2026-02-27', 'CHF', '0'],
      ['2026-02-27', 'SEK', null],
    ]);
    expect(out.rows).toEqual([
      {
        file: 'fx.csv',
        line: 10,
        fund_code: null,
        rate_date: '2026-02-27',
        currency: 'GBP',
        base_currency: null,
        units_per_base: 0.8,
        base_per_unit: 1.25,
        rate_source: null,
      },
    ]);
    expect(out.errors).toEqual([
      { file: 'fx.csv', line: 11, column: 'Rate', error: 'Rate 0 in column base_per_unit is not a positive number' },
      // the column the rate is derived from is required in its place
      { file: 'fx.csv', line: 12, column: 'Rate', error: 'Missing value in required column base_per_unit' },
    ]);
  });

  it('takes a table quoted as units per base as it is', () => {
    expect(fx(fxLayout('units_per_base'), [['2026-02-27', 'GBP', '0,8']]).rows[0]).toMatchObject({ units_per_base: 0.8, base_per_unit: null });
  });

  it('leaves the base value of a holding in local currency to the conversion, and requires its local value', () => {
    const layout: Layout = {
      sdmType: 'holdings',
      columns: [
        col('Fund', 'fund_code'),
        col('Date', 'as_of'),
        col('Id', 'security_id'),
        col('Name', 'security_name'),
        col('Type', 'instrument_type'),
        col('Qty', 'quantity'),
        col('Px', 'price'),
        col('Ccy', 'price_currency'),
        col('MV Local', 'market_value_local'),
      ],
    };
    const out = standardizeTable({
      table: {
        file: 'h.csv',
        header: ['Fund', 'Date', 'Id', 'Name', 'Type', 'Qty', 'Px', 'Ccy', 'MV Local'],
        headerLine: 1,
        rows: rows(['F1', '2026-02-28', 'X1', 'Bond', 'B', '10', '99', 'CHF', '990'], ['F1', '2026-02-28', 'X2', 'Bond', 'B', '10', '99', 'CHF', null]),
      },
      layout,
      sdmType: 'holdings',
      codeMaps: { instrument_mapping: buildCodeMap([{ source_code: 'B', target_code: 'DEBT' }]) },
    });
    expect(out.rows.map((r) => [(r as HoldingRow).market_value_local, (r as HoldingRow).market_value_base])).toEqual([[990, null]]);
    expect(out.errors).toEqual([{ file: 'h.csv', line: 11, column: 'MV Local', error: 'Missing value in required column market_value_local' }]);
  });
});
