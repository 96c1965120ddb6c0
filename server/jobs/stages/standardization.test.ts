/**
 * Standardization streams rows through a staging file and swaps it in at the end: while it runs,
 * and when it is cancelled or crashes, every reader still sees the previous rows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFiles, processes } from '../../db/schema/index.js';
import { sdmRowWriter } from '../../db/sdm-store.js';
import { fixturesDir } from '../../paths.js';
import { allJobs } from './index.js';
import { getFundDetails } from '../../services/funds/details.js';
import { importFile } from '../../services/imports/imports.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { JobCancelled } from '../../../pipeline/engine.js';
import { Engine } from '../engine.js';
import type { ProcessRow } from '../../queue/queue.js';
import { loadFundData } from './fund-data.js';
import { allRows } from '../../../pipeline/sdm/rows.js';
import { standardizationJob } from './standardization.js';

const HOLDINGS = 'MFS_HOLDINGS_S000013795_20230331.csv';
let ctx: TestContext;
let fundId: number;
const ingest = () => new Engine(ctx, { identification: allJobs.identification, standardization: allJobs.standardization }).drain();
const count = (sql: string, ...params: unknown[]) => (ctx.sqlite.prepare(sql).get(...params) as { n: number }).n;
const job = () => ({ id: 0, fundRequestId: fundId, stage: 'standardization', status: 'running', payload: null }) as unknown as ProcessRow;

/** The Goldman Sachs holdings delivery with its rows repeated `times` times, written to the data directory. */
function delivery(times: number): string {
  const lines = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs', HOLDINGS), 'utf8').split('\r\n');
  const file = join(ctx.config.dataDir, `holdings_x${times}.csv`);
  writeFileSync(file, [...lines.slice(0, 4), ...Array.from({ length: times }, () => lines.slice(4).filter(Boolean)).flat(), ''].join('\r\n'));
  return file;
}

const ROWS = 1685 * 4;

/** The fund's latest holdings input file. */
const holdingsInput = () =>
  ctx.db
    .select()
    .from(fundFiles)
    .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'input'), eq(fundFiles.fileType, 'holdings')))
    .all()
    .at(-1)!;

beforeAll(async () => {
  ctx = await createTestContext({ identificationLimitBytes: 100_000_000 });
  // the holdings four times over: several batches of rows
  await importFile(ctx, {
    administratorCode: 'meridian_fund_services',
    fileName: 'MFS_HOLDINGS_S000013795_20230331_v2.csv',
    path: delivery(4),
    userId: null,
    source: 'cli',
  });
  await ingest();
  fundId = ctx.db.select().from(fundFiles).where(eq(fundFiles.kind, 'standardization')).get()!.fundRequestId;
});
afterAll(() => ctx.dispose());

