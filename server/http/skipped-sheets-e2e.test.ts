/**
 * A workbook's sheet that no file layout matches (a 'Read Me' the TPA put in front of its data) is
 * named, not silently dropped: on the input files of the Files tab (fund details), in the import's
 * outcome the `import` command prints, and in the work paper's Summary. Keystone's real workbook
 * of the Kentucky Tax-Free Short-to-Medium Series, with a 'Read Me' sheet added as TPAs do.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../jobs/engine.js';
import { allJobs } from '../jobs/stages/index.js';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { readWorkPaper } from '../testing/http-reads.js';

const TPA = 'keystone_admin';
const WORKBOOK = 'KEYSTONE_5493006TF05454RBY690_20221231.xlsx';
const tpaDir = join(fixturesDir(), 'tpas', TPA);

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
let fundId: number;
let dataSheets: string[];

async function call(path: string, fields: Record<string, string>, files: string[], field = 'upload') {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const p of files) f.append(field, new Blob([readFileSync(p)]), p.split('/').pop());
  const res = await api.call('POST', path, { token, body: f });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload;
}

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  seedFxRates(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  const mappings = join(tpaDir, 'mappings');
  await call(
    'sdm-upload/create',
    { code: TPA, name: 'Keystone Administration' },
    readdirSync(mappings).map((m) => join(mappings, m)),
    'mappings',
  );
  const upload = await call('funds/upload', {}, [join(fixturesDir(), 'fund-requests', 'real-funds.csv')]);
  const accepted = (upload.accepted as Array<Record<string, string>>).filter((r) => r.tpa === TPA && r.fundShortCode === 'S000012000');
  expect(accepted).toHaveLength(1);
  const saved = await api.post('funds', { requestDate: '2023-01-03', funds: accepted }, token);
  fundId = saved.body.payload.saved[0].id;
  // the delivered workbook with a 'Read Me' sheet in front of its data sheets
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(join(tpaDir, 'inputs', WORKBOOK));
  dataSheets = wb.worksheets.map((w) => w.name);
  const readMe = wb.addWorksheet('Read Me');
  readMe.addRow(['About this workbook']);
  readMe.addRow(['One sheet per report of the period end; amounts in USD.']);
  wb.worksheets.unshift(wb.worksheets.pop()!);
  const file = join(mkdtempSync(join(tmpdir(), 'fa-skipped-')), WORKBOOK);
  writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
  await call('import/files', { administrator: TPA }, [file]);
  await new Engine(ctx, allJobs).drain();
}, 120_000);
afterAll(() => ctx?.dispose());

describe("a workbook's 'Read Me' sheet", () => {
  it('does not stop the data sheets: each is identified and standardized into a work paper', async () => {
    expect(dataSheets).toHaveLength(4);
    const fund = (await api.get(`fund/${fundId}`, token)).body.payload;
    expect(fund.inputFiles.map((f: { filename: string }) => f.filename).sort()).toEqual(dataSheets.map((s) => `${WORKBOOK}#${s}`).sort());
    expect(fund.workPapers).toHaveLength(1);
  });

  it('is named on every input file taken from the workbook (Files tab), with why it was not used', async () => {
    const fund = (await api.get(`fund/${fundId}`, token)).body.payload;
    for (const f of fund.inputFiles as Array<{ filename: string; validation: { skippedSheets?: Array<{ sheet: string; reason: string }> } | null }>) {
      expect(
        f.validation?.skippedSheets?.map((s) => s.sheet),
        f.filename,
      ).toEqual(['Read Me']);
      expect(f.validation!.skippedSheets![0].reason).toBeTruthy();
    }
  });

  it("is in the import's outcome (what `fund-audit import` prints as notUsed)", async () => {
    const list = await api.post('import/list', {}, token);
    const rows = (list.body.payload.rows ?? list.body.payload) as Array<{
      fileName: string;
      status: string;
      payload: { skippedSheets?: Array<{ sheet: string }> };
    }>;
    const imp = rows.find((r) => r.fileName === WORKBOOK)!;
    expect(imp.status).toBe('Success');
    expect(imp.payload.skippedSheets?.map((s) => s.sheet)).toEqual(['Read Me']);
  });

  it("is named in the work paper's Summary", async () => {
    const summary = (await readWorkPaper(ctx, fundId)).getWorksheet('Summary')!;
    let row: unknown[] | undefined;
    summary.eachRow((r) => {
      if (r.getCell(1).value === 'Sheets not used') row = (r.values as unknown[]).slice(1);
    });
    expect(row?.[1]).toBe('1 sheet(s)');
    expect(String(row?.[7])).toMatch(new RegExp(`^${WORKBOOK.replace(/\./g, '\\.')}: Sheet 'Read Me' not used: `));
  });
});
