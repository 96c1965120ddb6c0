/**
 * End to end on real data, through the HTTP API from an empty data directory: self-onboard the two
 * TPAs with their master mappings, bulk-upload the real fund requests, import the TPAs' files, let
 * the pipeline run, download the export and read the work paper.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../jobs/engine.js';
import { fixturesDir } from '../paths.js';
import { allJobs } from '../jobs/stages/index.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { unzipAll } from '../../pipeline/testing/zips.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

const tpaDir = (code: string) => join(fixturesDir(), 'tpas', code);

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
const fundIds: Record<string, number> = {};

function form(fields: Record<string, string>, files: Array<{ field: string; path: string; name?: string }>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append(file.field, new Blob([readFileSync(file.path)]), file.name ?? file.path.split('/').pop());
  return f;
}

async function onboard(code: string, name: string) {
  const mappings = readdirSync(join(tpaDir(code), 'mappings')).map((m) => ({ field: 'mappings', path: join(tpaDir(code), 'mappings', m) }));
  const res = await api.call('POST', 'sdm-upload/create', { token, body: form({ code, name }, mappings) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload;
}

async function importFiles(code: string, dir: string, names?: string[]) {
  const files = readdirSync(dir)
    .filter((n) => !names || names.includes(n))
    .map((n) => ({ field: 'upload', path: join(dir, n) }));
  const res = await api.call('POST', 'import/files', { token, body: form({ administrator: code }, files) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload as Array<{ id: number; fileName: string }>;
}

const runPipeline = () => new Engine(ctx, allJobs).drain();

/** GS positions priced in a currency the ECB does not quote (CLP, TWD), read from the delivered file. */
const gsNoRateLines = () =>
  readFileSync(join(tpaDir('meridian_fund_services'), 'inputs', 'MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8')
    .split(/\r?\n/)
    .map((l, i) => ({ line: i + 1, ccy: l.split(';')[8] }))
    .filter((x) => x.line > 4 && (x.ccy === 'CLP' || x.ccy === 'TWD'));

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  seedFxRates(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  await onboard('meridian_fund_services', 'Meridian Fund Services');
  await onboard('keystone_admin', 'Keystone Administration');
  const upload = await api.call('POST', 'funds/upload', {
    token,
    body: form({}, [{ field: 'upload', path: join(fixturesDir(), 'fund-requests', 'real-funds.csv') }]),
  });
  const accepted = upload.body.payload.accepted as Array<Record<string, string>>;
  expect(accepted.map((r) => r.tpa)).toEqual(['meridian_fund_services', 'keystone_admin', 'keystone_admin']);
  expect(upload.body.payload.declined[0].errors.faults[0].message).toMatch(/tpa 'demo_test' is not a known TPA/);
  const saved = await api.post('funds', { requestDate: '2023-04-03', funds: accepted }, token);
  for (const s of saved.body.payload.saved) fundIds[s.fundShortCode] = s.id;
  await importFiles('meridian_fund_services', join(tpaDir('meridian_fund_services'), 'inputs'));
  await importFiles('keystone_admin', join(tpaDir('keystone_admin'), 'inputs'));
  await runPipeline();
}, 120_000);
afterAll(() => ctx.dispose());

