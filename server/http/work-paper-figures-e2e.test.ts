/**
 * End to end on real data, through the HTTP API: three TPAs of three file formats onboarded with
 * their master mappings (the Goldman Sachs Bond Fund's instrument mapping a custom one), the real
 * fund requests, the TPAs' deliveries through the pipeline; then every figure of every sheet of
 * each work paper is
 * recomputed from the delivered files themselves (parsed here per the TPA's documented layout,
 * mapped with the TPA's mapping files, FX tested against the shipped ECB history, read here on
 * its own) and compared to the cent. Then an unmapped code makes the work paper 'Incomplete data' (recomputed
 * the same way, the code listed with file, line and column), and a new version of the custom
 * mapping shows in the version diff and in the next work paper, whose figures follow it; and with
 * an ECB history that ends 91 days before the period end no FX conclusion is drawn.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../jobs/engine.js';
import { fxDir } from '../services/reference-data/fx-rates.js';
import { allJobs } from '../jobs/stages/index.js';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { readWorkPaper } from '../testing/http-reads.js';
import * as sheets from './work-paper-figures/check-sheets.js';
import { independentRates, readDelivered } from './work-paper-figures/delivered.js';
import { expectedSheets, type MappingVersion, type UnmappedCode } from './work-paper-figures/expected-sheets.js';

const tpaDir = (code: string) => join(fixturesDir(), 'tpas', code);
const inputs = (code: string) => readdirSync(join(tpaDir(code), 'inputs')).map((n) => join(tpaDir(code), 'inputs', n));
const ECB_HISTORY = join(fixturesDir(), 'reference', 'fx', 'eurofxref-hist_2020-onwards.csv');
const realFunds = readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv'), 'utf8');
const CUSTOM = 'gs_bond_instruments';

/** The funds and their TPAs: semicolon CSV reports with decimal comma and title lines, one xlsx workbook, plain comma CSV. */
const FUNDS = [
  { code: 'S000013795', tpa: 'meridian_fund_services', administrator: 'Meridian Fund Services' },
  { code: 'S000012000', tpa: 'keystone_admin', administrator: 'Keystone Administration' },
  { code: 'S000012000', tpa: 'demo_test', administrator: 'Demo TPA' },
] as const;
type Fund = (typeof FUNDS)[number];

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
/** Fund request id by TPA and fund code. */
const fundIds: Record<string, number> = {};
const keyOf = (f: { tpa: string; code: string }) => `${f.tpa}/${f.code}`;

function form(fields: Record<string, string>, files: Array<{ field: string; name: string; bytes: Uint8Array }>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append(file.field, new Blob([new Uint8Array(file.bytes)]), file.name);
  return f;
}
const fileOf = (field: string, path: string, name = path.split('/').pop() as string) => ({ field, name, bytes: readFileSync(path) });

