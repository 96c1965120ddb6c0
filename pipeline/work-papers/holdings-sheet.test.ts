import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { FundSdmArrays } from '../sdm/rows.js';
import { loadCsvTpa, tpaDir } from '../testing/check-data.js';
import { HOLDINGS_COLUMNS } from './holdings-sheet.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { buildWorkPaper, type WorkPaperInput } from './workbook.js';
import { rowOf } from '../testing/sheets.js';

const GS = 'meridian_fund_services';
const HOLDINGS_FILE = 'MFS_HOLDINGS_S000013795_20230331.csv';
const mappings = [
  {
    type: 'instrument_mapping',
    id: 12,
    kind: 'master' as const,
    description: 'meridian_fund_services_instrument_mapping',
    version: 3,
    sha256: 'cd'.repeat(32),
  },
  { type: 'file_layout', id: 11, kind: 'master' as const, description: 'meridian_fund_services_file_layout', version: 1, sha256: 'ef'.repeat(32) },
];

async function workPaper(data: FundSdmArrays, fxFile: string): Promise<ExcelJS.Workbook> {
  const input: WorkPaperInput = { ...(await gsWorkPaperInput(data, { fxFile, generatedAt: new Date() })), mappings };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await buildWorkPaper(input)) as unknown as ArrayBuffer);
  return wb;
}

/** The holdings file as delivered, read on its own: line number -> cells (';', decimal comma, '.' thousands). */
function deliveredLines(): Map<number, string[]> {
  const text = readFileSync(join(tpaDir(GS), 'inputs', HOLDINGS_FILE), 'utf8');
  const out = new Map<number, string[]>();
  text.split(/\r?\n/).forEach((l, i) => {
    if (i >= 4 && l.trim()) out.set(i + 1, l.split(';'));
  });
  return out;
}
const amount = (t: string) => Number(t.replace(/\./g, '').replace(',', '.'));

/** The rows of a table of a sheet as objects keyed by its header's names (the header in row 1, or the row starting with `first`; rows up to the first empty one). */
function table(ws: ExcelJS.Worksheet, first?: string): Array<Record<string, unknown>> {
  let at = 1;
  if (first) ws.eachRow((r, n) => void (at === 1 && r.getCell(1).value === first && (at = n)));
  const head = (ws.getRow(at).values as unknown[]).slice(1).map(String);
  const out: Array<Record<string, unknown>> = [];
  for (let r = at + 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    if (!row.hasValues) break;
    out.push(Object.fromEntries(head.map((h, i) => [h, row.getCell(i + 1).value])));
  }
  return out;
}

describe('work paper lineage: the Holdings sheet (GS, real data)', () => {
  let wb: ExcelJS.Workbook;
  let rows: Array<Record<string, unknown>>;
  const expected = JSON.parse(readFileSync(join(tpaDir(GS), 'expected.json'), 'utf8')).funds[0];
  beforeAll(async () => {
    wb = await workPaper(loadCsvTpa(GS), 'ecb-usd-cross-rates-2023-03-31.csv');
    rows = table(wb.getWorksheet('Holdings')!);
  });

  it('has one row per delivered line, with the values, file and line as delivered', () => {
    const delivered = deliveredLines();
    expect(Object.keys(rows[0]).slice(0, 5)).toEqual(HOLDINGS_COLUMNS.slice(0, 5));
    expect(rows).toHaveLength(delivered.size);
    expect(rows).toHaveLength(expected.positions);
    for (const r of rows) {
      const cells = delivered.get(r.Line as number)!;
      expect(r.File).toBe(HOLDINGS_FILE);
      expect([r['Security id'], r['Instrument type (delivered)'], r['Price currency']]).toEqual([cells[2], cells[5], cells[8]]);
      expect(r['Value base (USD)']).toBe(amount(cells[11]));
      expect(r.Quantity).toBe(amount(cells[6]));
    }
  });

  it('the total of the sheet is the Summary figure and the filing’s holdings value, and the Summary points to the rows', () => {
    const cents = rows.reduce((s, r) => s + Math.round((r['Value base (USD)'] as number) * 100), 0);
    expect(cents / 100).toBe(expected.holdings_market_value_base);
    const ws = wb.getWorksheet('Holdings')!;
    expect(ws.getRow(ws.rowCount).getCell(HOLDINGS_COLUMNS.indexOf('Value base') + 1).value).toBe(expected.holdings_market_value_base);
    expect(ws.getRow(ws.rowCount).getCell(1).value).toBe(`Total: ${expected.positions} position(s)`);
    const summary = wb.getWorksheet('Summary')!;
    const h = rowOf(summary, 'Holdings');
    expect([h.getCell(4).value, h.getCell(9).value, h.getCell(10).value]).toEqual([
      expected.holdings_market_value_base,
      HOLDINGS_FILE,
      `5-${4 + expected.positions}`,
    ]);
    const nav = rowOf(summary, 'NAV');
    expect([nav.getCell(2).value, nav.getCell(9).value]).toEqual([expected.net_assets, 'MFS_TB_S000013795_20230331.csv']);
    // an item computed over many rows names the files and lines it was computed from
    const tb = rowOf(summary, 'Trial balance', 1);
    expect(tb.getCell(9).value).toBe('MFS_TB_S000013795_20230331.csv');
    expect(String(tb.getCell(10).value)).toMatch(/^\d+-\d+$/);
    const pt = rowOf(summary, 'Price testing', 2);
    expect(pt.getCell(9).value).toBe(`${HOLDINGS_FILE}; MFS_PRICES_S000013795_20230331.csv`);
    // FX testing reads the holdings (and the TPA's FX table, when there is one)
    expect(rowOf(summary, 'FX testing: total impact', 2).getCell(9).value).toBe(HOLDINGS_FILE);
  });

  it('names the mapping row applied to each position with the mapping id and version', () => {
    const codes = new Map(
      readFileSync(join(tpaDir(GS), 'mappings/instrument_mapping.csv'), 'utf8')
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((l) => l.split(',') as [string, string]),
    );
    for (const r of rows) {
      const code = r['Instrument type (delivered)'] as string;
      expect(r['Standard instrument']).toBe(codes.get(code));
      expect(r['Mapping rows applied']).toBe(
        `instrument_mapping meridian_fund_services_instrument_mapping (id 12) v3: '${code}' -> ${codes.get(code)}; file_layout meridian_fund_services_file_layout (id 11) v1: holdings columns`,
      );
    }
  });

  it('shows the independent rate of each position with its date and source; no rate: NOT PERFORMED', () => {
    const sek = rows.find((r) => r.Line === 7)!;
    expect(sek['Security id']).toBe('23CSKBB736N');
    expect([sek['Independent FX rate'], (sek['Rate date'] as Date).toISOString().slice(0, 10), sek['Rate source'], sek['FX rate status']]).toEqual([
      10.37287356,
      '2023-03-31',
      'ECB 2023-03-31: 11.2805 SEK per EUR / 1.0875 USD per EUR',
      'current: dated 2023-03-31, the period end',
    ]);
    const clp = rows.find((r) => r.Line === 31)!;
    expect(clp['Price currency']).toBe('CLP');
    expect([clp['Independent FX rate'], clp['FX rate status']]).toEqual([null, 'NOT PERFORMED: no independent rate on or before the period end']);
    const usd = rows.find((r) => r.Line === 5)!;
    expect(usd['FX rate status']).toBe('fund currency');
    // the TPA's own prices are no independent evidence
    expect(usd['Price source']).toBe('no independent price');
  });
});

