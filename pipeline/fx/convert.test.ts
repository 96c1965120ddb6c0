/**
 * Holdings delivered in local currency only, converted with the TPA's FX table, on the Lakeside
 * fixture (the Goldman Sachs Bond Fund N-PORT of 2023-03-31 in local currency, Windows-1252,
 * decimal comma): the files are identified and standardized through the TPA's own layouts, and
 * every base value is compared with one computed here from the delivered text alone (exact
 * decimal arithmetic on the cells, half away from zero to the cent). Then the FX table's
 * variants: a currency left out and a rate ten days old, each named once per currency.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../testing/check-data.js';
import { loadMappingDir } from '../mappings/load-dir.js';
import { IDENTIFICATION_LIMIT_BYTES, readTables } from '../readers/table.js';
import type { FxTableRow, HoldingRow } from '../sdm/rows.js';
import { identifyTable } from '../stages/identify.js';
import { standardizeTable } from '../stages/standardize.js';
import { createFxTableConverter, tableRatesAt } from './convert.js';

const DIR = join(FIXTURES, 'local-currency', 'lakeside_fund_services');
const FX_FILE = 'LFS_FX_S000013795_20230331.csv';
const VALUATION = 'LFS_VALUATION_S000013795_20230331.csv';
const mappings = loadMappingDir(join(DIR, 'mappings'));

async function standardized<T>(path: string, type: string): Promise<{ rows: T[]; errors: unknown[]; encoding?: string }> {
  const [table] = await readTables(path.split('/').pop()!, readFileSync(path), { limitBytes: IDENTIFICATION_LIMIT_BYTES });
  const idf = identifyTable(table, mappings.layouts);
  expect(idf.sdmType).toBe(type);
  const out = standardizeTable({ table, layout: idf.layout!, sdmType: idf.sdmType!, codeMaps: mappings.codeMaps });
  return { rows: out.rows as T[], errors: out.errors };
}

/** The delivered file as text records (title lines and header dropped), read here without the product's readers. */
function records(path: string): string[][] {
  const lines = iconv.decode(readFileSync(path), 'win1252').split('\r\n').filter(Boolean);
  return lines.slice(3).map((l) => l.split(';'));
}

/** A cell with decimal comma and space thousands as an exact (units, scale) pair. */
function exact(cell: string): { units: bigint; scale: number } {
  const [int, frac = ''] = cell.replace(/ /g, '').split(',');
  return { units: BigInt(int + frac), scale: frac.length };
}

/** local / rate to the cent, half away from zero, in integer arithmetic. */
function centsOf(local: string, rate: string): bigint {
  const l = exact(local);
  const r = exact(rate);
  // local / rate x 100 = l.units x 10^(r.scale + 2) / (r.units x 10^l.scale)
  const num = l.units * 10n ** BigInt(r.scale + 2);
  const den = r.units * 10n ** BigInt(l.scale);
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (a * 2n + den) / (2n * den);
  return neg ? -q : q;
}

const toCents = (x: number) => BigInt(Math.round(x * 100));

async function convertWith(fxPath: string) {
  const table = (await standardized<FxTableRow>(fxPath, 'fx_rates')).rows;
  const holdings = await standardized<HoldingRow>(join(DIR, 'inputs', VALUATION), 'holdings');
  const conv = createFxTableConverter({
    table,
    currency: 'USD',
    periodEnd: '2023-03-31',
    minorUnits: 2,
    maxAgeBusinessDays: 5,
    localColumn: 'Market Value (Local)',
  });
  const rows = holdings.rows.map((h) => conv.convert(h)).filter((h): h is HoldingRow => h !== null);
  return { table, holdings, rows, errors: conv.finish() };
}

