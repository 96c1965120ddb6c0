/**
 * Fund aggregation over two children that hold the same securities, end to end through the HTTP
 * API on real data: a parent in USD over the Kentucky Tax-Free Short-to-Medium Series as Keystone
 * delivers it (an xlsx workbook) and as the demo TPA delivers it (a comma CSV), the same 55 real
 * positions of its N-PORT filing. Each security is one position of the parent, its quantity and
 * values summed, never a probable double count. The expected figures are recomputed here from the
 * delivered files (read per each TPA's documented layout), independently of the pipeline.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { unzipAll } from '../../pipeline/testing/zips.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../jobs/engine.js';
import { allJobs } from '../jobs/stages/index.js';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { readWorkPaper } from '../testing/http-reads.js';
import { readDelivered, type Delivered, type DeliveredRow } from './work-paper-figures/delivered.js';

const CODE = 'S000012000';
const TPAS = [
  { tpa: 'keystone_admin', name: 'Keystone Administration' },
  { tpa: 'demo_test', name: 'Demo TPA' },
] as const;
const tpaDir = (code: string) => join(fixturesDir(), 'tpas', code);
const inputs = (code: string) => readdirSync(join(tpaDir(code), 'inputs')).map((n) => join(tpaDir(code), 'inputs', n));
/** Standard accounts of class asset or liability (docs/onboarding.md). */
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
const delivered: Record<string, Delivered> = {};

async function call(path: string, fields: Record<string, string>, files: string[], field = 'upload') {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const p of files) f.append(field, new Blob([readFileSync(p)]), p.split('/').pop());
  const res = await api.call('POST', path, { token, body: f });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload;
}
const runPipeline = () => new Engine(ctx, allJobs).drain();
const cents = (x: number) => Math.round(x * 100) / 100;
const num = (r: DeliveredRow, k: string) => r.v[k] as number;
const navOf = (d: Delivered) =>
  d.trial_balance.filter((r) => NAV_ACCOUNTS.includes(String(r.v.standard_account))).reduce((s, r) => s + num(r, 'balance_base'), 0);

/** A sheet's rows as {header: value}, from row 2 on. */
function records(ws: ExcelJS.Worksheet): Array<Record<string, unknown>> {
  const header = Array.from(ws.getRow(1).values as unknown[], (h) => String(h ?? ''));
  const out: Array<Record<string, unknown>> = [];
  ws.eachRow((r, n) => {
    if (n > 1) out.push(Object.fromEntries(header.map((h, i) => [h, (r.values as unknown[])[i] ?? null])));
  });
  return out;
}

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, aggregation: true });
  seedFxRates(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  for (const t of TPAS) {
    const dir = join(tpaDir(t.tpa), 'mappings');
    await call(
      'sdm-upload/create',
      { code: t.tpa, name: t.name },
      readdirSync(dir).map((m) => join(dir, m)),
      'mappings',
    );
    delivered[t.tpa] = await readDelivered(tpaDir(t.tpa), inputs(t.tpa));
  }
  const upload = await call('funds/upload', {}, [join(fixturesDir(), 'fund-requests', 'real-funds.csv')]);
  const accepted = (upload.accepted as Array<Record<string, string>>).filter((r) => r.fundShortCode === CODE);
  expect(accepted.map((r) => r.tpa).sort()).toEqual(['demo_test', 'keystone_admin']);
  const saved = await api.post('funds', { requestDate: '2023-01-03', funds: accepted }, token);
  for (const s of saved.body.payload.saved) ids[s.tpa] = s.id;
  const created = await api.post(
    'fund',
    {
      fund: {
        name: 'Kentucky municipal funds group',
        client: 'Dupree Mutual Funds',
        administrator: 'keystone_admin',
        fund_code: 'GRP-KY-MUNI',
        currency: 'USD',
        country: 'US',
        period_start: '2022-07-01',
        period_end: '2022-12-31',
        request_date: '2023-01-03',
        PM: 1,
        TE: 0.75,
        SAD: 0.05,
        external_valuations: 'N',
        aggreg_consol_flag: 'CONSOLIDATION',
        group_key: 'GRP-KY',
      },
    },
    token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  ids.parent = created.body.payload.id;
  // the Keystone fund is linked while pending; the demo TPA's once its files are in and it is open
  const link = (tpa: string) => api.post('fund', { id: ids[tpa], fund: { parentId: ids.parent, group_key: 'GRP-KY' } }, token);
  expect((await link('keystone_admin')).status).toBe(200);
  for (const t of TPAS) await call('import/files', { administrator: t.tpa }, inputs(t.tpa));
  await runPipeline();
  const opened = await api.post('fund/approve', { ids: [ids.demo_test] }, token);
  expect(opened.body.payload.funds[0].statusLabel).toBe('Open');
  const linked = await link('demo_test');
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  // the link queued the parent's aggregation: no force switch needed
  await runPipeline();
}, 180_000);
afterAll(() => ctx?.dispose());