describe('standardization in batches', () => {
  it('keeps the previous rows visible while it runs again, and all of them when it is cancelled', async () => {
    expect((await loadFundData(ctx, fundId)).holdings.length).toBe(ROWS);
    const abort = new AbortController();
    const running = Promise.resolve(standardizationJob(ctx, job(), abort.signal));
    running.catch(() => {});
    // one turn of the event loop: the job has read its mappings, staged its first batch and now waits for its next turn
    await new Promise((resolve) => setImmediate(resolve));
    expect(
      count("select coalesce(sum(r.row_count), 0) n from sdm_chunks r join fund_files f on f.id = r.fund_file_id where f.kind = 'staging'"),
    ).toBeGreaterThan(0);
    expect((await getFundDetails(ctx, fundId)).standardizationFiles).toHaveLength(1);
    expect((await loadFundData(ctx, fundId)).holdings.length).toBe(ROWS);

    abort.abort();
    await expect(running).rejects.toBeInstanceOf(JobCancelled);
    expect(count("select count(*) n from fund_files where kind = 'staging'")).toBe(0);
    expect(count("select sum(row_count) n from sdm_chunks where sdm_type = 'holdings'")).toBe(ROWS);
    expect((await loadFundData(ctx, fundId)).holdings.length).toBe(ROWS);
  });

  it("writes nothing more once another worker took its job over, and leaves the taker's staged rows alone", async () => {
    // the job as a worker claims it: running under its owner
    const claimed = ctx.db
      .insert(processes)
      .values({ fundRequestId: fundId, stage: 'standardization', status: 'running', workerId: 'node-a/t1' })
      .returning()
      .get() as ProcessRow;
    const running = Promise.resolve(standardizationJob(ctx, claimed, new AbortController().signal));
    running.catch(() => {});
    // its first batch is staged; then its lease ends and another worker takes the job over and stages its own rows
    await new Promise((resolve) => setImmediate(resolve));
    ctx.db.update(processes).set({ workerId: 'node-b/t1' }).where(eq(processes.id, claimed.id)).run();
    ctx.sqlite.prepare("delete from sdm_chunks where fund_file_id in (select id from fund_files where kind = 'staging')").run();
    const input = holdingsInput();
    ctx.db.delete(fundFiles).where(eq(fundFiles.kind, 'staging')).run();
    const takers = ctx.db
      .insert(fundFiles)
      .values({ fundRequestId: fundId, sourceFileId: input.id, kind: 'staging', fileType: 'holdings', fileName: 'holdings.csv', status: 'processing' })
      .returning()
      .get();
    const rows = sdmRowWriter(ctx, takers.id, 'holdings');
    rows.add({ file: 'holdings.csv', line: 5 });
    await rows.flush();

    await expect(running).rejects.toBeInstanceOf(JobCancelled);
    // the first owner stopped at its next batch: only the taker's staging file and row are there
    expect(ctx.db.select({ id: fundFiles.id }).from(fundFiles).where(eq(fundFiles.kind, 'staging')).all()).toEqual([{ id: takers.id }]);
    expect(count('select sum(row_count) n from sdm_chunks where fund_file_id = ?', takers.id)).toBe(1);
    expect(count("select count(*) n from sdm_chunks c join fund_files f on f.id = c.fund_file_id where f.kind = 'staging' and f.id <> ?", takers.id)).toBe(0);
    ctx.db.delete(processes).where(eq(processes.id, claimed.id)).run();
  });

  it('removes what a killed run staged for an input that is no longer current', async () => {
    // a run killed mid-way, then the input set aside (not required) before the job was taken over
    const gone = ctx.db
      .insert(fundFiles)
      .values({ fundRequestId: fundId, kind: 'input', fileType: 'trial_balance', fileName: 'old_tb.csv', status: 'assigned', disabled: true })
      .returning()
      .get();
    const staged = ctx.db
      .insert(fundFiles)
      .values({ fundRequestId: fundId, sourceFileId: gone.id, kind: 'staging', fileType: 'trial_balance', fileName: 'trial_balance.csv', status: 'processing' })
      .returning()
      .get();
    const left = sdmRowWriter(ctx, staged.id, 'trial_balance');
    left.add({ file: 'old_tb.csv', line: 5 });
    await left.flush();

    await standardizationJob(ctx, job(), new AbortController().signal);
    expect(count("select count(*) n from fund_files where kind = 'staging'")).toBe(0);
    expect(count("select count(*) n from sdm_chunks where sdm_type = 'trial_balance'")).toBe(0);
  });

  it('replaces the previous rows in one step when it completes, removing what a crash left staged', async () => {
    // what a server killed mid-way leaves: a staging file with some rows
    const input = holdingsInput();
    const staged = ctx.db
      .insert(fundFiles)
      .values({ fundRequestId: fundId, sourceFileId: input.id, kind: 'staging', fileType: 'holdings', fileName: 'holdings.csv', status: 'processing' })
      .returning()
      .get();
    const left = sdmRowWriter(ctx, staged.id, 'holdings');
    left.add({ file: 'holdings.csv', line: 5 });
    await left.flush();

    const out = await standardizationJob(ctx, job(), new AbortController().signal);
    expect(out.result).toMatchObject({ files: [{ sdmType: 'holdings', rows: ROWS, validationStatus: 'Valid' }] });
    expect(count("select count(*) n from fund_files where kind = 'staging'")).toBe(0);
    expect(count("select sum(row_count) n from sdm_chunks where sdm_type = 'holdings'")).toBe(ROWS);
    const std = ctx.db
      .select()
      .from(fundFiles)
      .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'standardization')))
      .all();
    expect(std.map((f) => [f.sourceFileId, f.rowCount, f.validationStatus])).toEqual([[input.id, ROWS, 'Valid']]);
    const holdings = await allRows((await loadFundData(ctx, fundId)).holdings);
    expect(holdings).toHaveLength(ROWS);
    // rows come back in the delivered file's line order, carrying their file and line
    expect(holdings[0]).toMatchObject({ file: 'MFS_HOLDINGS_S000013795_20230331_v2.csv', line: 5, security_id: 'US3138W7WP51', quantity: 13415.85 });
    expect(holdings.at(-1)!.line).toBe(4 + ROWS);
  });
});
