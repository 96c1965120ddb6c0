/**
 * The worker side of the job queue on both databases: a claim, its lease renewals and its
 * completion with the jobs it queues next; a cancel seen at the next renewal; a running job taken
 * over only once its lease has ended, never under a live lease by a second node; nodes and their
 * heartbeats.
 */
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../testing/dialects.js';
import { errorOf } from '../testing/context.js';
import { insertFund } from '../testing/fund-factory.js';
import { Engine } from '../jobs/engine.js';
import { engineRunningUntilCancelled } from '../testing/cancellable-job.js';
import { reapDeadNodes, registerNode } from './nodes.js';
import { claimNext, enqueue, expireLeases, renewLease } from './queue.js';

describeEachDialect('the job queue of workers', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect, { jobLeaseSeconds: 2 });
    ctx = database.ctx;
  });
  afterEach(() => database.dispose());

  const jobs = async (on = ctx) => {
    const { db, tables: t } = storeOf(on);
    return db.select().from(t.processes).orderBy(asc(t.processes.id));
  };
  const setJob = async (id: number, changes: { status?: 'suspended'; leaseExpiresAt?: number }, on = ctx) => {
    const { db, tables: t } = storeOf(on);
    await db.update(t.processes).set(changes).where(eq(t.processes.id, id));
  };

  it('claims, renews and completes a job, queueing its next stages with the outcome, and publishes them once committed', async () => {
    const fund = await insertFund(ctx);
    const q = await enqueue(ctx, { stage: 'standardization', fundRequestId: fund.id });
    const events: string[] = [];
    ctx.events.on('process', (p) => events.push(`${p.stage}:${p.status}`));
    const owner = 'node-a/t1';
    const claimed = (await claimNext(ctx, owner))!;
    expect(claimed).toMatchObject({ id: q.id, status: 'running', workerId: owner, attempts: 1 });
    const before = claimed.leaseExpiresAt!;
    await new Promise((r) => setTimeout(r, 5));
    expect(await renewLease(ctx, q.id, owner)).toBe(true);
    expect((await jobs())[0].leaseExpiresAt).toBeGreaterThan(before);
    const engine = new Engine(
      ctx,
      {
        standardization: () => ({
          result: { rows: 3 },
          next: [
            { stage: 'calculations', fundRequestId: fund.id },
            { stage: 'calculations', fundRequestId: fund.id, forceRun: true },
          ],
        }),
      },
      { owner },
    );
    const done = await engine.run(claimed);
    expect(done).toMatchObject({ id: q.id, status: 'done', leaseExpiresAt: null, payload: { result: { rows: 3 } } });
    expect((await jobs()).map((j) => [j.stage, j.status, j.forceRun, j.leaseExpiresAt])).toEqual([
      ['standardization', 'done', false, null],
      ['calculations', 'pending', true, null],
    ]);
    expect(events).toEqual(['standardization:running', 'standardization:done', 'calculations:pending']);
    // the finished job is no longer the owner's: a late renewal or outcome changes nothing
    expect(await renewLease(ctx, q.id, owner)).toBe(false);
  });

  it('stops a running job cancelled by another node at its next lease renewal', async () => {
    const fund = await insertFund(ctx);
    const q = await enqueue(ctx, { stage: 'calculations', fundRequestId: fund.id });
    const other = await database.open();
    const { engine, aborted } = engineRunningUntilCancelled(ctx);
    const running = engine.run((await claimNext(ctx, engine.owner))!);
    // another node's connection: only the row changes, no event reaches this engine
    await setJob(q.id, { status: 'suspended' }, other);
    expect((await running).status).toBe('suspended');
    expect(aborted()).toBe(true);
    expect((await jobs()).map((j) => j.status)).toEqual(['suspended']);
  });

  it('never takes over a live lease, and takes a job over once its lease has ended, ignoring the late outcome of the old owner', async () => {
    const fund = await insertFund(ctx);
    const q = await enqueue(ctx, { stage: 'calculations', fundRequestId: fund.id });
    const nodeB = await database.open();
    const first = (await claimNext(ctx, 'node-a/t1'))!;
    expect(first).toMatchObject({ status: 'running', workerId: 'node-a/t1', attempts: 1 });
    // a second node, claiming at the same time as the first renews: the live lease holds
    const [claimB, renewA] = await Promise.all([claimNext(nodeB, 'node-b/t1'), renewLease(ctx, q.id, 'node-a/t1')]);
    expect(claimB).toBeNull();
    expect(renewA).toBe(true);
    expect(await renewLease(nodeB, q.id, 'node-b/t1')).toBe(false);

    await setJob(q.id, { leaseExpiresAt: Date.now() - 1 });
    const engineB = new Engine(nodeB, { calculations: () => ({ result: { by: 'b' } }) }, { owner: 'node-b/t1' });
    expect(await engineB.drain()).toBe(1);
    expect((await jobs())[0]).toMatchObject({ status: 'done', workerId: 'node-b/t1', attempts: 2, payload: { result: { by: 'b' } } });
    // node-a comes back from a long pause: its renewal fails and its outcome is not recorded
    expect(await renewLease(ctx, q.id, 'node-a/t1')).toBe(false);
    const late = new Engine(ctx, { calculations: () => ({ result: { by: 'a' } }) }, { owner: 'node-a/t1' });
    await late.run(first);
    expect((await jobs())[0]).toMatchObject({ status: 'done', workerId: 'node-b/t1', payload: { result: { by: 'b' } } });
  });

  it('puts the jobs of a thread or of a whole node up for takeover', async () => {
    const [f1, f2] = [await insertFund(ctx), await insertFund(ctx)];
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f1.id });
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f2.id });
    await claimNext(ctx, 'node-a/t1');
    await claimNext(ctx, 'node-a/t2');
    expect(await expireLeases(ctx, 'node-a/t1', true)).toBe(1);
    expect((await claimNext(ctx, 'node-b/t1'))?.fundRequestId).toBe(f1.id);
    expect(await expireLeases(ctx, 'node-a/')).toBe(1);
    expect((await claimNext(ctx, 'node-b/t2'))?.fundRequestId).toBe(f2.id);
  });

  it('registers nodes with heartbeats; a node whose heartbeat stopped is removed and its jobs taken over', async () => {
    const fund = await insertFund(ctx);
    await enqueue(ctx, { stage: 'calculations', fundRequestId: fund.id });
    const { db, tables: t } = storeOf(ctx);
    // a node of another machine whose heartbeat stopped a minute ago (its pid means nothing here)
    await db
      .insert(t.nodes)
      .values({ id: 'serve-gone', kind: 'worker', hostname: 'elsewhere', pid: 1, startedAt: new Date().toISOString(), heartbeatAt: Date.now() - 60_000 });
    await claimNext(ctx, 'serve-gone/t1');
    expect(await claimNext(ctx, 'serve-new/t1')).toBeNull();
    const server = await registerNode(ctx, 'serve');
    expect((await db.select().from(t.nodes)).map((n) => n.id)).toEqual([server.id]);
    expect(await claimNext(ctx, `${server.id}/t1`)).toMatchObject({ workerId: `${server.id}/t1`, attempts: 2 });
    if (dialect === 'postgres') {
      // identical nodes on one database: a second server joins
      const second = await registerNode(await database.open(), 'serve');
      expect((await db.select().from(t.nodes)).map((n) => n.kind)).toEqual(['serve', 'serve']);
      await second.unregister();
    } else {
      expect((await errorOf(() => registerNode(ctx, 'serve'))).status).toBe(409);
    }
    expect(await reapDeadNodes(ctx)).toEqual([]);
    await server.unregister();
    expect(await db.select().from(t.nodes)).toEqual([]);
  });
});