describe('work paper: rates too old (GS at 2023-03-31 against the ECB rates of 2022-12-30)', () => {
  it('says NOT PERFORMED with the rate date per position, per currency in FX testing, and warns in the Summary', async () => {
    const wb = await workPaper(loadCsvTpa(GS), 'ecb-usd-cross-rates-2022-12-30.csv');
    const sek = table(wb.getWorksheet('Holdings')!).find((r) => r.Line === 7)!;
    expect([sek['Independent FX rate'], sek['Rate source'], sek['FX rate status']]).toEqual([
      10.42733921,
      'ECB 2022-12-30: 11.1218 SEK per EUR / 1.0666 USD per EUR',
      'NOT PERFORMED: rate dated 2022-12-30, 91 days before the period end 2023-03-31 (65 business days; limit 5)',
    ]);
    const fx = table(wb.getWorksheet('FX testing')!, 'Currency');
    const ccy = fx.find((r) => r.Currency === 'SEK')!;
    expect([ccy.Status, ccy['Rate source'], ccy['Age (days)'], ccy['Age (business days)'], ccy["Exceptions' impact (USD)"]]).toEqual([
      'NOT PERFORMED',
      'ECB 2022-12-30: 11.1218 SEK per EUR / 1.0666 USD per EUR',
      91,
      65,
      null,
    ]);
    const warn = rowOf(wb.getWorksheet('Summary')!, 'FX SEK', 2);
    expect(warn.getCell(5).value).toBe('NOT PERFORMED');
    expect(String(warn.getCell(8).value)).toContain('is dated 2022-12-30, 91 days before the period end 2023-03-31 (65 business days; limit 5)');
  });
});

describe('work paper: an unmapped position among mapped ones of the same delivered type', () => {
  it('names the missing mapping on that position only', async () => {
    const data = loadCsvTpa(GS);
    const i = data.holdings.findIndex((h) => h.instrument_type === 'ABS-MBS');
    const line = data.holdings[i].line;
    data.holdings[i] = { ...data.holdings[i], standard_instrument: null };
    const rows = table((await workPaper(data, 'ecb-usd-cross-rates-2023-03-31.csv')).getWorksheet('Holdings')!);
    const applied = (r: Record<string, unknown>) => [r['Standard instrument'], String(r['Mapping rows applied']).split(';')[0]];
    expect(applied(rows.find((r) => r.Line === line)!)).toEqual([
      '(unmapped)',
      "instrument_mapping meridian_fund_services_instrument_mapping (id 12) v3: 'ABS-MBS' -> (unmapped)",
    ]);
    const others = rows.filter((r) => r['Instrument type (delivered)'] === 'ABS-MBS' && r.Line !== line);
    expect(others.length).toBeGreaterThan(0);
    for (const r of others) expect(applied(r)[1]).toMatch(/'ABS-MBS' -> DEBT$/);
  });
});