describe('real funds through the pipeline', () => {
  it('identifies every delivered file for its fund, with no unidentified or unmatched file', async () => {
    const list = (await api.post('import/list', {}, token)).body.payload.rows;
    expect(list.map((r: any) => [r.fileName, r.status, r.type])).toEqual(
      expect.arrayContaining([
        ['MFS_TB_S000013795_20230331.csv', 'Success', 'trial_balance'],
        ['MFS_HOLDINGS_S000013795_20230331.csv', 'Success', 'holdings'],
        ['MFS_PRICES_S000013795_20230331.csv', 'Success', 'prices'],
        ['MFS_CAPITAL_S000013795_20230331.csv', 'Success', 'share_capital'],
        ['KEYSTONE_5493006TF05454RBY690_20221231.xlsx', 'Success', 'trial_balance, holdings, share_capital, prices'],
      ]),
    );
    expect((await api.post('files/not-identified/list', {}, token)).body.payload.rows).toEqual([]);
    expect((await api.post('files/not-matched/list', {}, token)).body.payload.rows).toEqual([]);
  });

  it('standardizes the Goldman Sachs Bond Fund: 1,685 positions, every file Valid', async () => {
    const d = (await api.get(`fund/${fundIds.S000013795}`, token)).body.payload;
    expect(d.inputFiles.map((f: any) => [f.fileType, f.status])).toEqual(
      expect.arrayContaining([
        ['holdings', 'assigned'],
        ['trial_balance', 'assigned'],
        ['prices', 'assigned'],
        ['share_capital', 'assigned'],
      ]),
    );
    const holdings = d.standardizationFiles.find((f: any) => f.fileType === 'holdings');
    expect(holdings).toMatchObject({ rowCount: 1685, validation_status: 'Valid' });
    expect(d.standardizationFiles.every((f: any) => f.validation_status === 'Valid' && f.validation.QA_Mapping.length === 0)).toBe(true);
  });

  it('computes the checks with their expected outcome on real figures', async () => {
    const gs = (await api.get(`fund/${fundIds.S000013795}`, token)).body.payload.calculationFiles[0].validation;
    expect(gs.nav).toBeCloseTo(361898455.93, 2);
    const byCheck = (items: any[], check: string) => [...new Set(items.filter((i) => i.check === check).map((i) => i.status))];
    expect(byCheck(gs.QA_Rec, 'tb_balance')).toEqual(['pass']);
    expect(byCheck(gs.QA_Rec, 'investments_reconciliation')).toEqual(['pass']);
    expect(byCheck(gs.QA_Rec, 'nav')).toEqual(['pass']);
    // the TPA's own prices are no evidence: price testing is not performed
    expect(gs.QA_Rec.find((i: any) => i.check === 'price_testing')).toMatchObject({ status: 'warning', notPerformed: expect.stringContaining("TPA's own") });
    // FX testing against the shipped ECB history: CLP and TWD (the ECB quotes neither) NOT PERFORMED, named per currency
    expect(gsNoRateLines().length).toBeGreaterThan(0);
    const fx = gs.QA_Rec.filter((i: any) => i.check === 'fx_testing');
    expect(fx.filter((i: any) => i.notPerformed).map((i: any) => [i.name, i.notPerformed])).toEqual([
      ['FX CLP', 'no independent CLP rate per USD dated on or before the period end 2023-03-31'],
      ['FX TWD', 'no independent TWD rate per USD dated on or before the period end 2023-03-31'],
    ]);
    const total = fx.find((i: any) => i.name === 'FX testing: total impact');
    expect(total.status).toBe('pass');
    expect(total.details).toMatchObject({ tested: 21, tolerancePct: 0.5, maxAgeBusinessDays: 5 });
    expect(total.details.currencies.find((c: any) => c.currency === 'SEK')).toMatchObject({
      rateDate: '2023-03-31',
      independentRate: 11.2805 / 1.0875,
      rateSource: 'eurofxref-hist_2020-onwards.csv ECB 2023-03-31: 11.2805 SEK per EUR / 1.0875 USD per EUR',
    });
    expect(byCheck(gs.QA_Rec, 'capital_roll_forward')).toEqual(['pass']);
    // eight securities are held twice (long and short legs): flagged for review, not failed
    expect(gs.QA_Rec.filter((i: any) => i.check === 'holdings_integrity' && i.status === 'warning')).toHaveLength(8);
    // passes: 7 of the other checks, 21 currencies and FX testing's total; warnings: price testing, CLP, TWD, the 8 two-leg ids
    expect(gs.summary).toEqual({ pass: 29, warning: 11, fail: 0 });
    // the work paper's QA Validations popover carries the calculation checks: the warnings in orange, the
    // checks not performed (price testing, FX CLP and TWD) as such; its outcome is the Summary's
    const gsFund = (await api.get(`fund/${fundIds.S000013795}`, token)).body.payload;
    expect(gsFund.workPapers[0].qa.failed).toEqual([]);
    expect(gsFund.workPapers[0].qa.warnings).toHaveLength(8);
    expect(gsFund.workPapers[0].qa.notPerformed).toHaveLength(3);
    expect(gsFund.workPapers[0].qa.incompleteData).toEqual([]);
    expect(gsFund.workPapers[0].outcome).toBe('WARNING');
    expect(gsFund.workPapers[0].statusLabel).toBe('Not released');
    const dupree = (await api.get(`fund/${fundIds.S000012000}`, token)).body.payload.calculationFiles[0].validation;
    expect(dupree.nav).toBeCloseTo(41349926.01, 2);
    // external valuations N: price testing is not performed, which is never a pass
    expect(dupree.summary).toEqual({ pass: 9, warning: 1, fail: 0 });
    expect(dupree.QA_Rec.find((i: any) => i.check === 'price_testing')).toMatchObject({
      status: 'warning',
      notPerformed: expect.stringContaining('external_valuations = N'),
    });
  });

  it('exports the work paper, whose Summary shows the real net assets as a number', async () => {
    const requested = await api.post('export/files', { fundRequests: [fundIds.S000013795], fundRequestStages: ['visualization', 'calculations'] }, token);
    expect(requested.body.message).toBe('Successfully added to Queue.');
    await runPipeline();
    const [exp] = (await api.post('export/files/list', {}, token)).body.payload.rows;
    expect(exp.status).toBe('done');
    const dl = (await api.get('export/token', token)).body.payload.token;
    const res = await api.app.fetch(new Request(`http://t/api/v2.0/export/file/${exp.id}?token=${dl}`));
    expect(res.status).toBe(200);
    const zip = await unzipAll(new Uint8Array(await res.arrayBuffer()));
    const names = [...zip.keys()];
    expect(names).toContain('fund_S000013795_dd_2023-04-30_work_papers.xlsx');
    expect(names).toContain('fund_S000013795_dd_2023-04-30_calculations.csv');
    // calculations.csv: every item names its file and line(s); an item over the whole trial balance
    // names the TB report and the lines of its data rows (after the report's 4 title and header lines)
    const tbLines = readFileSync(join(tpaDir('meridian_fund_services'), 'inputs', 'MFS_TB_S000013795_20230331.csv'), 'utf8')
      .split(/\r?\n/)
      .map((l, i) => [l, i + 1] as const)
      .filter(([l, i]) => i > 4 && l.trim());
    const calc = parse(
      zip
        .get('fund_S000013795_dd_2023-04-30_calculations.csv')!
        .toString('utf8')
        .replace(/^\ufeff/, ''),
      { columns: true },
    ) as Array<Record<string, string>>;
    expect(calc.length).toBeGreaterThan(10);
    expect(calc.filter((r) => !r.file || !r.line).map((r) => r.name)).toEqual([]);
    expect(calc.find((r) => r.name === 'Trial balance sums to zero')).toMatchObject({
      file: 'MFS_TB_S000013795_20230331.csv',
      line: `${tbLines[0][1]}-${tbLines.at(-1)![1]}`,
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(zip.get('fund_S000013795_dd_2023-04-30_work_papers.xlsx') as unknown as ArrayBuffer);
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
    const values: unknown[] = [];
    wb.getWorksheet('Summary')!.eachRow((row) => row.eachCell((cell) => values.push(cell.value)));
    expect(values).toContain(361898455.93);
    // lineage: one Holdings row per delivered line, with the file as delivered, the line, the
    // mapping version the standardization recorded and the independent rate with its date
    const delivered = readFileSync(join(tpaDir('meridian_fund_services'), 'inputs', 'MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8')
      .split(/\r?\n/)
      .map((l) => l.split(';'));
    const ws = wb.getWorksheet('Holdings')!;
    const head = (ws.getRow(1).values as unknown[]).map(String);
    const col = (name: string) => head.indexOf(name);
    let rows = 0;
    let cents = 0;
    for (let r = 2; r <= ws.rowCount && ws.getRow(r).getCell(col('File')).value; r++, rows++) {
      const row = ws.getRow(r);
      const line = row.getCell(col('Line')).value as number;
      const cells = delivered[line - 1];
      expect(row.getCell(col('File')).value).toBe('MFS_HOLDINGS_S000013795_20230331.csv');
      expect(row.getCell(col('Security id')).value).toBe(cells[2]);
      const value = Number(cells[11].replace(/\./g, '').replace(',', '.'));
      expect(row.getCell(col('Value base (USD)')).value).toBe(value);
      cents += Math.round(value * 100);
      expect(String(row.getCell(col('Mapping rows applied')).value)).toMatch(
        new RegExp(`^instrument_mapping meridian_fund_services_instrument_mapping \\(id \\d+\\) v1: '${cells[5]}' -> [A-Z_]+; file_layout `),
      );
      if (cells[8] === 'SEK') {
        // the ECB's 11.2805 SEK / 1.0875 USD per EUR, to 12 significant digits
        expect(row.getCell(col('Independent FX rate')).value).toBe(Number((11.2805 / 1.0875).toPrecision(12)));
        expect((row.getCell(col('Rate date')).value as Date).toISOString().slice(0, 10)).toBe('2023-03-31');
      }
    }
    expect(rows).toBe(1685);
    expect(cents / 100).toBe(376129711.56);
  });
});

describe('broken files', () => {
  it('reports the specific problem of each and loses nothing already processed', async () => {
    const before = (await api.get(`fund/${fundIds.S000013795}`, token)).body.payload;
    const broken = join(tpaDir('meridian_fund_services'), 'broken');
    const imported = await importFiles('meridian_fund_services', broken, ['MFS_HOLDINGS_wrong_layout.csv', 'MFS_HOLDINGS_unknown_fund.csv']);
    expect(imported).toHaveLength(2);
    await runPipeline();
    const unidentified = (await api.post('files/not-identified/list', {}, token)).body.payload.rows;
    expect(unidentified).toHaveLength(1);
    expect(unidentified[0].file_name).toBe('MFS_HOLDINGS_wrong_layout.csv');
    expect(unidentified[0].errors[0]).toMatchObject({ error_code: 'UNIDENTIFIED', closest_match: 'holdings', column_match_percent: 75 });
    expect(unidentified[0].errors[0].columns_missing).toEqual(expect.arrayContaining(['Sec ID', 'Price']));
    const unmatched = (await api.post('files/not-matched/list', {}, token)).body.payload.rows;
    expect(unmatched.map((u: any) => [u.file_name, u.fund_code])).toEqual([['MFS_HOLDINGS_unknown_fund.csv', 'NOFUND0001']]);
    const after = (await api.get(`fund/${fundIds.S000013795}`, token)).body.payload;
    expect(after.inputFiles.length).toBe(before.inputFiles.length);
    expect(after.calculationFiles[0].validation.nav).toBeCloseTo(361898455.93, 2);
  });

  it('marks a delivery with an unmapped code or bad numbers Invalid, naming the code, line and column', async () => {
    const broken = join(tpaDir('meridian_fund_services'), 'broken');
    await importFiles('meridian_fund_services', broken, ['MFS_HOLDINGS_unknown_instrument.csv']);
    await runPipeline();
    let d = (await api.get(`fund/${fundIds.S000013795}`, token)).body.payload;
    let holdings = d.standardizationFiles.find((f: any) => f.fileType === 'holdings');
    expect(holdings.validation_status).toBe('Invalid');
    expect(holdings.validation.QA_Mapping).toEqual([expect.objectContaining({ name: 'BANK LOAN', column: 'Asset Class', lines: [7] })]);
    expect(holdings.qa.failed).toEqual([
      { kind: 'mapping', status: 'fail', column: 'Asset Class', file: expect.any(String), name: 'BANK LOAN', error: expect.any(String) },
    ]);
    expect(holdings.statusLabel).toBe('In review');
    // the replaced holdings delivery's standardization says which replaced it, and keeps a status the spec names
    const holdingsStd = d.standardizationFiles.filter((f: any) => f.fileType === 'holdings');
    expect(holdingsStd.map((f: any) => [f.id === holdings.id, f.current, f.statusLabel])).toEqual([
      [true, true, 'In review'],
      [false, false, 'In review'],
    ]);
    expect(holdingsStd[1].supersededBy).toMatchObject({ id: holdings.id, filename: holdings.filename });
    // the work paper written over it says Incomplete data, and the fund details say so with the file
    expect(d.workPapers[0].outcome).toBe('Incomplete data');
    expect(d.workPapers[0].qa.incompleteData).toEqual([{ file: 'MFS_HOLDINGS_unknown_instrument.csv', sdmType: 'holdings', unmappedCodes: 1, rowErrors: 0 }]);
    await importFiles('meridian_fund_services', broken, ['MFS_HOLDINGS_bad_numbers.csv']);
    await runPipeline();
    d = (await api.get(`fund/${fundIds.S000013795}`, token)).body.payload;
    holdings = d.standardizationFiles.find((f: any) => f.fileType === 'holdings');
    expect(holdings.validation.rowErrors).toEqual(
      expect.arrayContaining([expect.objectContaining({ line: 6, column: 'Nominal' }), expect.objectContaining({ line: 9, column: 'Market Value USD' })]),
    );
    // the trial balance and the other deliveries are untouched
    expect(d.standardizationFiles.find((f: any) => f.fileType === 'trial_balance')).toMatchObject({ rowCount: 8, validation_status: 'Valid' });
  });
});
