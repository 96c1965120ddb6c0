/**
 * A delivery in local currency with an FX table, end to end through the HTTP API on real data:
 * Lakeside Fund Services delivers the Goldman Sachs Bond Fund (N-PORT 2023-03-31) as a valuation
 * in local currency only, an FX table and a trial balance in USD (Windows-1252, decimal comma).
 * The base values are recomputed here from the delivered cells alone and compared with the work
 * paper's Holdings sheet, which names the FX table's file and line per position; then the FX
 * table is replaced by one without CHF, and by one whose GBP rate is ten days old.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../jobs/engine.js';
import { allJobs } from '../jobs/stages/index.js';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { readWorkPaper } from '../testing/http-reads.js';

const DIR = join(fixturesDir(), 'local-currency', 'lakeside_fund_services');
const CODE = 'lakeside_fund_services';
const FX_FILE = 'LFS_FX_S000013795_20230331.csv';
const VALUATION = 'LFS_VALUATION_S000013795_20230331.csv';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
let fundId: number;

function form(fields: Record<string, string>, files: string[]): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const path of files) f.append(fields.administrator ? 'upload' : 'mappings', new Blob([readFileSync(path)]), path.split('/').pop());
  return f;
}
const importFiles = async (paths: string[]) => {
  const res = await api.call('POST', 'import/files', { token, body: form({ administrator: CODE }, paths) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await new Engine(ctx, allJobs).drain();
};
const fund = async () => (await api.get(`fund/${fundId}`, token)).body.payload;

/** Data records of a delivered file, decoded and split here (two title lines and the header dropped). */
const records = (path: string) =>
  iconv
    .decode(readFileSync(path), 'win1252')
    .split('\r\n')
    .filter(Boolean)
    .slice(3)
    .map((l) => l.split(';'));
