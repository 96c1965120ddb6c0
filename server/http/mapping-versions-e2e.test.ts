/**
 * End to end on the real Goldman Sachs Bond Fund delivery, through the HTTP API: mapping versions
 * (self-onboarding gives version 1, an upload version 2, the diff names the rows, each version names
 * the funds it fed, the next work paper's Summary names the version applied), honest outcomes (an
 * unmapped code makes the work paper 'Incomplete data' with the code's file, line and column in its
 * Exceptions), the fund reset re-identifying the fund's files, the same rows delivered again not
 * attached twice, and the work-paper label of a fund whose work paper is not released yet.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { Engine } from '../jobs/engine.js';
import { allJobs } from '../jobs/stages/index.js';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { readWorkPaper } from '../testing/http-reads.js';
import { AUDITOR_FILE_STATUSES } from '../../rules/index.js';

const tpa = 'meridian_fund_services';
const tpaDir = join(fixturesDir(), 'tpas', tpa);

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
let gs: number;
let gsRow: Record<string, string>;

function form(fields: Record<string, string>, files: Array<{ field: string; name: string; bytes: Uint8Array }>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append(file.field, new Blob([new Uint8Array(file.bytes)]), file.name);
  return f;
}

async function importFiles(dir: string, names: string[]) {
  const files = names.map((name) => ({ field: 'upload', name, bytes: readFileSync(join(dir, name)) }));
  const res = await api.call('POST', 'import/files', { token, body: form({ administrator: tpa }, files) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload as Array<{ id: number; fileName: string; status: string; payload: Record<string, unknown> }>;
}

const runPipeline = () => new Engine(ctx, allJobs).drain();
const fund = async () => (await api.get(`fund/${gs}`, token)).body.payload;

/** The fund's current work paper, read back from the blob store. */
const workPaper = () => readWorkPaper(ctx, gs);

/** Rows of a sheet as arrays of cell values (1-based columns as in Excel, index 0 unused). */
function rows(wb: ExcelJS.Workbook, sheet: string): unknown[][] {
  const out: unknown[][] = [];
  wb.getWorksheet(sheet)!.eachRow((r) => out.push(r.values as unknown[]));
  return out;
}
const rowOf = (all: unknown[][], first: string) => all.find((r) => r[1] === first);

