/**
 * The pipeline's stages on both databases: the Meridian delivery of the Goldman Sachs Bond Fund
 * (real N-PORT data) identified, standardized, calculated and made into its work paper by the stage
 * handlers themselves, each job run as the engine would (in queue order, its next jobs queued on
 * completion), on SQLite and on PostgreSQL; then an export of the fund. The calculation results,
 * every cell of the work paper and the exported standardized rows are the same on both.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { and, asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Dialect } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { countSdmRows } from '../../db/sdm-store.js';
import { fixturesDir } from '../../paths.js';
import { seedFxRates } from '../../services/reference-data/fx-rates.js';
import { importFile } from '../../services/imports/imports.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { enqueue, type EnqueueInput } from '../../queue/enqueue.js';
import { allJobs } from './index.js';
import { requestExport, EXPORT_STAGE_CODES } from '../../services/exports/exports.js';
import { loadExport } from '../../services/exports/store.js';
import { zipEntry, zipNames } from '../../testing/export-fund.js';

const INPUTS = join(fixturesDir(), 'tpas/meridian_fund_services/inputs');

type Cell = string | number | boolean | null | object;

/** Every row of a sheet as plain values (dates as ISO text, empty cells null). */
function sheetRows(ws: ExcelJS.Worksheet): Cell[][] {
  const out: Cell[][] = [];
  for (let i = 1; i <= ws.rowCount; i++) {
    const values = (ws.getRow(i).values as unknown[]).slice(1);
    out.push(Array.from(values, (v) => (v instanceof Date ? v.toISOString() : v === undefined ? null : (v as Cell))));
  }
  return out;
}

/**
 * A CSV file's cells, JSON cells parsed: a JSON object column comes back from PostgreSQL's jsonb
 * with its keys in another order (jsonb keeps no key order), the same values.
 */
const csvCells = (text: string) => (parse(text, { bom: true }) as string[][]).map((r) => r.map((c) => (c.startsWith('{') ? JSON.parse(c) : c)));

/** What a run gave, per dialect: compared once both ran. */
const outcomes = new Map<Dialect, { calculation: unknown; sheets: Record<string, Cell[][]>; rows: number; zip?: Record<string, string> }>();

/** Runs every pending job in queue order through its stage handler, queueing its next jobs, until none is left. */
async function runJobs(ctx: TestContext): Promise<string[]> {
  const { db, tables: t } = storeOf(ctx);
  const ran: string[] = [];
  for (;;) {
    const [job] = await db.select().from(t.processes).where(eq(t.processes.status, 'pending')).orderBy(asc(t.processes.id)).limit(1);
    if (!job) return ran;
    const handler = allJobs[job.stage];
    if (!handler) throw new Error(`no stage handler for ${job.stage}`);
    await db.update(t.processes).set({ status: 'running' }).where(eq(t.processes.id, job.id));
    const out = await handler(ctx, job, new AbortController().signal);
    await db.update(t.processes).set({ status: 'done' }).where(eq(t.processes.id, job.id));
    for (const next of out.next ?? []) await enqueue(ctx, { ...next, stage: next.stage as EnqueueInput['stage'] });
    ran.push(job.stage);
  }
}

