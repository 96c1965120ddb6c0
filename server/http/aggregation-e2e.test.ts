/**
 * Fund aggregation end to end on real data, through the HTTP API: a parent fund in EUR whose
 * consolidation flag is set, over two real fixture funds in USD (the Goldman Sachs Bond Fund at
 * 2023-03-31 from Meridian's csv files, the Dupree Kentucky fund at 2022-12-31 from Keystone's
 * workbook). The expected figures are computed here from the delivered files and the fixture FX
 * rates, independently of the pipeline.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../jobs/engine.js';
import { allJobs } from '../jobs/stages/index.js';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { readWorkPaper } from '../testing/http-reads.js';

const tpaDir = (code: string) => join(fixturesDir(), 'tpas', code);
const GS = 'S000013795';
const KY = 'S000012000';
/** Standard accounts of class asset or liability (docs/onboarding.md, account_mapping targets). */
const NAV_ACCOUNTS = [
  'INVESTMENTS_AT_VALUE',
  'DERIVATIVES_ASSET',
  'CASH',
  'RECEIVABLES',
  'OTHER_ASSETS',
  'DERIVATIVES_LIABILITY',
  'PAYABLES',
  'OTHER_LIABILITIES',
];

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
const ids: Record<string, number> = {};

function form(fields: Record<string, string>, files: Array<{ field: string; path: string }>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append(file.field, new Blob([readFileSync(file.path)]), file.path.split('/').pop());
  return f;
}

