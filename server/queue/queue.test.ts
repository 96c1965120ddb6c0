import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobCancelled } from '../../pipeline/engine.js';
import { nodes, processes } from '../db/schema/index.js';
import { createTestContext, errorOf, type TestContext } from '../testing/context.js';
import { Engine } from '../jobs/engine.js';
import { engineRunningUntilCancelled } from '../testing/cancellable-job.js';
import { reapDeadNodes, registerNode } from './nodes.js';
import { claimNext, enqueue, renewLease, type StageHandler } from './queue.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false, jobLeaseSeconds: 2 });
});
afterEach(() => ctx.dispose());

const fund = () => Number(ctx.sqlite.prepare("insert into fund_requests (name, client) values ('F', 'C')").run().lastInsertRowid);
const rows = () => ctx.db.select().from(processes).all();
const expireLease = (id: number) => ctx.sqlite.prepare('update processes set lease_expires_at = ? where id = ?').run(Date.now() - 1, id);

describe('job queue', () => {
  it('queues a job once per fund and stage, and runs the next stages a handler names', async () => {
    const f = fund();
    const seen: string[] = [];
    const handlers: Record<string, StageHandler> = {
      standardization: (_c, job) => {
        seen.push(`std:${job.fundRequestId}`);
        return { result: { rows: 3 }, next: [{ stage: 'calculations', fundRequestId: job.fundRequestId }] };
      },
      calculations: (_c, job) => {
        seen.push(`calc:${job.fundRequestId}`);
        return {};
      },
    };
    await enqueue(ctx, { stage: 'standardization', fundRequestId: f });
    await enqueue(ctx, { stage: 'standardization', fundRequestId: f, forceRun: true });
    expect(rows()).toHaveLength(1);
    expect(rows()[0].forceRun).toBe(true);
    const events: string[] = [];
    ctx.events.on('process', (p) => events.push(`${p.stage}:${p.status}`));
    await new Engine(ctx, handlers).drain();
    expect(seen).toEqual([`std:${f}`, `calc:${f}`]);
    expect(rows().map((r) => [r.stage, r.status, r.leaseExpiresAt])).toEqual([
      ['standardization', 'done', null],
      ['calculations', 'done', null],
    ]);
    expect(rows()[0].payload).toMatchObject({ result: { rows: 3 } });
    expect(events).toEqual(['standardization:running', 'standardization:done', 'calculations:pending', 'calculations:running', 'calculations:done']);
  });

  it('never claims the same fund twice at once', async () => {
    const f = fund();
    await enqueue(ctx, { stage: 'standardization', fundRequestId: f });
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const other = fund();
    await enqueue(ctx, { stage: 'standardization', fundRequestId: other });
    const a = await claimNext(ctx, 'w1');
    const b = await claimNext(ctx, 'w2');
    expect(a?.fundRequestId).toBe(f);
    expect(b?.fundRequestId).toBe(other);
    expect(await claimNext(ctx, 'w3')).toBeNull();
  });

  it('records a failing job as error with its message and keeps going', async () => {
    const [f1, f2] = [fund(), fund()];
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f1 });
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f2 });
    await new Engine(ctx, {
      calculations: (_c, job) => {
        if (job.fundRequestId === f1) throw new Error('TB file missing');
        return {};
      },
    }).drain();
    expect(rows().map((r) => [r.fundRequestId, r.status, (r.payload as any).error])).toEqual([
      [f1, 'error', 'TB file missing'],
      [f2, 'done', undefined],
    ]);
  });

  it('cancels pending jobs at once and running jobs through their signal', async () => {
    const f = fund();
    const p = await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const engine = new Engine(ctx, {
      calculations: async (_c, _job, signal) => {
        await new Promise((r) => setTimeout(r, 20));
        if (signal.aborted) throw new JobCancelled();
        return {};
      },
    });
    expect((await engine.cancel(p.id)).status).toBe('suspended');
    const q = await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const job = (await claimNext(ctx, engine.owner))!;
    const running = engine.run(job);
    await engine.cancel(q.id);
    expect((await running).status).toBe('suspended');
    await expect(engine.cancel(q.id)).rejects.toThrow(/only pending or running processes can be cancelled/);
  });

  it('a job cancelled by another process stops at its next lease renewal', async () => {
    const f = fund();
    const q = await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const { engine, aborted } = engineRunningUntilCancelled(ctx);
    const running = engine.run((await claimNext(ctx, engine.owner))!);
    // another process's connection: only the row changes, no event reaches this engine
    ctx.sqlite.prepare("update processes set status = 'suspended' where id = ?").run(q.id);
    expect((await running).status).toBe('suspended');
    expect(aborted()).toBe(true);
  });

  it('takes a running job over only when its lease has expired, and ignores the late outcome of the old owner', async () => {
    const f = fund();
    const q = await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const first = (await claimNext(ctx, 'node-a/t1'))!;
    expect(first).toMatchObject({ status: 'running', workerId: 'node-a/t1', attempts: 1 });
    expect(first.leaseExpiresAt).toBeGreaterThan(Date.now());
    expect(await claimNext(ctx, 'node-b/t1')).toBeNull(); // live lease: nobody else takes it
    expect(await renewLease(ctx, q.id, 'node-b/t1')).toBe(false);
    expect(await renewLease(ctx, q.id, 'node-a/t1')).toBe(true);

    expireLease(q.id);
    let ran = 0;
    const engine = new Engine(
      ctx,
      {
        calculations: () => {
          ran++;
          return { result: { by: 'b' } };
        },
      },
      { owner: 'node-b/t1' },
    );
    expect(await engine.drain()).toBe(1);
    expect(ran).toBe(1);
    expect(rows()[0]).toMatchObject({ status: 'done', workerId: 'node-b/t1', attempts: 2, payload: { result: { by: 'b' } } });
    // node-a comes back from a long pause and reports: nothing changes
    const late = new Engine(ctx, { calculations: () => ({ result: { by: 'a' } }) }, { owner: 'node-a/t1' });
    await late.run(first);
    expect(rows()[0]).toMatchObject({ status: 'done', workerId: 'node-b/t1', payload: { result: { by: 'b' } } });
  });
});