async function call(path: string, fields: Record<string, string>, files: ReturnType<typeof fileOf>[]) {
  const res = await api.call('POST', path, { token, body: form(fields, files) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload;
}

const runPipeline = () => new Engine(ctx, allJobs).drain();

/** The fund request's row of real-funds.csv. */
function fundRow(f: Fund): Record<string, string> {
  const rows = parse(realFunds, { columns: true }) as Record<string, string>[];
  return rows.find((r) => r.fundShortCode === f.code && r.tpa === f.tpa) as Record<string, string>;
}

/** The fund's current work paper, read back from the blob store. */
const workPaper = (f: Fund): Promise<ExcelJS.Workbook> => readWorkPaper(ctx, fundIds[keyOf(f)]!);

/** The mapping versions a fund's standardization applies, from the mappings API: its custom one of a type, else the TPA's master. */
async function mappingsOf(f: Fund): Promise<MappingVersion[]> {
  const all = (await api.get('mappings', token)).body.payload as any[];
  const ofTpa = all.filter((m) => m.administrator.code === f.tpa);
  const out: MappingVersion[] = [];
  for (const type of ['account_mapping', 'file_layout', 'instrument_mapping', 'share_capital_mapping']) {
    const m =
      ofTpa.find((x) => x.type === type && x.kind === 'custom' && x.funds.some((y: any) => y.code === f.code)) ??
      ofTpa.find((x) => x.type === type && x.kind === 'master');
    const current = (await api.get(`mappings/${m.id}/history`, token)).body.payload.versions.find((v: any) => v.current);
    out.push({ type, description: m.description, id: m.id, version: current.version, kind: m.kind, sha256: current.sha256 });
  }
  return out;
}

/** The work paper's expected rows recomputed from the delivered files. */
async function expected(f: Fund, files: string[], opts: { added?: Record<string, string>; unmapped?: UnmappedCode[]; ratesUpTo?: string } = {}) {
  const row = fundRow(f);
  const terms = {
    periodEnd: row.financialEndDate,
    pm: Number(row.PM),
    te: Number(row.TE),
    sad: Number(row.SAD),
    externalValuations: row.externalValuations === 'Y',
  };
  const delivered = await readDelivered(tpaDir(f.tpa), files, { instrument_mapping: opts.added });
  return expectedSheets({
    delivered,
    terms,
    rates: independentRates(ECB_HISTORY, terms.periodEnd, opts.ratesUpTo),
    mappings: await mappingsOf(f),
    unmapped: opts.unmapped,
  });
}

const fundText = (f: Fund) => ({ name: fundRow(f).fundName, code: f.code, administrator: f.administrator, client: fundRow(f).clientName });

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  seedFxRates(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  for (const f of FUNDS) {
    const mappings = readdirSync(join(tpaDir(f.tpa), 'mappings')).map((n) => fileOf('mappings', join(tpaDir(f.tpa), 'mappings', n)));
    await call('sdm-upload/create', { code: f.tpa, name: f.administrator }, mappings);
  }
  // the Goldman Sachs fund gets a custom instrument mapping (the master's rows to begin with)
  await call(
    'mappings/create',
    {
      administrator: 'meridian_fund_services',
      mappingType: 'instrument_mapping',
      mappingMode: 'custom',
      mappingName: CUSTOM,
      rationale: 'bond fund instruments',
    },
    [fileOf('upload', join(tpaDir('meridian_fund_services'), 'mappings', 'instrument_mapping.csv'))],
  );
  const lines = realFunds.split('\n');
  const header = lines[0].split(',');
  const gs = lines.findIndex((l) => l.includes(',meridian_fund_services,S000013795,'));
  const cells = lines[gs].split(',');
  cells[header.indexOf('instrument_mapping')] = CUSTOM;
  lines[gs] = cells.join(',');
  const upload = await call('funds/upload', {}, [{ field: 'upload', name: 'real-funds.csv', bytes: Buffer.from(lines.join('\n')) }]);
  const accepted = (upload.accepted as Array<Record<string, string>>).filter((r) => FUNDS.some((f) => f.tpa === r.tpa && f.code === r.fundShortCode));
  expect(accepted).toHaveLength(FUNDS.length);
  const saved = await api.post('funds', { requestDate: '2023-04-03', funds: accepted }, token);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  for (const s of saved.body.payload.saved) fundIds[keyOf({ tpa: s.tpa, code: s.fundShortCode })] = s.id;
  expect(Object.keys(fundIds)).toHaveLength(FUNDS.length);
  for (const f of FUNDS)
    await call(
      'import/files',
      { administrator: f.tpa },
      inputs(f.tpa).map((p) => fileOf('upload', p)),
    );
  await runPipeline();
}, 120_000);
afterAll(() => ctx?.dispose());

describe.each(FUNDS)('the work paper of $code ($tpa), recomputed from the delivered files', (f) => {
  let wb: ExcelJS.Workbook;
  let e: sheets.ExpectedSheets;
  beforeAll(async () => {
    wb = await workPaper(f);
    e = await expected(f, inputs(f.tpa));
  });

  it('has the sheets in order', async () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Summary',
      'Trial balance',
      'Holdings',
      'Investments reconciliation',
      'Price testing',
      'FX testing',
      'Capital roll-forward',
      'Unadjusted differences',
      'Exceptions',
    ]);
  });
  it('Summary: NAV, holdings, materiality, mappings, every check outcome with its file and lines', () => sheets.checkSummary(wb, e, fundText(f)));
  it('Trial balance: every account and the totals', () => sheets.checkTrialBalance(wb, e));
  it('Holdings: one row per delivered position and the total', () => sheets.checkHoldings(wb, e));
  it('Investments reconciliation', () => sheets.checkInvestments(wb, e));
  it('Price testing', () => sheets.checkPriceTesting(wb, e));
  it('FX testing, with the independent rates, their dates, sources and ages', () => sheets.checkFxTesting(wb, e));
  it('Capital roll-forward', () => sheets.checkCapital(wb, e));
  it('Unadjusted differences: each difference judged against SAD, the aggregate against PM', () => sheets.checkUnadjusted(wb, e));
  it('Exceptions', () => sheets.checkExceptions(wb, e));
});