/** A decimal-comma cell as exact integer units and scale. */
const exact = (cell: string) => {
  const [int, frac = ''] = cell.replace(/ /g, '').split(',');
  return { units: BigInt(int + frac), scale: frac.length };
};
/** local / rate in cents, half away from zero. */
const cents = (local: string, rate: string) => {
  const l = exact(local);
  const r = exact(rate);
  const num = l.units * 10n ** BigInt(r.scale + 2);
  const den = r.units * 10n ** BigInt(l.scale);
  const q = ((num < 0n ? -num : num) * 2n + den) / (2n * den);
  return num < 0n ? -q : q;
};

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  seedFxRates(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  const mappings = readdirSync(join(DIR, 'mappings')).map((m) => join(DIR, 'mappings', m));
  const created = await api.call('POST', 'sdm-upload/create', { token, body: form({ code: CODE, name: 'Lakeside Fund Services' }, mappings) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const upload = await api.call('POST', 'funds/upload', {
    token,
    body: (() => {
      const f = new FormData();
      f.append('upload', new Blob([readFileSync(join(DIR, 'fund_request.csv'))]), 'fund_request.csv');
      return f;
    })(),
  });
  const saved = await api.post('funds', { requestDate: '2023-04-03', funds: upload.body.payload.accepted }, token);
  fundId = saved.body.payload.saved[0].id;
  await importFiles(readdirSync(join(DIR, 'inputs')).map((n) => join(DIR, 'inputs', n)));
}, 180_000);
afterAll(() => ctx.dispose());

describe('holdings in local currency converted with the delivered FX table', () => {
  it('identifies the FX table as its own file type and standardizes every file Valid', async () => {
    const list = (await api.post('import/list', {}, token)).body.payload.rows;
    expect(list.map((r: any) => [r.fileName, r.status, r.type]).sort()).toEqual([
      [FX_FILE, 'Success', 'fx_rates'],
      ['LFS_TB_S000013795_20230331.csv', 'Success', 'trial_balance'],
      [VALUATION, 'Success', 'holdings'],
    ]);
    const d = await fund();
    expect(d.standardizationFiles.map((f: any) => [f.fileType, f.rowCount, f.validation_status]).sort()).toEqual([
      ['fx_rates', 23, 'Valid'],
      ['holdings', 1685, 'Valid'],
      ['trial_balance', 8, 'Valid'],
    ]);
  });

  it('shows per position the local value, the rate, its date and source (the FX table file and line) and the base value recomputed here', async () => {
    const fx = records(join(DIR, 'inputs', FX_FILE));
    const rateOf = new Map(fx.map((r, i) => [r[2], { rate: r[4], line: i + 4 }]));
    const delivered = records(join(DIR, 'inputs', VALUATION));
    const ws = (await readWorkPaper(ctx, fundId)).getWorksheet('Holdings')!;
    const head = Array.from(ws.getRow(1).values as unknown[], (v) => String(v ?? ''));
    // money columns name the currency: 'Value base (USD)'
    const at = (name: string) => head.findIndex((h) => h === name || h.startsWith(`${name} (`));
    const cell = (r: number, name: string) => ws.getRow(r).getCell(at(name)).value;
    let total = 0n;
    for (let r = 2; r < 2 + delivered.length; r++) {
      const line = cell(r, 'Line') as number;
      const [, , id, , , , , , ccy, local] = delivered[line - 4];
      expect(cell(r, 'Security id')).toBe(id);
      const expected = ccy === 'USD' ? exact(local).units : cents(local, rateOf.get(ccy)!.rate);
      total += expected;
      expect(Math.round((cell(r, 'Value base') as number) * 100), `line ${line}`).toBe(Number(expected));
      expect(cell(r, 'Value local')).toBe(Number(local.replace(/ /g, '').replace(',', '.')));
      if (ccy === 'USD') continue;
      expect(cell(r, 'TPA FX rate')).toBe(Number(rateOf.get(ccy)!.rate.replace(/ /g, '').replace(',', '.')));
      expect((cell(r, 'TPA rate date') as Date).toISOString().slice(0, 10)).toBe('2023-03-31');
      expect(cell(r, 'TPA rate source')).toBe(`FX table ${FX_FILE} line ${rateOf.get(ccy)!.line} (N-PORT exchangeRt 2023-03-31)`);
    }
    expect(cell(2 + delivered.length, 'File')).toBeNull();
    const expectedJson = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
    expect(Number(total) / 100).toBe(expectedJson.holdings_total_converted);
  });

  it('reconciles the converted holdings with the TB in USD and tests the FX table against the ECB history', async () => {
    const v = (await fund()).calculationFiles[0].validation;
    expect(v.nav).toBeCloseTo(JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')).net_assets, 2);
    expect([...new Set(v.QA_Rec.filter((i: any) => i.check === 'investments_reconciliation').map((i: any) => i.status))]).toEqual(['pass']);
    const fx = v.QA_Rec.filter((i: any) => i.check === 'fx_testing');
    const eur = fx.find((i: any) => i.name === 'FX EUR');
    // the table's EUR rate 0.922084 against the ECB's 1 / 1.0875 USD per EUR: within the 0.5% tolerance
    expect(eur.status).toBe('pass');
    expect(eur.details).toMatchObject({ tpaRateSource: expect.stringContaining(`FX table ${FX_FILE} line 11 (2023-03-31), N-PORT exchangeRt 2023-03-31`) });
    expect(eur.details.rateDiffPct).toBeCloseTo(((0.922084 - 1 / 1.0875) / (1 / 1.0875)) * 100, 6);
    expect(fx.filter((i: any) => i.notPerformed).map((i: any) => i.name)).toEqual(['FX CLP', 'FX TWD']);
  });
});

describe('an FX table that lacks a currency or has an old rate', () => {
  it('names the currency without a rate once, and leaves its positions out rather than making up a base value', async () => {
    await importFiles([join(DIR, 'variants', 'LFS_FX_S000013795_20230331_no_CHF.csv')]);
    const holdings = (await fund()).standardizationFiles.find((f: any) => f.fileType === 'holdings');
    const chf = records(join(DIR, 'inputs', VALUATION)).filter((c) => c[8] === 'CHF').length;
    expect(holdings).toMatchObject({ validation_status: 'Invalid', rowCount: 1685 - chf });
    expect(holdings.validation.rowErrors).toEqual([
      expect.objectContaining({
        file: VALUATION,
        column: 'Market Value (Local)',
        error: expect.stringMatching(
          new RegExp(`^no CHF rate for 2023-03-31: the FX table has no CHF rate on or before the period end; ${chf} CHF positions not converted`),
        ),
      }),
    ]);
  });

  it('never converts with a rate dated more than 5 business days before the period end', async () => {
    await importFiles([join(DIR, 'variants', 'LFS_FX_S000013795_20230331_stale_GBP.csv')]);
    const holdings = (await fund()).standardizationFiles.find((f: any) => f.fileType === 'holdings');
    expect(holdings.validation.rowErrors.map((e: any) => e.error)).toEqual([
      expect.stringMatching(
        /^GBP rate dated 2023-03-21, 10 days before the period end 2023-03-31 \(8 business days; limit 5\): too old to convert with; \d+ GBP positions/,
      ),
    ]);
    // the work paper says the data are incomplete and lists the error
    const wb = await readWorkPaper(ctx, fundId);
    const exceptions: string[] = [];
    wb.getWorksheet('Exceptions')!.eachRow((row) => exceptions.push((row.values as unknown[]).map(String).join('|')));
    expect(exceptions.some((r) => r.includes('GBP rate dated 2023-03-21, 10 days before the period end'))).toBe(true);
  });
});
