import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../jobs/engine.js';
import { exportFiles, orchestrationLogs, processes } from '../../db/schema/index.js';
import { createTestContext, type TestContext, errorOf } from '../../testing/context.js';
import type { User } from '../auth/tokens.js';
import { addUser, ensureAdmin } from '../users/users.js';
import { csvLine } from './csv.js';
import { exportStageHandler, NOTHING_TO_EXPORT } from '../../jobs/exports/job.js';
import { deleteOldExports, exportDownload, listExports, requestExport, type ExportRequest } from './exports.js';
import { safeCellText } from '../../../pipeline/work-papers/safe-cell.js';
import { RAW_HOLDINGS, seedExportFund, zipEntry, zipNames } from '../../testing/export-fund.js';

let ctx: TestContext;
let admin: User;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  admin = (await ensureAdmin(ctx, ctx.config.adminEmail)).user;
});
afterEach(() => ctx.dispose());

const ALL = ['visualization', 'calculations', 'standardization', 'identification', 'import', 'fundRequest'];
const run = () => new Engine(ctx, { export: exportStageHandler }).drain();

/** Requests an export, runs it and returns the row and the zip's path. */
async function exportOf(input: ExportRequest, user = admin) {
  const view = await requestExport(ctx, user, input);
  await run();
  const row = ctx.db
    .select()
    .from(exportFiles)
    .all()
    .find((r) => r.id === view.id)!;
  return { view, row, zip: row.blobKey ? ctx.blobs.path(row.blobKey) : '' };
}

describe('safe cells and csv', () => {
  it('neutralises formula text and keeps numbers as numbers', async () => {
    expect(['=SUM(A1)', '+1', '-x', '@a', '\tx', 'a=b', ''].map(safeCellText)).toEqual(["'=SUM(A1)", "'+1", "'-x", "'@a", "'\tx", 'a=b', '']);
    expect(csvLine([-1234567.5, 'Client, "Q"', '-5', true, null, { a: '=1' }])).toBe('-1234567.5,"Client, ""Q""",\'-5,Yes,,"{""a"":""=1""}"\r\n');
  });
});

describe('requestExport', () => {
  it('validates funds and stages', async () => {
    const f = await seedExportFund(ctx);
    expect((await errorOf(() => requestExport(ctx, admin, { fundRequests: [], fundRequestStages: ['calculations'] }))).message).toBe(
      'Choose at least one fund request to download',
    );
    expect((await errorOf(() => requestExport(ctx, admin, { fundRequests: [f.id], fundRequestStages: [] }))).message).toBe(
      'Choose at least one stage to download',
    );
    const unknown = await errorOf(() => requestExport(ctx, admin, { fundRequests: [f.id], fundRequestStages: ['calculations', 'users'] }));
    expect([unknown.status, unknown.message]).toEqual([400, 'Unknown stage: users']);
    const missing = await errorOf(() => requestExport(ctx, admin, { fundRequests: [f.id, 999], fundRequestStages: ['calculations'] }));
    expect([missing.status, missing.message]).toEqual([400, 'No such fund request with id: 999']);
    expect(ctx.db.select().from(exportFiles).all()).toHaveLength(0);
  });

  it('creates a pending export with its funds and queues one export job', async () => {
    const f = await seedExportFund(ctx);
    const events: string[] = [];
    ctx.events.on('export', (e) => events.push(`${e.id}:${e.status}`));
    const view = await requestExport(ctx, admin, { fundRequests: [f.id, f.id], fundRequestStages: ['calculations', 'visualization'] });
    expect(view).toMatchObject({
      status: 'pending',
      user_auth_id: admin.id,
      administrators: ['Exports TPA'],
      finished_at: null,
      payload: {
        inputs: {
          fundRequests: [f.id],
          fundRequestStages: ['visualization', 'calculations'],
          excludeDisabledVisualizations: false,
          reviewedVisualizationsOnly: false,
        },
        fund_requests: { [f.id]: { name: 'Fund LUX01', fundCode: 'LUX01', client: 'Client, "Quoted"', administrator: 'Exports TPA' } },
      },
    });
    expect(view.fileName).toMatch(new RegExp(`^fund_export_${view.id}_\\d{8}\\.zip$`));
    expect(
      ctx.db
        .select()
        .from(processes)
        .all()
        .map((p) => [p.stage, p.fundRequestId, p.payload]),
    ).toEqual([['export', null, { exportId: view.id }]]);
    expect(events).toEqual([`${view.id}:pending`]);
  });
});