async function onboard(code: string, name: string) {
  const dir = join(tpaDir(code), 'mappings');
  const files = readdirSync(dir).map((m) => ({ field: 'mappings', path: join(dir, m) }));
  const res = await api.call('POST', 'sdm-upload/create', { token, body: form({ code, name }, files) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const runPipeline = () => new Engine(ctx, allJobs).drain();

/** A decimal-comma number with `.` thousands, as Meridian writes them. */
const euroNumber = (s: string) => Number(s.replace(/\./g, '').replace(',', '.'));

/** The account mapping of a TPA: code -> standard account. */
function accountMapping(code: string): Map<string, string> {
  const lines = readFileSync(join(tpaDir(code), 'mappings', 'account_mapping.csv'), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1);
  return new Map(lines.map((l) => [l.split(',')[0], l.split(',')[1]]));
}

/** NAV and holdings market value (USD) of the GS fund, from Meridian's delivered csv files. */
function gsFigures() {
  const rows = (file: string) =>
    readFileSync(join(tpaDir('meridian_fund_services'), 'inputs', file), 'utf8')
      .split(/\r?\n/)
      .slice(4)
      .filter((l) => l.trim())
      .map((l) => l.split(';'));
  const accounts = accountMapping('meridian_fund_services');
  const nav = rows('MFS_TB_S000013795_20230331.csv')
    .filter((c) => NAV_ACCOUNTS.includes(accounts.get(c[2]) ?? ''))
    .reduce((s, c) => s + euroNumber(c[6]), 0);
  const holdings = rows('MFS_HOLDINGS_S000013795_20230331.csv').reduce((s, c) => s + euroNumber(c[11]), 0);
  return { nav, holdings, positions: rows('MFS_HOLDINGS_S000013795_20230331.csv').length };
}

/** NAV and holdings market value (USD) of the Dupree fund, from Keystone's delivered workbook. */
async function kyFigures() {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(join(tpaDir('keystone_admin'), 'inputs', 'KEYSTONE_5493006TF05454RBY690_20221231.xlsx'));
  const body = (sheet: string) => {
    const ws = wb.getWorksheet(sheet)!;
    const out: unknown[][] = [];
    ws.eachRow((r, n) => n > 1 && out.push(r.values as unknown[]));
    return out;
  };
  const accounts = accountMapping('keystone_admin');
  const nav = body('GL Balances')
    .filter((v) => NAV_ACCOUNTS.includes(accounts.get(String(v[3])) ?? ''))
    .reduce((s: number, v) => s + Number(v[7]), 0);
  const holdings = body('Portfolio Valuation').reduce((s: number, v) => s + Number(v[12]), 0);
  return { nav, holdings, positions: body('Portfolio Valuation').length };
}

/** Units of EUR per USD on a date: 1 / the ECB's USD per EUR of that day in the shipped ECB history. */
function eurPerUsd(date: string): number {
  const [head, ...rows] = readFileSync(join(fixturesDir(), 'reference', 'fx', 'eurofxref-hist_2020-onwards.csv'), 'utf8').split('\n');
  const row = rows.find((l) => l.startsWith(`${date},`))!.split(',');
  return 1 / Number(row[head.split(',').indexOf('USD')]);
}

const cents = (x: number) => Math.round(x * 100) / 100;

/** The first row of a sheet whose first cell is `key`, as {header: value}. */
function rowOf(ws: ExcelJS.Worksheet, key: string): Record<string, unknown> {
  const header = Array.from(ws.getRow(1).values as unknown[], (h) => String(h ?? ''));
  let found: Record<string, unknown> | null = null;
  ws.eachRow((r) => {
    const v = r.values as unknown[];
    if (v[1] === key && !found) found = Object.fromEntries(header.map((h, i) => [h, v[i] ?? null]));
  });
  expect(found, `row ${key} of ${ws.name}`).not.toBeNull();
  return found!;
}

const parent = async () => (await api.get(`fund/${ids.parent}`, token)).body.payload;
const listingRow = async () => {
  const res = await api.post('funds/listing', { offset: 0, limit: 100 }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.payload.rows as Array<Record<string, unknown>>).find((r) => r.id === ids.parent)!;
};

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, aggregation: true });
  seedFxRates(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  await onboard('meridian_fund_services', 'Meridian Fund Services');
  await onboard('keystone_admin', 'Keystone Administration');
  const upload = await api.call('POST', 'funds/upload', {
    token,
    body: form({}, [{ field: 'upload', path: join(fixturesDir(), 'fund-requests', 'real-funds.csv') }]),
  });
  const accepted = (upload.body.payload.accepted as Array<Record<string, string>>).filter((r) => r.fundShortCode === GS || r.fundShortCode === KY);
  const saved = await api.post('funds', { requestDate: '2023-04-03', funds: accepted }, token);
  for (const s of saved.body.payload.saved) ids[s.fundShortCode] = s.id;
  const created = await api.post(
    'fund',
    {
      fund: {
        name: 'Bond funds group (EUR)',
        client: 'Fund Audit group',
        administrator: 'meridian_fund_services',
        fund_code: 'GRP-BONDS-EUR',
        currency: 'EUR',
        country: 'US',
        period_start: '2022-04-01',
        period_end: '2023-03-31',
        request_date: '2023-04-03',
        PM: 1,
        TE: 0.75,
        SAD: 0.05,
        external_valuations: 'N',
        aggreg_consol_flag: 'CONSOLIDATION',
        group_key: 'GRP-BONDS',
        is_parent: true,
      },
    },
    token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  ids.parent = created.body.payload.id;
  for (const code of [GS, KY]) {
    const res = await api.post('fund', { id: ids[code], fund: { parentId: ids.parent, group_key: 'GRP-BONDS' } }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  for (const [code, dir] of [
    ['meridian_fund_services', 'inputs'],
    ['keystone_admin', 'inputs'],
  ]) {
    const files = readdirSync(join(tpaDir(code), dir)).map((n) => ({ field: 'upload', path: join(tpaDir(code), dir, n) }));
    const res = await api.call('POST', 'import/files', { token, body: form({ administrator: code }, files) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  await runPipeline();
}, 180_000);
afterAll(() => ctx.dispose());

describe('a parent fund over two real funds', () => {
  it('shows its children, and needs a rerun once their data has been standardized', async () => {
    const p = await parent();
    expect(p.children.map((c: { id: number }) => c.id).sort()).toEqual([ids[GS], ids[KY]].sort());
    expect(p.needs_rerun).toBe(true);
    const row = await listingRow();
    expect(row.needs_rerun).toBe(true);
    expect(row.isParentUIField).toBe('Parent');
  });

  it('the force switch reruns the aggregation: per child and in total in EUR at the rate of each period end, to the cent', async () => {
    const res = await api.post('fund/set-aggreg-force-run', { id: ids.parent, value: true }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payload.processId).toBeGreaterThan(0);
    expect((await parent()).aggreg_force_run).toBe(true);
    await runPipeline();
    const p = await parent();
    expect(p.needs_rerun).toBe(false);
    expect(p.aggreg_force_run).toBe(false);
    expect(p.calculationFiles[0].aggDataOversized).toBe(false);

    const gs = gsFigures();
    const ky = await kyFigures();
    // GS at its period end 2023-03-31; Dupree at 2022-12-31, a Saturday: the ECB rate of Friday 2022-12-30
    const rGs = eurPerUsd('2023-03-31');
    const rKy = eurPerUsd('2022-12-30');
    const wb = await readWorkPaper(ctx, ids.parent);
    const agg = wb.getWorksheet('Aggregation')!;
    expect(agg, 'Aggregation sheet').toBeTruthy();
    const g = rowOf(agg, GS);
    const k = rowOf(agg, KY);
    expect(g['Rate date']).toEqual(new Date(Date.UTC(2023, 2, 31)));
    expect(k['Rate date']).toEqual(new Date(Date.UTC(2022, 11, 30)));
    expect(g['Holdings']).toBe(gs.positions);
    expect(k['Holdings']).toBe(ky.positions);
    expect(g['NAV (local)']).toBe(cents(gs.nav));
    expect(g['NAV (EUR)']).toBe(cents(gs.nav * rGs));
    expect(k['NAV (EUR)']).toBe(cents(ky.nav * rKy));
    expect(g['Holdings market value (EUR)']).toBe(cents(gs.holdings * rGs));
    expect(k['Holdings market value (EUR)']).toBe(cents(ky.holdings * rKy));
    const total = rowOf(agg, 'Total');
    expect(total['NAV (EUR)']).toBe(cents(gs.nav * rGs + ky.nav * rKy));
    expect(total['Holdings market value (EUR)']).toBe(cents(gs.holdings * rGs + ky.holdings * rKy));
    expect(total['Holdings']).toBe(gs.positions + ky.positions);

    // the rest of the work paper is over the combined data: the Summary's NAV and holdings are the totals
    const summary = wb.getWorksheet('Summary')!;
    expect(rowOf(summary, 'Currency').Value).toBe('EUR');
    expect(rowOf(summary, 'NAV').Value).toBe(cents(gs.nav * rGs + ky.nav * rKy));
    const holdings = rowOf(summary, 'Holdings');
    expect(holdings.Value).toBe(`${gs.positions + ky.positions} position(s)`);
    expect(holdings.Amount).toBe(cents(gs.holdings * rGs + ky.holdings * rKy));
    expect(wb.getWorksheet('Holdings')!.rowCount).toBeGreaterThanOrEqual(gs.positions + ky.positions + 1);
  });

  it('needs a rerun again when a child is imported again, and not once the parent has rerun', async () => {
    expect((await parent()).needs_rerun).toBe(false);
    // Meridian delivers the GS trial balance again, run the next day (a new file, the same rows)
    const again = join(ctx.dir, 'MFS_TB_S000013795_20230331_rerun.csv');
    writeFileSync(
      again,
      readFileSync(join(tpaDir('meridian_fund_services'), 'inputs', 'MFS_TB_S000013795_20230331.csv'), 'utf8').replace(
        'Run Date: 31/03/2023',
        'Run Date: 01/04/2023',
      ),
    );
    const delivered = await api.call('POST', 'import/files', {
      token,
      body: form({ administrator: 'meridian_fund_services' }, [{ field: 'upload', path: again }]),
    });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    await runPipeline();
    expect((await parent()).needs_rerun).toBe(true);
    await api.post('fund/set-aggreg-force-run', { id: ids.parent, value: true }, token);
    await runPipeline();
    expect((await parent()).needs_rerun).toBe(false);
    // the Dupree fund is reset: its delivered workbook is identified and standardized again
    const reset = await api.post('fund/reset', { ids: [ids[KY]] }, token);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    await runPipeline();
    expect((await parent()).needs_rerun).toBe(true);
    expect((await listingRow()).needs_rerun).toBe(true);
    const rerun = await api.post('fund/set-aggreg-force-run', { id: ids.parent, value: true }, token);
    expect(rerun.body.payload.processId).toBeGreaterThan(0);
    await runPipeline();
    expect((await parent()).needs_rerun).toBe(false);
    expect((await listingRow()).needs_rerun).toBe(false);
  });

  it("over the row limit the aggregate is not computed: oversized, and 'Too large' in the listing and fund details", async () => {
    const limit = ctx.config.aggregationMaxRows;
    ctx.config.aggregationMaxRows = 1000;
    try {
      await api.post('fund/set-aggreg-force-run', { id: ids.parent, value: true }, token);
      await runPipeline();
      const p = await parent();
      expect(p.calculationFiles[0].aggDataOversized).toBe(true);
      expect(p.dataStatusUIField).toBe('Too large');
      expect((await listingRow()).dataStatusUIField).toBe('Too large');
      expect(p.aggreg_force_run).toBe(false);
    } finally {
      ctx.config.aggregationMaxRows = limit;
    }
    await api.post('fund/set-aggreg-force-run', { id: ids.parent, value: true }, token);
    await runPipeline();
    const p = await parent();
    expect(p.calculationFiles[0].aggDataOversized).toBe(false);
    expect(p.dataStatusUIField).not.toBe('Too large');
  });
});