describeEachDialect('the pipeline stages on the Goldman Sachs delivery', (dialect) => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ dialect });
    seedFxRates(ctx);
  }, 120_000);
  afterAll(() => ctx?.dispose());

  it('identify, standardize, calculate and make the work paper', async () => {
    for (const name of readdirSync(INPUTS).sort())
      await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: name, path: join(INPUTS, name), userId: null, source: 'cli' });
    const ran = await runJobs(ctx);
    // the chase review follows the checks: it resolves or opens the fund's chases on what they found
    expect(new Set(ran)).toEqual(new Set(['identification', 'standardization', 'calculations', 'visualization', 'chaseReview']));

    const { db, tables: t } = storeOf(ctx);
    const [fund] = await db
      .select({ id: t.fundCodes.fundRequestId })
      .from(t.fundCodes)
      .innerJoin(t.fundRequests, eq(t.fundRequests.id, t.fundCodes.fundRequestId))
      .where(and(eq(t.fundCodes.code, 'S000013795'), eq(t.fundRequests.periodEnd, '2023-03-31')));
    const files = await db.select().from(t.fundFiles).where(eq(t.fundFiles.fundRequestId, fund.id)).orderBy(asc(t.fundFiles.id));
    const std = files.filter((f) => f.kind === 'standardization');
    expect(std.map((f) => f.fileType).sort()).toEqual(['holdings', 'prices', 'share_capital', 'trial_balance']);
    expect(std.every((f) => f.validationStatus === 'Valid')).toBe(true);
    expect(files.filter((f) => f.kind === 'staging')).toEqual([]);
    const rows = await countSdmRows(
      ctx,
      std.map((f) => f.id),
    );
    expect(rows).toBe(std.reduce((n, f) => n + (f.rowCount ?? 0), 0));

    const calc = files.find((f) => f.kind === 'calculation')!;
    const validation = calc.validation as { nav: number; rowCounts: Record<string, number>; summary: Record<string, number> };
    expect(validation.nav).toBeGreaterThan(1e8);
    expect(validation.rowCounts.holdings).toBeGreaterThan(1000);

    const paper = files.find((f) => f.kind === 'work_paper')!;
    expect(paper.status).toBe('done');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(ctx.blobs.path(paper.blobKey!));
    const sheets: Record<string, Cell[][]> = {};
    // the generation time is the only cell that differs between two runs
    for (const ws of wb.worksheets) sheets[ws.name] = sheetRows(ws).filter((r) => r[0] !== 'Generated at');
    expect(sheets.Holdings.length).toBeGreaterThan(validation.rowCounts.holdings);
    outcomes.set(dialect, { calculation: { ...validation, status: calc.validationStatus }, sheets, rows });
  }, 180_000);

  it('identify a file again after a run that attached its parts and stopped before completing: the import still succeeds and standardization follows', async () => {
    const { db, tables: t } = storeOf(ctx);
    const [imp] = await db.select().from(t.importFiles).orderBy(asc(t.importFiles.id)).limit(1);
    const [job] = await db.select().from(t.processes).where(eq(t.processes.stage, 'identification')).orderBy(asc(t.processes.id)).limit(1);
    const before = await db.select({ id: t.fundFiles.id }).from(t.fundFiles).where(eq(t.fundFiles.kind, 'input'));
    const out = await allJobs.identification!(ctx, { ...job, payload: { importFileId: imp.id } }, new AbortController().signal);
    expect(out.next?.map((n) => n.stage)).toEqual(['standardization']);
    const [after] = await db.select().from(t.importFiles).where(eq(t.importFiles.id, imp.id));
    expect(after.status).toBe('Success');
    expect(await db.select({ id: t.fundFiles.id }).from(t.fundFiles).where(eq(t.fundFiles.kind, 'input'))).toEqual(before);
  });

  it('export the fund: every stage in the zip, the standardized rows streamed a chunk at a time', async () => {
    const { db, tables: t } = storeOf(ctx);
    const [paper] = await db.select().from(t.fundFiles).where(eq(t.fundFiles.kind, 'work_paper'));
    const view = await requestExport(ctx, ctx.boot.admin, { fundRequests: [paper.fundRequestId], fundRequestStages: [...EXPORT_STAGE_CODES] });
    expect(await runJobs(ctx)).toEqual(['export']);
    const row = await loadExport(ctx, view.id);
    expect(row?.status).toBe('done');
    const file = ctx.blobs.path(row!.blobKey!);
    const names = zipNames(file);
    expect(names).toEqual(
      expect.arrayContaining([
        'fund_list.csv',
        expect.stringMatching(/_work_papers\.xlsx$/),
        expect.stringMatching(/_calculations\.csv$/),
        expect.stringMatching(/_standardization_holdings\.csv$/),
        expect.stringMatching(/_identification_holdings\.csv$/),
        expect.stringMatching(/_logs\.csv$/),
      ]),
    );
    const zip: Record<string, string> = {};
    // the logs and the fund list carry the run's own times; the work paper its generation time
    for (const name of names.filter((n) => /_(standardization_\w+|calculations|identification_\w+|errors)\.csv$/.test(n)))
      zip[name] = zipEntry(file, name).toString('utf8');
    const holdings = Object.entries(zip)
      .find(([n]) => n.endsWith('_standardization_holdings.csv'))![1]
      .split('\r\n')
      .filter(Boolean);
    const [std] = await db
      .select()
      .from(t.fundFiles)
      .where(and(eq(t.fundFiles.kind, 'standardization'), eq(t.fundFiles.fileType, 'holdings')));
    expect(holdings.length - 1).toBe(std.rowCount);
    outcomes.get(dialect)!.zip = zip;
  }, 120_000);

  if (dialect === 'postgres')
    it('give the same calculation results and the same work paper, cell by cell, as on SQLite', () => {
      const sqlite = outcomes.get('sqlite');
      const pg = outcomes.get('postgres');
      expect(sqlite && pg).toBeTruthy();
      expect(pg!.rows).toBe(sqlite!.rows);
      expect(pg!.calculation).toEqual(sqlite!.calculation);
      expect(Object.keys(pg!.sheets)).toEqual(Object.keys(sqlite!.sheets));
      for (const name of Object.keys(sqlite!.sheets)) expect(pg!.sheets[name], name).toEqual(sqlite!.sheets[name]);
      expect(Object.keys(pg!.zip ?? {}).sort()).toEqual(Object.keys(sqlite!.zip ?? {}).sort());
      for (const [name, text] of Object.entries(sqlite!.zip ?? {}))
        if (/_standardization_/.test(name)) expect(pg!.zip?.[name], name).toBe(text);
        else expect(csvCells(pg!.zip?.[name] ?? ''), name).toEqual(csvCells(text));
    });
});