describe('a delivery in local currency with an FX table', () => {
  it('reads the FX table as rates per USD with their date, source, file and line', async () => {
    const { rows, errors } = await standardized<FxTableRow>(join(DIR, 'inputs', FX_FILE), 'fx_rates');
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(23);
    expect(rows.find((r) => r.currency === 'KRW')).toMatchObject({
      rate_date: '2023-03-31',
      base_currency: 'USD',
      units_per_base: 1303.65,
      rate_source: 'N-PORT exchangeRt 2023-03-31',
      file: FX_FILE,
      line: 17,
    });
  });

  it('converts every position to USD as recomputed from the delivered cells, naming the table row it used', async () => {
    const { rows, errors, holdings } = await convertWith(join(DIR, 'inputs', FX_FILE));
    expect(holdings.errors).toEqual([]);
    expect(errors).toEqual([]);
    expect(rows).toHaveLength(1685);
    const rateCells = new Map(records(join(DIR, 'inputs', FX_FILE)).map((r) => [r[2], { rate: r[4], line: 0 }]));
    records(join(DIR, 'inputs', FX_FILE)).forEach((r, i) => (rateCells.get(r[2])!.line = i + 4));
    const delivered = records(join(DIR, 'inputs', VALUATION));
    expect(delivered).toHaveLength(1685);
    let total = 0n;
    delivered.forEach((cells, i) => {
      const [ccy, local] = [cells[8], cells[9]];
      const expected = ccy === 'USD' ? exact(local).units : centsOf(local, rateCells.get(ccy)!.rate);
      total += expected;
      const h = rows[i];
      expect(toCents(h.market_value_base), `line ${h.line} ${ccy} ${local}`).toBe(expected);
      if (ccy !== 'USD') expect(h).toMatchObject({ fx_rate_date: '2023-03-31', fx_rate_file: FX_FILE, fx_rate_line: rateCells.get(ccy)!.line });
      else expect(h.fx_rate_file ?? null).toBeNull();
    });
    const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
    expect(Number(total) / 100).toBe(expected.holdings_total_converted);
    // the converted values stay within 0.05% of the filing's own USD values (its per-position rates differ slightly)
    expect(Math.abs(Number(total) / 100 - expected.holdings_total_filed_valUSD) / expected.holdings_total_filed_valUSD).toBeLessThan(0.0005);
  });

  it('names a currency the table leaves out once, with its positions, and converts the others', async () => {
    const { rows, errors } = await convertWith(join(DIR, 'variants', 'LFS_FX_S000013795_20230331_no_CHF.csv'));
    const chf = records(join(DIR, 'inputs', VALUATION)).filter((c) => c[8] === 'CHF').length;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: VALUATION, column: 'Market Value (Local)' });
    expect(errors[0].error).toMatch(
      new RegExp(
        `^no CHF rate for 2023-03-31: the FX table has no CHF rate on or before the period end; ${chf} CHF positions not converted to USD \\(lines \\d+`,
      ),
    );
    expect(rows).toHaveLength(1685 - chf);
    expect(rows.some((h) => h.price_currency === 'CHF')).toBe(false);
  });

  it('never converts with a rate more than 5 business days old, saying its date and age', async () => {
    const { errors } = await convertWith(join(DIR, 'variants', 'LFS_FX_S000013795_20230331_stale_GBP.csv'));
    expect(errors.map((e) => e.error)).toEqual([
      expect.stringMatching(
        /^GBP rate dated 2023-03-21, 10 days before the period end 2023-03-31 \(8 business days; limit 5\): too old to convert with; \d+ GBP positions not converted to USD/,
      ),
    ]);
  });
});

describe('rates of an FX table at a period end', () => {
  const row = (currency: string, rate_date: string, units_per_base: number, line: number, base_currency: string | null = null): FxTableRow => ({
    fund_code: null,
    rate_date,
    currency,
    base_currency,
    units_per_base,
    base_per_unit: null,
    rate_source: 'WM/Reuters 4pm London',
    file: 'fx.csv',
    line,
  });

  it('takes the latest rate on or before the period end, and says when the table has only later ones', () => {
    const at = tableRatesAt(
      [row('CHF', '2026-02-26', 0.77, 2), row('CHF', '2026-02-27', 0.771, 3), row('CHF', '2026-03-02', 0.78, 4), row('SEK', '2026-03-02', 9, 5)],
      {
        currency: 'USD',
        periodEnd: '2026-02-28',
      },
    );
    expect(at('chf')).toEqual({
      rate: { currency: 'CHF', units_per_base: 0.771, rate_date: '2026-02-27', file: 'fx.csv', line: 3, source: 'WM/Reuters 4pm London' },
    });
    expect(at('SEK')).toEqual({ problem: "no SEK rate for 2026-02-28: the FX table's SEK rates are dated after the period end (from 2026-03-02)" });
    expect(at('GBP')).toEqual({ problem: 'no GBP rate for 2026-02-28: the FX table has no GBP rate on or before the period end' });
    expect(tableRatesAt([], { currency: 'USD', periodEnd: '2026-02-28' })('GBP')).toEqual({ problem: 'no GBP rate for 2026-02-28: no FX table was delivered' });
  });

  it('crosses a table quoted against another currency through that currency, on the same date', () => {
    // a EUR-quoted table for a USD fund: CHF per USD = (CHF per EUR) / (USD per EUR)
    const at = tableRatesAt([row('CHF', '2026-02-27', 0.9125, 7, 'EUR'), row('USD', '2026-02-27', 1.1812, 8, 'EUR')], {
      currency: 'USD',
      periodEnd: '2026-02-28',
    });
    const r = at('CHF');
    expect(r).toMatchObject({ rate: { units_per_base: 0.9125 / 1.1812, rate_date: '2026-02-27', line: 7 } });
    expect('rate' in r && r.rate.source).toBe('WM/Reuters 4pm London, cross via EUR: 0.9125 CHF per EUR / 1.1812 USD per EUR (line 8)');
  });

  it('rounds to the fund currency minor units and keeps a delivered base value', () => {
    const conv = createFxTableConverter({ table: [row('USD', '2026-02-27', 0.006667, 2)], currency: 'JPY', periodEnd: '2026-02-28', minorUnits: 0 });
    const h = { market_value_local: 1000, market_value_base: null, price_currency: 'USD', fx_rate: null, file: 'h.csv', line: 9 } as unknown as HoldingRow;
    // 1000 USD / (0.006667 USD per JPY) = 149,992.50037... -> 149,993 JPY (the yen has no minor unit)
    expect(conv.convert(h)?.market_value_base).toBe(149993);
    const given = { ...h, market_value_base: 12.34 } as HoldingRow;
    expect(conv.convert(given)).toEqual({ ...given, fx_rate_date: null, fx_rate_file: null, fx_rate_line: null, fx_rate_source: null });
  });
});