describe('nodes on one data directory', () => {
  it('refuses a second server, naming the running one, and changes none of its jobs', async () => {
    const f = fund();
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const first = await registerNode(ctx, 'serve');
    await first.setUrl('http://127.0.0.1:8080');
    const job = (await claimNext(ctx, `${first.id}/t1`))!;
    const err = await errorOf(() => registerNode(ctx, 'serve'));
    expect(err.message).toMatch(
      /^Fund Audit is already serving the data directory .* at http:\/\/127\.0\.0\.1:8080 \(pid \d+ on .*\)\. Stop that server first, or add job workers to it with `fund-audit worker`\.$/,
    );
    expect(err.status).toBe(409);
    expect(rows()[0]).toMatchObject({ id: job.id, status: 'running', workerId: `${first.id}/t1`, leaseExpiresAt: job.leaseExpiresAt });
    const worker = await registerNode(ctx, 'worker', { workers: 2 }); // workers may join
    expect(
      ctx.db
        .select()
        .from(nodes)
        .all()
        .map((n) => n.kind)
        .sort(),
    ).toEqual(['serve', 'worker']);
    await worker.unregister();
    await first.unregister();
    expect((await registerNode(ctx, 'serve')).kind).toBe('serve');
  });

  it('puts the jobs of a process that died up for takeover at once', async () => {
    const f = fund();
    await enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    // a server of this host whose process is gone (pid 2^22 + 1 is above Linux's pid limit)
    ctx.db
      .insert(nodes)
      .values({ id: 'serve-dead', kind: 'serve', hostname: hostname(), pid: 4_194_305, startedAt: new Date().toISOString(), heartbeatAt: Date.now() })
      .run();
    await claimNext(ctx, 'serve-dead/t1');
    expect(await claimNext(ctx, 'serve-new/t1')).toBeNull();
    expect(await reapDeadNodes(ctx)).toEqual(['serve-dead']);
    expect(await claimNext(ctx, 'serve-new/t1')).toMatchObject({ workerId: 'serve-new/t1', attempts: 2 });
    expect((await registerNode(ctx, 'serve')).kind).toBe('serve'); // the dead server no longer holds the directory
  });
});
