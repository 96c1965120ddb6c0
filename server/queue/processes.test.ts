import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../testing/dialects.js';
import { transaction } from '../db/tx.js';
import { insertAdministrator, insertFund, insertProcess } from '../testing/fund-factory.js';
import { enqueue } from './enqueue.js';
import { cancelProcess, listFundProcesses, ongoingProcesses, resetProcess } from './processes.js';
import { rematchUnmatched } from '../services/imports/rematch.js';

describeEachDialect('the job queue from requests', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  let events: Array<{ id: number; stage: string; status: string }>;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
    ctx = database.ctx;
    events = [];
    ctx.events.on('process', (p) => events.push({ id: p.id, stage: p.stage, status: p.status }));
  });
  afterEach(() => database.dispose());

  const jobs = async () => {
    const { db, tables: t } = storeOf(ctx);
    return db.select().from(t.processes).orderBy(asc(t.processes.id));
  };
  const job = async (id: number) => (await jobs()).find((j) => j.id === id)!;
  const setJob = async (id: number, changes: Partial<Awaited<ReturnType<typeof jobs>>[number]>) => {
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.processes).set(changes).where(eq(t.processes.id, id));
  };

  it('queues a pending job with its payload once per fund, stage and subject, and publishes it', async () => {
    const fund = await insertFund(ctx);
    const first = await enqueue(ctx, { stage: 'standardization', fundRequestId: fund.id, payload: { reason: 'mapping assigned' } });
    expect(first).toMatchObject({
      fundRequestId: fund.id,
      stage: 'standardization',
      status: 'pending',
      forceRun: false,
      payload: { reason: 'mapping assigned' },
    });
    const again = await enqueue(ctx, { stage: 'standardization', fundRequestId: fund.id, forceRun: true });
    expect(again).toMatchObject({ id: first.id, forceRun: true });
    const next = await enqueue(ctx, { stage: 'calculations', fundRequestId: fund.id });
    const a = await enqueue(ctx, { stage: 'identification', fundRequestId: null, payload: { importFileId: 1 } });
    const b = await enqueue(ctx, { stage: 'identification', fundRequestId: null, payload: { importFileId: 2 } });
    expect((await enqueue(ctx, { stage: 'identification', fundRequestId: null, payload: { importFileId: 1 } })).id).toBe(a.id);
    expect((await jobs()).map((j) => [j.id, j.stage, j.fundRequestId, j.status, j.forceRun, j.payload])).toEqual([
      [first.id, 'standardization', fund.id, 'pending', true, { reason: 'mapping assigned' }],
      [next.id, 'calculations', fund.id, 'pending', false, {}],
      [a.id, 'identification', null, 'pending', false, { importFileId: 1 }],
      [b.id, 'identification', null, 'pending', false, { importFileId: 2 }],
    ]);
    expect(events).toEqual([
      { id: first.id, stage: 'standardization', status: 'pending' },
      { id: next.id, stage: 'calculations', status: 'pending' },
      { id: a.id, stage: 'identification', status: 'pending' },
      { id: b.id, stage: 'identification', status: 'pending' },
    ]);
  });

  it('queues a new job once the pending one has started, and none when the caller rolls back', async () => {
    const fund = await insertFund(ctx);
    const first = await enqueue(ctx, { stage: 'calculations', fundRequestId: fund.id });
    await setJob(first.id, { status: 'running' });
    const second = await enqueue(ctx, { stage: 'calculations', fundRequestId: fund.id });
    expect(second.id).not.toBe(first.id);
    await expect(
      transaction(ctx, async () => {
        await enqueue(ctx, { stage: 'visualization', fundRequestId: fund.id });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await jobs()).map((j) => j.stage)).toEqual(['calculations', 'calculations']);
    // nobody was told of the job that was rolled back
    expect(events.map((e) => e.stage)).toEqual(['calculations', 'calculations']);
  });

  it("tells of a job queued in a caller's transaction only once that transaction has committed", async () => {
    const fund = await insertFund(ctx);
    const seen: number[] = [];
    await transaction(ctx, async () => {
      await enqueue(ctx, { stage: 'standardization', fundRequestId: fund.id });
      seen.push(events.length);
      await storeOf(ctx)
        .db.update(storeOf(ctx).tables.fundRequests)
        .set({ notes: 'queued' })
        .where(eq(storeOf(ctx).tables.fundRequests.id, fund.id));
    });
    expect(seen).toEqual([0]);
    expect(events).toMatchObject([{ stage: 'standardization', status: 'pending' }]);
  });

  it('queues one job when several callers (two nodes) queue the same job at once', async () => {
    const other = await database.open();
    const fund = await insertFund(ctx);
    const otherEvents: number[] = [];
    other.events.on('process', (p) => otherEvents.push(p.id));
    const rows = await Promise.all(Array.from({ length: 12 }, (_, i) => enqueue(i % 2 ? other : ctx, { stage: 'calculations', fundRequestId: fund.id })));
    const queued = await jobs();
    expect(queued.map((j) => [j.stage, j.status])).toEqual([['calculations', 'pending']]);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set([queued[0].id]));
    // published once, by the caller that queued it
    expect(events.length + otherEvents.length).toBe(1);
  });

  it('cancels only pending and running jobs, keeping their payload, and leaves the fund as it is', async () => {
    const fund = await insertFund(ctx, { status: 'Approved' });
    const pending = (await enqueue(ctx, { stage: 'standardization', fundRequestId: fund.id, payload: { reason: 'upload' } })).id;
    const running = await insertProcess(ctx, fund.id, 'calculations', 'running');
    const done = await insertProcess(ctx, fund.id, 'visualization', 'done');
    events = [];
    expect(await cancelProcess(ctx, pending)).toMatchObject({ id: pending, status: 'suspended', payload: { reason: 'upload', cancelled: true } });
    expect(await cancelProcess(ctx, running)).toMatchObject({ id: running, status: 'suspended', payload: { cancelled: true } });
    expect((await job(running)).finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    await expect(cancelProcess(ctx, done)).rejects.toThrow(`Process ${done} is done; only pending or running processes can be cancelled`);
    await expect(cancelProcess(ctx, pending)).rejects.toThrow(/is suspended; only pending or running/);
    await expect(cancelProcess(ctx, done + 100)).rejects.toThrow(`No such process with id: ${done + 100}`);
    expect(events.map((e) => [e.id, e.status])).toEqual([
      [pending, 'suspended'],
      [running, 'suspended'],
    ]);
    const { db, tables: t } = storeOf(ctx);
    const [after] = await db.select({ status: t.fundRequests.status }).from(t.fundRequests).where(eq(t.fundRequests.id, fund.id));
    expect(after.status).toBe('Approved');
    expect((await job(done)).status).toBe('done');
  });

  it('resets a finished job to pending with force run, and refuses a running one', async () => {
    const fund = await insertFund(ctx);
    const failed = await insertProcess(ctx, fund.id, 'calculations', 'error');
    await setJob(failed, {
      startedAt: '2024-01-01T10:00:00.000Z',
      finishedAt: '2024-01-01T10:05:00.000Z',
      workerId: 'node-a/t1',
      processAt: '2024-01-01T09:00:00.000Z',
    });
    const running = await insertProcess(ctx, fund.id, 'standardization', 'running');
    const view = await resetProcess(ctx, failed);
    expect(view).toMatchObject({ id: failed, status: 'pending', force_run: true, started_at: null, finished_at: null });
    expect(view.process_at > '2024-01-01T09:00:00.000Z').toBe(true);
    expect((await job(failed)).workerId).toBeNull();
    await expect(resetProcess(ctx, running)).rejects.toThrow(`Process ${running} is running; cancel it first or wait until it finishes`);
    expect((await job(running)).status).toBe('running');
    await cancelProcess(ctx, running);
    expect(await resetProcess(ctx, running)).toMatchObject({ id: running, status: 'pending', force_run: true });
    expect(events.filter((e) => e.status === 'pending').map((e) => e.id)).toEqual([failed, running]);
  });

  it("lists a fund's processes newest first, by status, a page at a time", async () => {
    const fund = await insertFund(ctx);
    const other = await insertFund(ctx);
    const ids: number[] = [];
    for (const [i, status] of (['done', 'error', 'done', 'pending', 'running'] as const).entries()) {
      const id = await insertProcess(ctx, fund.id, 'calculations', status);
      await setJob(id, { processAt: `2024-01-0${i + 1}T00:00:00.000Z` });
      ids.push(id);
    }
    const tie = await insertProcess(ctx, fund.id, 'visualization', 'done');
    await setJob(tie, { processAt: '2024-01-05T00:00:00.000Z' });
    await insertProcess(ctx, other.id, 'calculations', 'done');
    const all = await listFundProcesses(ctx, { id: fund.id });
    expect(all.rows.map((r) => r.id)).toEqual([tie, ids[4], ids[3], ids[2], ids[1], ids[0]]);
    expect(all.pagination).toEqual({ offset: 0, limit: 200, count: 6 });
    const done = await listFundProcesses(ctx, { id: fund.id, status: ['done', 'error'] });
    expect(done.rows.map((r) => [r.id, r.status])).toEqual([
      [tie, 'done'],
      [ids[2], 'done'],
      [ids[1], 'error'],
      [ids[0], 'done'],
    ]);
    const page = await listFundProcesses(ctx, { id: fund.id, offset: 2, limit: 2 });
    expect(page.rows.map((r) => r.id)).toEqual([ids[3], ids[2]]);
    expect(page.pagination).toEqual({ offset: 2, limit: 2, count: 6 });
    expect((await listFundProcesses(ctx, { id: fund.id, limit: 5000 })).pagination.limit).toBe(1000);
  });

  it('lists the pending and running jobs of every fund, newest first, with fund code, name and TPA', async () => {
    const tpa = await insertAdministrator(ctx, 'abc', 'ABC Fund Services');
    const fund = await insertFund(ctx, { fundCode: 'LU001', alternateCodes: ['ALT1'], administratorId: tpa });
    const bare = await insertFund(ctx, { fundCode: 'LU002' });
    const running = await insertProcess(ctx, fund.id, 'calculations', 'running');
    await insertProcess(ctx, fund.id, 'standardization', 'done');
    const pending = await insertProcess(ctx, bare.id, 'standardization', 'pending');
    await insertProcess(ctx, bare.id, 'visualization', 'suspended');
    const noFund = (await enqueue(ctx, { stage: 'export', fundRequestId: null, payload: { exportId: 4 } })).id;
    expect((await ongoingProcesses(ctx)).map((p) => [p.id, p.status, p.fundCode, p.fundName, p.tpaName])).toEqual([
      [noFund, 'pending', null, null, null],
      [pending, 'pending', 'LU002', bare.name, null],
      [running, 'running', 'LU001', fund.name, 'ABC Fund Services'],
    ]);
  });

  it("queues identification again for a TPA's unmatched files nobody acted on", async () => {
    const tpa = await insertAdministrator(ctx, 'abc');
    const otherTpa = await insertAdministrator(ctx, 'xyz');
    const { db, tables: t } = storeOf(ctx);
    const imports = await db
      .insert(t.importFiles)
      .values(
        [1, 2, 3].map((n) => ({ administratorId: n === 3 ? otherTpa : tpa, fileName: `f${n}.csv`, sha256: `sha${n}`, size: 10, status: 'Finished' as const })),
      )
      .returning({ id: t.importFiles.id });
    const [i1, i2, i3] = imports.map((i) => i.id);
    await db.insert(t.unmatchedFiles).values([
      { importFileId: i1, fileName: 'f1.csv', fileType: 'TB', administratorId: tpa, action: null },
      { importFileId: i1, fileName: 'f1.csv', fileType: 'HOLDINGS', administratorId: tpa, action: 'Unidentified' },
      { importFileId: i2, fileName: 'f2.csv', fileType: 'TB', administratorId: tpa, action: 'Ignored' },
      { importFileId: i3, fileName: 'f3.csv', fileType: 'TB', administratorId: otherTpa, action: null },
    ]);
    expect(await rematchUnmatched(ctx, tpa)).toBe(1);
    expect((await jobs()).map((j) => [j.stage, j.fundRequestId, j.forceRun, j.payload])).toEqual([['identification', null, true, { importFileId: i1 }]]);
    const left = await db.select({ importFileId: t.unmatchedFiles.importFileId }).from(t.unmatchedFiles).orderBy(asc(t.unmatchedFiles.id));
    expect(left.map((r) => r.importFileId)).toEqual([i2, i3]);
    expect(await rematchUnmatched(ctx, tpa)).toBe(0);
  });
});