describe('a parent over two children holding the same securities', () => {
  let wb: ExcelJS.Workbook;
  /** Per security id: the delivered rows of both children. */
  const bySecurity = new Map<string, DeliveredRow[]>();
  beforeAll(async () => {
    wb = await readWorkPaper(ctx, ids.parent);
    for (const t of TPAS)
      for (const r of delivered[t.tpa].holdings) bySecurity.set(String(r.v.security_id), [...(bySecurity.get(String(r.v.security_id)) ?? []), r]);
  });

  it('each security is one position: quantities and values summed, each delivered row named', () => {
    const rows = records(wb.getWorksheet('Holdings')!).filter((r) => bySecurity.has(String(r['Security id'])));
    expect(rows.length).toBe(bySecurity.size);
    for (const [id, parts] of bySecurity) {
      expect(parts.length, id).toBe(2);
      const row = rows.find((r) => r['Security id'] === id)!;
      expect(row.Quantity, id).toBeCloseTo(
        parts.reduce((s, p) => s + num(p, 'quantity'), 0),
        6,
      );
      expect(row['Value base (USD)'], id).toBeCloseTo(
        parts.reduce((s, p) => s + num(p, 'market_value_base'), 0),
        6,
      );
      for (const p of parts) expect(String(row['Consolidated from']), id).toContain(`${p.file} line ${p.line} (quantity ${num(p, 'quantity')})`);
    }
  });

  it('the Summary counts the consolidated positions and totals both children, the Aggregation sheet says how many were consolidated', () => {
    const holdings = [...bySecurity.values()].flat();
    const summary = records(wb.getWorksheet('Summary')!);
    const h = summary.find((r) => Object.values(r)[1] === 'Holdings')!;
    expect(Object.values(h)).toContain(`${bySecurity.size} position(s)`);
    expect(Object.values(h)).toContain(cents(holdings.reduce((s, p) => s + num(p, 'market_value_base'), 0)));
    const nav = summary.find((r) => Object.values(r)[1] === 'NAV')!;
    expect(Object.values(nav)).toContain(cents(navOf(delivered.keystone_admin) + navOf(delivered.demo_test)));
    const agg = records(wb.getWorksheet('Aggregation')!);
    const positions = agg.find((r) => r['Child fund code'] === 'Positions')!;
    expect(positions.Holdings).toBe(bySecurity.size);
    expect(String(positions.Name)).toContain(`from ${holdings.length} rows`);
    expect(agg.find((r) => r['Child fund code'] === 'Total')!.Holdings).toBe(holdings.length);
  });

  it('holdings integrity finds no double count; materiality is the parent PM on the combined NAV', async () => {
    const p = (await api.get(`fund/${ids.parent}`, token)).body.payload;
    const v = p.calculationFiles[0].validation as {
      QA_Rec: Array<{ check: string; status: string; message: string }>;
      materiality: { pm: number };
      nav: number;
    };
    const integrity = v.QA_Rec.filter((i) => i.check === 'holdings_integrity');
    expect(integrity.filter((i) => i.status === 'fail' || /double count/.test(i.message))).toEqual([]);
    const consolidated = v.QA_Rec.find((i) => i.check === 'aggregation' && /held by two or more/.test(i.message))!;
    expect(consolidated.status).toBe('pass');
    expect(consolidated.message).toContain(`${bySecurity.size} securities`);
    const nav = navOf(delivered.keystone_admin) + navOf(delivered.demo_test);
    expect(v.nav).toBeCloseTo(nav, 2);
    expect(v.materiality.pm).toBeCloseTo(nav * 0.01, 2);
  });
});

describe('linking children', () => {
  it('an open child with files delivered is linked, the parent reran and says it is a parent', async () => {
    const child = (await api.get(`fund/${ids.demo_test}`, token)).body.payload;
    expect(child).toMatchObject({ parentId: ids.parent, statusLabel: 'Open', isParentUIField: 'Child' });
    const p = (await api.get(`fund/${ids.parent}`, token)).body.payload;
    expect(p.is_parent).toBe(true);
    expect(p.isParentUIField).toBe('Parent');
    expect(p.children.map((c: { id: number }) => c.id).sort()).toEqual([ids.keystone_admin, ids.demo_test].sort());
    expect(p.needs_rerun).toBe(false);
    expect(p.workPapers).toHaveLength(1);
    const agg = records((await readWorkPaper(ctx, ids.parent)).getWorksheet('Aggregation')!);
    expect(agg.filter((r) => r['Child fund code'] === CODE)).toHaveLength(2);
  });

  it('refuses a link that would nest parents or make a fund its own parent', async () => {
    const own = await api.post('fund', { id: ids.parent, fund: { parentId: ids.parent } }, token);
    expect(own.status).toBe(400);
    expect(JSON.stringify(own.body)).toContain('a fund cannot be its own parent');
    const nested = await api.post('fund', { id: ids.parent, fund: { parentId: ids.demo_test } }, token);
    expect(nested.status).toBe(400);
    expect(JSON.stringify(nested.body)).toContain(`fund request ${ids.demo_test} is itself a child of ${ids.parent}`);
    expect(JSON.stringify(nested.body)).toContain(`fund request ${ids.parent} has 2 child fund(s)`);
  });
});