describe('the export job', () => {
  it('goes pending -> running -> done and writes one zip with the spec file names', async () => {
    const f = await seedExportFund(ctx);
    const events: string[] = [];
    ctx.events.on('export', (e) => events.push(e.status));
    const { row, zip } = await exportOf({ fundRequests: [f.id], fundRequestStages: ALL });
    expect(events).toEqual(['pending', 'running', 'done']);
    expect(row.status).toBe('done');
    expect(row.finishedAt).toBeTruthy();
    expect(row.blobKey).toMatch(/^[a-f0-9]{64}$/);
    expect(zipNames(zip)).toEqual([
      'fund_list.csv',
      `${f.prefix}_work_papers.xlsx`,
      `${f.prefix}_calculations.csv`,
      `${f.prefix}_standardization_holdings.csv`,
      `${f.prefix}_identification_holdings.csv`,
      `${f.prefix}_input_files/holdings 2024.csv`,
      `${f.prefix}_logs.csv`,
      `${f.prefix}_errors.csv`,
    ]);
    expect(row.payload).toMatchObject({ files: 8 });
    expect(zipEntry(zip, `${f.prefix}_input_files/holdings 2024.csv`).toString('utf8')).toBe(RAW_HOLDINGS);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(zipEntry(zip, `${f.prefix}_work_papers.xlsx`) as never);
    expect(wb.worksheets[0].name).toBe('WP LUX01');
  });

  it('writes csv with a BOM, neutralised text and plain numbers', async () => {
    const f = await seedExportFund(ctx);
    const { zip } = await exportOf({ fundRequests: [f.id], fundRequestStages: ['calculations', 'standardization', 'identification', 'fundRequest'] });
    const std = zipEntry(zip, `${f.prefix}_standardization_holdings.csv`).toString('utf8');
    expect(std.startsWith('\ufefffile,line,fund_code,as_of,security_id')).toBe(true);
    expect(std).toContain("holdings 2024.csv,2,LUX01,2024-12-31,SEC0,INTERNAL,'=SUM(A1),EQ,1200,-1234567.5,EUR,1,,1234567.89");
    expect(std.split('\r\n')[0]).toMatch(/,standard_instrument$/);
    const ident = zipEntry(zip, `${f.prefix}_identification_holdings.csv`).toString('utf8');
    expect(ident).toBe("\ufeffline,Fund,Security,Name,Quantity\r\n2,F1,US0378331005,'=SUM(A1),1200\r\n");
    const calc = zipEntry(zip, `${f.prefix}_calculations.csv`).toString('utf8').split('\r\n');
    expect(calc[0]).toBe('\ufeffcheck,name,status,diff,threshold,message,file,line,adjusted_by,details');
    expect(calc[2]).toBe("investments_reconciliation,Investments,fail,1234567.89,3750,'+ holdings exceed TB,,,,");
    const errors = zipEntry(zip, `${f.prefix}_errors.csv`).toString('utf8').split('\r\n');
    expect(errors.slice(1, -1)).toEqual([
      "row_error,holdings,holdings 2024.csv,4,price,,error,,,'abc' is not a number",
      "QA_Mapping,holdings,holdings 2024.csv,3,instrument_type,XBOND,error,,,No instrument_mapping for 'XBOND'",
      "QA_Rec,investments_reconciliation,,,,Investments,fail,1234567.89,3750,'+ holdings exceed TB",
      'QA_Rec,holdings_integrity,holdings 2024.csv,3,,SEC1,warning,-12.5,250,Rounding',
    ]);
    const logs = zipEntry(zip, `${f.prefix}_logs.csv`).toString('utf8');
    expect(logs).toContain(",identification,success,,,,'-identified 1 file,");
    const list = zipEntry(zip, 'fund_list.csv').toString('utf8').split('\r\n');
    expect(list[0].startsWith('\ufeffid,fund_code,alternate_codes,administrator,administrator_name,status,name,client')).toBe(true);
    expect(list[1].startsWith(`${f.id},LUX01,,tpa_exports,Exports TPA,Pending,Fund LUX01,"Client, ""Quoted"""`)).toBe(true);
  });

  it('streams thousands of standardized rows while the server keeps writing', async () => {
    const f = await seedExportFund(ctx, { sdmRows: 20_000 });
    await requestExport(ctx, admin, { fundRequests: [f.id], fundRequestStages: ['standardization'] });
    let running = true;
    let writes = 0;
    const drained = run().finally(() => (running = false));
    // other requests write on the shared connection while the rows stream from the export's own reader
    while (running) {
      await new Promise((r) => setImmediate(r));
      ctx.db.insert(orchestrationLogs).values({ fundRequestId: f.id, stage: 'test', status: 'success' }).run();
      writes++;
    }
    await drained;
    expect(writes).toBeGreaterThan(5);
    const row = ctx.db.select().from(exportFiles).get()!;
    expect(row.status).toBe('done');
    const lines = zipEntry(ctx.blobs.path(row.blobKey!), `${f.prefix}_standardization_holdings.csv`).toString('utf8').split('\r\n');
    expect(lines).toHaveLength(20_000 + 2);
    expect(lines[20_000]).toContain(',SEC19999,');
  });

  it('stops cleanly when its process is cancelled while the zip is written', async () => {
    const f = await seedExportFund(ctx, { sdmRows: 30_000 });
    const view = await requestExport(ctx, admin, { fundRequests: [f.id], fundRequestStages: ['standardization'] });
    const engine = new Engine(ctx, { export: exportStageHandler });
    const processId = ctx.db.select().from(processes).get()!.id;
    ctx.events.on('export', (e) => {
      if (e.status === 'running') setTimeout(() => engine.cancel(processId), 20);
    });
    await engine.drain();
    const row = ctx.db.select().from(exportFiles).get()!;
    expect([row.id, row.status, row.blobKey]).toEqual([view.id, 'error', null]);
    expect(row.payload).toMatchObject({ error: 'The export was cancelled' });
    expect(ctx.db.select().from(processes).get()!.status).toBe('suspended');
    expect(readdirSync(join(ctx.dir, 'blobs', 'tmp'))).toEqual([]);
    ctx.db.insert(orchestrationLogs).values({ fundRequestId: f.id, stage: 'test', status: 'success' }).run();
  });

  it('filters work papers: excludeDisabledVisualizations and reviewedVisualizationsOnly', async () => {
    const a = await seedExportFund(ctx, { code: 'A1', workPaper: { disabled: true, reviewed: true }, logs: false });
    const b = await seedExportFund(ctx, { code: 'B2', workPaper: { disabled: false, reviewed: false }, logs: false, dueDate: null });
    const wp = (zip: string) => zipNames(zip).filter((n) => n.endsWith('.xlsx'));
    const base = { fundRequests: [a.id, b.id], fundRequestStages: ['visualization'] };
    expect(wp((await exportOf(base)).zip)).toEqual(['fund_A1_dd_2025-01-31_work_papers.xlsx', 'fund_B2_dd_none_work_papers.xlsx']);
    expect(wp((await exportOf({ ...base, excludeDisabledVisualizations: true })).zip)).toEqual(['fund_B2_dd_none_work_papers.xlsx']);
    expect(wp((await exportOf({ ...base, reviewedVisualizationsOnly: true })).zip)).toEqual(['fund_A1_dd_2025-01-31_work_papers.xlsx']);
  });

  it('records an error when nothing can be exported', async () => {
    const f = await seedExportFund(ctx, { workPaper: null, logs: false });
    ctx.sqlite.prepare('update fund_files set validation = null').run(); // no errors.csv either
    const events: string[] = [];
    ctx.events.on('export', (e) => events.push(e.status));
    const { row } = await exportOf({ fundRequests: [f.id], fundRequestStages: ['visualization'] });
    expect(row.status).toBe('error');
    expect(row.payload).toMatchObject({ error: NOTHING_TO_EXPORT });
    expect(events).toEqual(['pending', 'running', 'error']);
    expect(ctx.db.select().from(processes).all().at(-1)?.status).toBe('error');
    expect((await errorOf(() => exportDownload(ctx, admin, row.id))).message).toBe('The export is not ready yet (status: error)');
    expect(readdirSync(join(ctx.dir, 'blobs', 'tmp'))).toEqual([]);
  });
});