describe('a code the mapping lacks, a new version of the custom mapping, then only older rates', () => {
  const gs = FUNDS[0];
  const broken = join(tpaDir(gs.tpa), 'broken', 'MFS_HOLDINGS_unknown_instrument.csv');
  const withBroken = () =>
    inputs(gs.tpa)
      .filter((p) => !p.includes('MFS_HOLDINGS_'))
      .concat(broken);

  it("an unmapped code: every sheet recomputed, 'Incomplete data', the code in Exceptions with file, line and column", async () => {
    await call('import/files', { administrator: gs.tpa }, [fileOf('upload', broken)]);
    await runPipeline();
    const e = await expected(gs, withBroken(), {
      unmapped: [{ code: 'BANK LOAN', file: 'MFS_HOLDINGS_unknown_instrument.csv', line: 7, column: 'Asset Class' }],
    });
    expect(e.holdings.find((r) => r[18] === 7)?.[4]).toBe('(unmapped)');
    sheets.checkAllSheets(await workPaper(gs), e, fundText(gs));
  });

  it('version 2 of the custom mapping: the diff names the row, the next work paper names version 2 and follows it', async () => {
    const custom = (await api.get('mappings', token)).body.payload.find((m: any) => m.description === CUSTOM);
    const v1 = readFileSync(join(tpaDir(gs.tpa), 'mappings', 'instrument_mapping.csv'), 'utf8');
    const saved = await call(
      'mappings/create',
      { administrator: gs.tpa, mappingType: 'instrument_mapping', mappingMode: 'update-custom', customId: String(custom.id), rationale: 'bank loans are debt' },
      [{ field: 'upload', name: 'instrument_mapping.csv', bytes: Buffer.from(`${v1.trimEnd()}\nBANK LOAN,DEBT,Bank loans\n`) }],
    );
    expect(saved).toMatchObject({ id: custom.id, version: 2 });
    const diff = (await api.get(`mappings/${custom.id}/diff?from=1&to=2`, token)).body.payload;
    expect(diff).toMatchObject({ added: [{ row: { source_code: 'BANK LOAN', target_code: 'DEBT' } }], removed: [], changed: [] });
    await runPipeline();
    const e = await expected(gs, withBroken(), { added: { 'BANK LOAN': 'DEBT' } });
    expect(e.summary.mappings.find((r) => r[0] === 'instrument_mapping')?.slice(1, 5)).toEqual([CUSTOM, 2, null, 'custom']);
    expect(e.holdings.find((r) => r[18] === 7)?.[19]).toMatch(new RegExp(`^instrument_mapping ${CUSTOM} \\(id ${custom.id}\\) v2: 'BANK LOAN' -> DEBT;`));
    sheets.checkAllSheets(await workPaper(gs), e, fundText(gs));
  });

  it('with an ECB history that ends 91 days before the period end: each currency NOT PERFORMED with its rate date, every figure recomputed', async () => {
    // the data directory's copy of the shipped history, cut after 2022-12-30 (the file is the ECB's, newest first)
    const [head, ...rows] = readFileSync(ECB_HISTORY, 'utf8').split('\n');
    writeFileSync(join(fxDir(ctx), 'eurofxref-hist_2020-onwards.csv'), [head, ...rows.filter((r) => r.slice(0, 10) <= '2022-12-30')].join('\n'));
    const reset = await api.post('fund/reset', { ids: [fundIds[keyOf(gs)]] }, token);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    await runPipeline();
    const e = await expected(gs, withBroken(), { added: { 'BANK LOAN': 'DEBT' }, ratesUpTo: '2022-12-30' });
    expect(e.fxTesting.currencies.length).toBeGreaterThan(0);
    expect(e.fxTesting.currencies.filter((r) => r[9] !== null).map((r) => [r[6], r[9], r[11], r[12]])).toEqual(
      e.fxTesting.currencies.filter((r) => r[9] !== null).map(() => ['NOT PERFORMED', '2022-12-30', 91, 65]),
    );
    expect(e.figures.items.find((i) => i.name === 'FX testing: total impact')?.status).toBe('NOT PERFORMED');
    sheets.checkAllSheets(await workPaper(gs), e, fundText(gs));
  });
});