describe("a child's booked adjustment", () => {
  const AMOUNT = 1000;
  let adjustmentId: number;
  let wb: ExcelJS.Workbook;
  beforeAll(async () => {
    const security = String(delivered.keystone_admin.holdings[0].v.security_id);
    const added = await api.post(
      `fund/${ids.keystone_admin}/adjustments`,
      {
        type: 'bond',
        description: 'Revaluation to the evaluated price',
        bookedByTpa: true,
        lines: [
          { account: '1100-000', target: 'holding_value', securityId: security, amount: AMOUNT },
          { account: '1100-000', target: 'tb_balance', amount: AMOUNT },
          // the gain side on the standard account: the fund's trial balance has no income accounts
          { account: 'UNREALIZED_GL', target: 'tb_balance', amount: -AMOUNT },
        ],
      },
      token,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    adjustmentId = added.body.payload.id;
    await api.post(`fund/${ids.keystone_admin}/adjustments/rerun`, { rerun: 'adjustments' }, token);
    await runPipeline();
    expect((await api.get(`fund/${ids.parent}`, token)).body.payload.needs_rerun).toBe(true);
    await api.post('fund/set-aggreg-force-run', { id: ids.parent, value: true }, token);
    await runPipeline();
    wb = await readWorkPaper(ctx, ids.parent);
  });

  it("flows into the parent's NAV, its holdings and the child's row of the Aggregation sheet", () => {
    const nav = navOf(delivered.keystone_admin) + navOf(delivered.demo_test) + AMOUNT;
    const summary = records(wb.getWorksheet('Summary')!);
    expect(Object.values(summary.find((r) => Object.values(r)[1] === 'NAV')!)).toContain(cents(nav));
    const agg = records(wb.getWorksheet('Aggregation')!);
    const navs = agg.filter((r) => r['Child fund code'] === CODE).map((r) => r['NAV (local)']);
    expect(navs.sort()).toEqual([cents(navOf(delivered.keystone_admin) + AMOUNT), cents(navOf(delivered.demo_test))].sort());
  });

  it('the revalued position and the ledger row cite the adjustment beside their delivered lines, with no integrity warning', () => {
    const first = delivered.keystone_admin.holdings[0];
    const id = String(first.v.security_id);
    const parts = [...delivered.keystone_admin.holdings, ...delivered.demo_test.holdings].filter((h) => String(h.v.security_id) === id);
    const row = records(wb.getWorksheet('Holdings')!).find((r) => r['Security id'] === id)!;
    expect(row['Value base (USD)']).toBeCloseTo(parts.reduce((s, p) => s + num(p, 'market_value_base'), 0) + AMOUNT, 6);
    expect(row['Adjusted by']).toBe(`Adjustment #${adjustmentId} line 1 (1,000.00)`);
    expect(String(row['Consolidated from'])).toContain(`${first.file} line ${first.line}`);
    const tb = records(wb.getWorksheet('Trial balance')!).filter((r) => r['Account code'] === '1100-000');
    const adjusted = tb.filter((r) => r['Adjusted by']);
    expect(adjusted.map((r) => r['Adjusted by'])).toEqual([`Adjustment #${adjustmentId} line 2 (1,000.00)`]);
    expect(adjusted[0].File).toContain('KEYSTONE_');
    const exceptions = records(wb.getWorksheet('Exceptions')!);
    expect(exceptions.filter((r) => Object.values(r).some((v) => String(v).includes(id)))).toEqual([]);
  });

  it("fits the child's data: the parent's outcome is left to its checks", async () => {
    const p = (await api.get(`fund/${ids.parent}`, token)).body.payload;
    expect(p.workPapers[0].outcome).not.toBe('Incomplete data');
    expect(p.workPapers[0].outcome).toBe(p.calculationFiles[0].validation.status.toUpperCase());
  });

  it("is listed on the parent's schedule as booked, named with the child's fund code", () => {
    const sheet = records(wb.getWorksheet('Unadjusted differences')!);
    const booked = sheet.filter((r) => Object.values(r)[1] === 'Booked adjustment');
    expect(booked).toHaveLength(1);
    expect(JSON.stringify(Object.values(booked[0]))).toContain(`${CODE}: Revaluation to the evaluated price`);
  });

  it('the work paper the rerun replaced stays downloadable: its figures are those before the adjustment', async () => {
    const p = (await api.get(`fund/${ids.parent}`, token)).body.payload;
    expect(p.workPapers).toHaveLength(1);
    expect(p.previousWorkPapers).toHaveLength(1);
    expect(p.workPaperStatusCounts.total).toBe(1);
    await api.post('export/files', { fundRequests: [ids.parent], fundRequestStages: ['visualization'] }, token);
    await runPipeline();
    const [exp] = (await api.post('export/files/list', {}, token)).body.payload.rows;
    const dl = (await api.get('export/token', token)).body.payload.token;
    const res = await api.app.fetch(new Request(`http://t/api/v2.0/export/file/${exp.id}?token=${dl}`));
    const zip = await unzipAll(new Uint8Array(await res.arrayBuffer()));
    const previous = [...zip.keys()].find((n) => n.endsWith('_work_papers_previous.xlsx'))!;
    expect(previous).toBeTruthy();
    const old = new ExcelJS.Workbook();
    await old.xlsx.load(zip.get(previous) as unknown as ArrayBuffer);
    const nav = records(old.getWorksheet('Summary')!).find((r) => Object.values(r)[1] === 'NAV')!;
    expect(Object.values(nav)).toContain(cents(navOf(delivered.keystone_admin) + navOf(delivered.demo_test)));
  });
});

describe("a child's adjustment line that does not fit the child's data", () => {
  let adjustmentId: number;
  let wb: ExcelJS.Workbook;
  beforeAll(async () => {
    const accounts = new Set(delivered.demo_test.trial_balance.map((r) => String(r.v.account_code)));
    expect(accounts.has('9999')).toBe(false);
    const other = delivered.demo_test.trial_balance.find((r) => r.v.standard_account === 'OTHER_ASSETS')!;
    const added = await api.post(
      `fund/${ids.demo_test}/adjustments`,
      {
        type: 'main',
        description: 'Accrual posted to a suspense account',
        bookedByTpa: false,
        lines: [
          { account: '9999', target: 'tb_balance', amount: 250 },
          { account: String(other.v.account_code), target: 'tb_balance', amount: -250 },
        ],
      },
      token,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    adjustmentId = added.body.payload.id;
    await api.post(`fund/${ids.demo_test}/adjustments/rerun`, { rerun: 'adjustments' }, token);
    await runPipeline();
    await api.post('fund/set-aggreg-force-run', { id: ids.parent, value: true }, token);
    await runPipeline();
    wb = await readWorkPaper(ctx, ids.parent);
  });

  it("makes the child's work paper and the parent's 'Incomplete data', the line named with the child's fund code", async () => {
    const child = (await api.get(`fund/${ids.demo_test}`, token)).body.payload;
    expect(child.workPapers[0].outcome).toBe('Incomplete data');
    const parent = (await api.get(`fund/${ids.parent}`, token)).body.payload;
    expect(parent.workPapers[0].outcome).toBe('Incomplete data');
    // the QA validations of both work papers say so too, with the line
    expect(child.workPapers[0].qa.incompleteAdjustments.map((a: { reason: string }) => a.reason)).toEqual([
      expect.stringMatching(new RegExp(`^Adjustment #${adjustmentId} line 1 \\(not booked\\) posts to account 9999`)),
    ]);
    expect(parent.workPapers[0].qa.incompleteAdjustments).toEqual([
      { adjustment: adjustmentId, line: 1, reason: expect.stringMatching(new RegExp(`^${CODE}: Adjustment #${adjustmentId} line 1 \\(not booked\\)`)) },
    ]);
    expect(parent.workPapers[0].validation_status).toBe('Invalid');
    const summary = records(wb.getWorksheet('Summary')!);
    const overall = summary.find((r) => Object.values(r)[1] === 'Overall status')!;
    expect(Object.values(overall)[2]).toBe('Incomplete data');
    const line = summary.find((r) => Object.values(r)[1] === 'Audit adjustments')!;
    expect(Object.values(line)).toContain(
      `1 adjustment line(s) do not fit the fund's data: ${CODE}: Adjustment #${adjustmentId} line 1 (not booked) posts to account 9999, which the fund's trial balance does not have and which is not a standard account: the adjusted figures hold an unclassified account. See Exceptions.`,
    );
    const exceptions = records(wb.getWorksheet('Exceptions')!).filter((r) => Object.values(r)[1] === 'Audit adjustments');
    expect(exceptions.map((r) => Object.values(r).slice(2, 4))).toEqual([['Account 9999', 'INCOMPLETE DATA']]);
    expect(Object.values(exceptions[0])).toContain(`${CODE}: Adjustment #${adjustmentId}`);
  });
});