describe('listing, download and clean-up', () => {
  it('lists newest first; auditors see and download only their own exports', async () => {
    const f = await seedExportFund(ctx);
    const auditor = await addUser(ctx, { email: 'aud@example.com', name: 'Ada Auditor', role: 'Auditor' });
    const mine = await requestExport(ctx, auditor, { fundRequests: [f.id], fundRequestStages: ['calculations'] });
    const theirs = await requestExport(ctx, admin, { fundRequests: [f.id], fundRequestStages: ['calculations'] });
    expect((await listExports(ctx, admin, {})).rows.map((r) => r.id)).toEqual([theirs.id, mine.id]);
    const own = await listExports(ctx, auditor, {});
    expect(own.rows.map((r) => [r.id, r.user, r.status])).toEqual([[mine.id, 'Ada Auditor', 'pending']]);
    expect(own.pagination).toEqual({ offset: 0, limit: 200, count: 1 });
    expect((await listExports(ctx, admin, { filters: [{ field: 'user_auth_id', type: 'enum', value: [String(auditor.id)] }] })).rows.map((r) => r.id)).toEqual([
      mine.id,
    ]);
    expect((await listExports(ctx, admin, { sorting: [{ field: 'id', order: 'asc' }], limit: 1 })).rows.map((r) => r.id)).toEqual([mine.id]);
    expect((await errorOf(() => exportDownload(ctx, auditor, mine.id))).message).toBe('The export is not ready yet (status: pending)');
    await run();
    expect((await exportDownload(ctx, auditor, mine.id)).fileName).toBe(mine.fileName);
    expect((await errorOf(() => exportDownload(ctx, auditor, theirs.id))).status).toBe(404);
    expect((await exportDownload(ctx, admin, mine.id)).size).toBeGreaterThan(100);
  });

  it('deletes only exports older than 90 days, and their zips', async () => {
    const f = await seedExportFund(ctx);
    const old = await exportOf({ fundRequests: [f.id], fundRequestStages: ['calculations'] });
    const recent = await exportOf({ fundRequests: [f.id], fundRequestStages: ['standardization'] });
    const at = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    ctx.sqlite.prepare('update export_files set created_at = ? where id = ?').run(at(91), old.row.id);
    ctx.sqlite.prepare('update export_files set created_at = ? where id = ?').run(at(89), recent.row.id);
    expect((await errorOf(() => deleteOldExports(ctx, admin, { olderThanDays: 30 }))).status).toBe(400);
    expect(await deleteOldExports(ctx, admin)).toBe(1);
    expect(
      ctx.db
        .select()
        .from(exportFiles)
        .all()
        .map((r) => r.id),
    ).toEqual([recent.row.id]);
    expect(existsSync(old.zip)).toBe(false);
    expect(existsSync(recent.zip)).toBe(true);
  });
});