async function masterOf(type: string) {
  return (await api.get('mappings', token)).body.payload.find((m: any) => m.administrator.code === tpa && m.type === type && m.kind === 'master');
}

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  seedFxRates(ctx);
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  const mappings = readdirSync(join(tpaDir, 'mappings')).map((name) => ({ field: 'mappings', name, bytes: readFileSync(join(tpaDir, 'mappings', name)) }));
  const onboard = await api.call('POST', 'sdm-upload/create', { token, body: form({ code: tpa, name: 'Meridian Fund Services' }, mappings) });
  expect(onboard.status, JSON.stringify(onboard.body)).toBe(200);
  const upload = await api.call('POST', 'funds/upload', {
    token,
    body: form({}, [{ field: 'upload', name: 'real-funds.csv', bytes: readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv')) }]),
  });
  const accepted = (upload.body.payload.accepted as Array<Record<string, string>>).filter((r) => r.tpa === tpa);
  gsRow = accepted[0];
  const saved = await api.post('funds', { requestDate: '2023-04-03', funds: accepted }, token);
  gs = saved.body.payload.saved.find((s: any) => s.fundShortCode === 'S000013795').id;
  const inputs = join(tpaDir, 'inputs');
  await importFiles(inputs, readdirSync(inputs));
  await runPipeline();
}, 120_000);
afterAll(() => ctx.dispose());

describe('a work paper made but not released', () => {
  it("reads 'Partially available' on Fund details and the listing, not 'Not available'", async () => {
    const d = await fund();
    expect(d.workPapers).toHaveLength(1);
    expect(d.workPapers[0].statusLabel).toBe('Not released');
    expect(d.workPaperStatusUIField).toBe('Partially available');
    const listing = (await api.post('funds/listing', { pagination: { limit: 50 } }, token)).body.payload.rows;
    expect(listing.find((r: any) => r.id === gs).workPaperStatusUIField).toBe('Partially available');
  });
});

describe('mapping versions', () => {
  it('self-onboarding made version 1 of each master mapping, and the version records the funds it fed', async () => {
    const m = await masterOf('instrument_mapping');
    expect(m.version).toBe(1);
    // a master mapping in use names the funds it feeds (not only custom mappings do)
    expect(m.funds.map((f: any) => f.code)).toContain('S000013795');
    const h = (await api.get(`mappings/${m.id}/history`, token)).body.payload;
    expect(h.versions).toMatchObject([{ version: 1, current: true, reason: 'self-onboarding', funds: [{ id: gs, code: 'S000013795' }] }]);
    expect(h.versions[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    // the work paper's Summary names every mapping version applied
    const summary = rows(await workPaper(), 'Summary');
    const applied = rowOf(summary, 'instrument_mapping')!;
    expect([applied[2], applied[3], applied[5]]).toEqual([`${tpa}_instrument_mapping`, 1, 'master']);
    expect(applied[8]).toBe(`mapping id ${m.id}, version 1, sha256 ${h.versions[0].sha256}`);
    expect(rowOf(summary, 'file_layout')).toBeDefined();
  });

  it("an unmapped code makes the work paper 'Incomplete data', its Exceptions naming the code's file, line and column", async () => {
    await importFiles(join(tpaDir, 'broken'), ['MFS_HOLDINGS_unknown_instrument.csv']);
    await runPipeline();
    const wb = await workPaper();
    const summary = rows(wb, 'Summary');
    expect(rowOf(summary, 'Overall status')![2]).toBe('Incomplete data');
    expect(rowOf(summary, 'Standardization')![2]).toBe('Invalid');
    expect(String(rowOf(summary, 'Standardization')![8])).toContain('MFS_HOLDINGS_unknown_instrument.csv (holdings): 1 unmapped code(s), 0 row error(s)');
    const exceptions = rows(wb, 'Exceptions');
    expect(exceptions[0].slice(1)).toEqual(['Check', 'Item', 'Status', 'Difference', 'Threshold', 'Message', 'File', 'Line', 'Column']);
    const unmapped = exceptions.find((r) => r[2] === 'Unmapped code BANK LOAN')!;
    expect([unmapped[1], unmapped[3], unmapped[7], unmapped[8], unmapped[9]]).toEqual([
      'Standardization',
      'INCOMPLETE DATA',
      'MFS_HOLDINGS_unknown_instrument.csv',
      7,
      'Asset Class',
    ]);
    const d = await fund();
    expect(d.workPapers[0].validation_status).toBe('Invalid');
  });

  it('an upload adds version 2: the history, the diff and the next work paper say so, and version 1 stays downloadable', async () => {
    const m = await masterOf('instrument_mapping');
    const v1 = readFileSync(join(tpaDir, 'mappings', 'instrument_mapping.csv'), 'utf8');
    const v2 = `${v1.trimEnd()}\nBANK LOAN,DEBT,Bank loans\n`.replace('ABS-O,DEBT,ABS - other', 'ABS-O,DEBT,ABS - other asset-backed');
    const res = await api.call('POST', 'mappings/create', {
      token,
      body: form({ administrator: tpa, mappingType: 'instrument_mapping', mappingMode: 'master', rationale: 'bank loans are debt' }, [
        { field: 'upload', name: 'instrument_mapping.csv', bytes: Buffer.from(v2) },
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payload).toMatchObject({ id: m.id, version: 2 });

    const h = (await api.get(`mappings/${m.id}/history`, token)).body.payload;
    expect(h.versions.map((v: any) => [v.version, v.current, v.reason, v.fileName])).toEqual([
      [2, true, 'bank loans are debt', 'instrument_mapping.csv'],
      [1, false, 'self-onboarding', null],
    ]);
    expect(h.versions[0].sha256).not.toBe(h.versions[1].sha256);
    const diff = (await api.get(`mappings/${m.id}/diff?from=1&to=2`, token)).body.payload;
    expect(diff.added).toEqual([{ key: 'bank loan', row: { source_code: 'BANK LOAN', target_code: 'DEBT', description: 'Bank loans' } }]);
    expect(diff.removed).toEqual([]);
    expect(diff.changed).toEqual([
      {
        key: 'abs-o',
        columns: ['description'],
        from: { source_code: 'ABS-O', target_code: 'DEBT', description: 'ABS - other' },
        to: { source_code: 'ABS-O', target_code: 'DEBT', description: 'ABS - other asset-backed' },
      },
    ]);
    const bad = await api.get(`mappings/${m.id}/diff?from=1&to=7`, token);
    expect(bad.status).toBe(404);
    expect(bad.body.errors[0]).toBe(`Mapping ${tpa}_instrument_mapping (id ${m.id}) has no version 7; it has versions 1 to 2`);

    // the upload reran the fund: version 2 fed it, the work paper is complete again and names version 2
    await runPipeline();
    const after = (await api.get(`mappings/${m.id}/history`, token)).body.payload;
    expect(after.versions[0].funds.map((f: any) => f.id)).toEqual([gs]);
    expect(after.versions[1].funds.map((f: any) => f.id)).toEqual([gs]);
    const summary = rows(await workPaper(), 'Summary');
    expect(rowOf(summary, 'instrument_mapping')![3]).toBe(2);
    expect(rowOf(summary, 'Overall status')![2]).not.toBe('Incomplete data');

    const dl = (await api.get('export/token', token)).body.payload.token;
    const old = await api.app.fetch(new Request(`http://t/api/v2.0/mappings/download?id=${m.id}&version=1&token=${dl}`));
    expect(old.status).toBe(200);
    expect(old.headers.get('content-disposition')).toContain(`${tpa}_instrument_mapping_v1.csv`);
    const text = await old.text();
    expect(text).toContain('ABS-O,DEBT,ABS - other\r\n');
    expect(text).not.toContain('BANK LOAN');
  });
});

describe('fund reset and deliveries', () => {
  it('reset identifies every file delivered to the fund again and the pipeline runs through', async () => {
    const before = (await fund()).inputFiles.length;
    const res = await api.post('fund/reset', { ids: [gs] }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await runPipeline();
    const { db, tables: t } = storeOf(ctx);
    const jobs = await db
      .select()
      .from(t.processes)
      .where(and(eq(t.processes.fundRequestId, gs), eq(t.processes.stage, 'identification')));
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.map((j) => [j.status, (j.payload as { error?: string }).error ?? null])).toEqual(jobs.map(() => ['done', null]));
    const d = await fund();
    expect(d.inputFiles).toHaveLength(before);
    expect(d.inputFiles.filter((f: any) => f.status === 'pending')).toEqual([]);
    expect(d.workPapers).toHaveLength(1);
  });

  it('a file delivered before its fund request existed, then delivered again, is attached once and processed', async () => {
    const broken = join(tpaDir, 'broken');
    const [early] = await importFiles(broken, ['MFS_HOLDINGS_unknown_fund.csv']);
    await runPipeline();
    // the fund request is created: the waiting file is identified again for it
    const saved = await api.post(
      'funds',
      { requestDate: '2023-04-03', funds: [{ ...gsRow, fundShortCode: 'NOFUND0001', fundName: 'Late Request Fund' }] },
      token,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.payload.saved[0].id;
    // ... and the TPA delivers the file again meanwhile (the first delivery had failed: not a duplicate)
    const [again] = await importFiles(broken, ['MFS_HOLDINGS_unknown_fund.csv']);
    expect(again.status).toBe('Awaiting');
    await runPipeline();
    const d = (await api.get(`fund/${id}`, token)).body.payload;
    expect(d.inputFiles.map((f: any) => [f.fileType, f.importFileId, f.status])).toEqual([['holdings', early.id, 'assigned']]);
    expect(d.standardizationFiles).toHaveLength(1);
  });

  it('the same rows delivered again in another file are not attached twice; an older delivery says it was superseded', async () => {
    const inputs = join(tpaDir, 'inputs');
    const holdings = readdirSync(inputs).find((n) => n.startsWith('MFS_HOLDINGS_S000013795'))!;
    const before = (await fund()).inputFiles.length;
    // the same bytes: noticed at import, not processed again
    const [dup] = await importFiles(inputs, [holdings]);
    expect(dup.status).toBe('Finished');
    expect(dup.payload.warning).toMatch(/^The same file was already imported as/);
    // the same rows under another import (one byte more: a trailing line end)
    const copy = Buffer.concat([readFileSync(join(inputs, holdings)), Buffer.from('\n')]);
    const res = await api.call('POST', 'import/files', { token, body: form({ administrator: tpa }, [{ field: 'upload', name: holdings, bytes: copy }]) });
    expect(res.status).toBe(200);
    await runPipeline();
    const d = await fund();
    expect(d.inputFiles).toHaveLength(before);
    expect(d.inputFiles.filter((f: any) => f.status === 'pending')).toEqual([]);
    // the holdings delivered twice (the original and the unknown-instrument file): the newest is current
    const held = d.inputFiles.filter((f: any) => f.fileType === 'holdings');
    expect(held.filter((f: any) => f.current)).toHaveLength(1);
    const older = held.find((f: any) => !f.current);
    expect(older).toMatchObject({ supersededBy: { id: held.find((f: any) => f.current).id } });
    expect(AUDITOR_FILE_STATUSES).toContain(older.statusLabel);
  });
});
