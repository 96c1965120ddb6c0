import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processes } from '../server/db/schema/index.js';
import { createTestContext, type TestContext } from '../server/testing.js';
import { claimNext, Engine, enqueue, JobCancelled, recoverInterrupted, type StageHandler } from './engine.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

const fund = () => Number(ctx.sqlite.prepare("insert into fund_requests (name, client) values ('F', 'C')").run().lastInsertRowid);
const rows = () => ctx.db.select().from(processes).all();

describe('job engine', () => {
  it('queues a job once per fund and stage, and runs the next stages a handler names', async () => {
    const f = fund();
    const seen: string[] = [];
    const handlers: Record<string, StageHandler> = {
      standardization: (_c, job) => { seen.push(`std:${job.fundRequestId}`); return { result: { rows: 3 }, next: [{ stage: 'calculations', fundRequestId: job.fundRequestId }] }; },
      calculations: (_c, job) => { seen.push(`calc:${job.fundRequestId}`); return {}; },
    };
    enqueue(ctx, { stage: 'standardization', fundRequestId: f });
    enqueue(ctx, { stage: 'standardization', fundRequestId: f, forceRun: true });
    expect(rows()).toHaveLength(1);
    expect(rows()[0].forceRun).toBe(true);
    const events: string[] = [];
    ctx.events.on('process', (p) => events.push(`${p.stage}:${p.status}`));
    await new Engine(ctx, handlers).drain();
    expect(seen).toEqual([`std:${f}`, `calc:${f}`]);
    expect(rows().map((r) => [r.stage, r.status])).toEqual([['standardization', 'done'], ['calculations', 'done']]);
    expect(rows()[0].payload).toMatchObject({ result: { rows: 3 } });
    expect(events).toEqual(['standardization:running', 'standardization:done', 'calculations:pending', 'calculations:running', 'calculations:done']);
  });

  it('never claims the same fund twice at once', () => {
    const f = fund();
    enqueue(ctx, { stage: 'standardization', fundRequestId: f });
    enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const other = fund();
    enqueue(ctx, { stage: 'standardization', fundRequestId: other });
    const a = claimNext(ctx, 'w1');
    const b = claimNext(ctx, 'w2');
    expect(a?.fundRequestId).toBe(f);
    expect(b?.fundRequestId).toBe(other);
    expect(claimNext(ctx, 'w3')).toBeNull();
  });

  it('records a failing job as error with its message and keeps going', async () => {
    const [f1, f2] = [fund(), fund()];
    enqueue(ctx, { stage: 'calculations', fundRequestId: f1 });
    enqueue(ctx, { stage: 'calculations', fundRequestId: f2 });
    await new Engine(ctx, { calculations: (_c, job) => { if (job.fundRequestId === f1) throw new Error('TB file missing'); return {}; } }).drain();
    expect(rows().map((r) => [r.fundRequestId, r.status, (r.payload as any).error])).toEqual([[f1, 'error', 'TB file missing'], [f2, 'done', undefined]]);
  });

  it('cancels pending jobs at once and running jobs through their signal', async () => {
    const f = fund();
    const p = enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const engine = new Engine(ctx, {
      calculations: async (_c, _job, signal) => {
        await new Promise((r) => setTimeout(r, 20));
        if (signal.aborted) throw new JobCancelled();
        return {};
      },
    });
    expect(engine.cancel(p.id).status).toBe('suspended');
    const q = enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    const job = claimNext(ctx, 'w')!;
    const running = engine.run(job);
    engine.cancel(q.id);
    expect((await running).status).toBe('suspended');
    expect(() => engine.cancel(q.id)).toThrow(/only pending or running processes can be cancelled/);
  });

  it('resumes jobs a killed server left running', async () => {
    const f = fund();
    enqueue(ctx, { stage: 'calculations', fundRequestId: f });
    claimNext(ctx, 'dead-worker');
    expect(rows()[0].status).toBe('running');
    expect(recoverInterrupted(ctx)).toBe(1);
    await new Engine(ctx, { calculations: () => ({}) }).drain();
    expect(rows()[0]).toMatchObject({ status: 'done', attempts: 2 });
  });
});
