import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openPgDb, type OpenPgResult } from '../db/client-pg.js';
import { createPgTestDatabase, describePg } from '../testing/dialects.js';
import { fundRequests, processes } from '../db/schema-pg/index.js';
import type { JobKind } from '../db/schema/index.js';
import { claimNextPg, exclusionKey, type PgProcessRow } from './claim-pg.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describePg('job claims on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  let pg: OpenPgResult;
  beforeEach(async () => {
    database = await createPgTestDatabase();
    pg = await openPgDb(database.url, { max: 12 });
  });
  afterEach(async () => {
    await pg.pool.end();
    await database.drop();
  });

  const fund = async (name: string) => (await pg.db.insert(fundRequests).values({ name, client: 'C' }).returning())[0]!.id;
  const queue = (jobs: Array<{ fundRequestId: number | null; stage: JobKind; payload?: Record<string, unknown> }>) =>
    pg.db
      .insert(processes)
      .values(jobs.map((j) => ({ ...j, payload: j.payload ?? {} })))
      .returning();

  it('gives each job to exactly one of many workers claiming at once, never two jobs of one fund or two test runs at the same time', async () => {
    const funds = await Promise.all(['A', 'B', 'C', 'D'].map(fund));
    const stages: JobKind[] = ['identification', 'standardization', 'calculations', 'visualization'];
    const queued = await queue([
      ...funds.flatMap((f) => stages.map((stage) => ({ fundRequestId: f, stage }))),
      { fundRequestId: null, stage: 'testRun', payload: { testRunId: 1 } },
      { fundRequestId: null, stage: 'testRun', payload: { testRunId: 2 } },
      { fundRequestId: null, stage: 'export', payload: { exportId: 1 } },
      { fundRequestId: null, stage: 'export', payload: { exportId: 2 } },
    ]);
    const running = new Map<string, string>();
    const ran: number[] = [];
    const clashes: string[] = [];
    const worker = async (w: number) => {
      const owner = `node-${w % 2}/t${w}`;
      for (let idle = 0; idle < 40; ) {
        const job = await claimNextPg(pg.db, { owner, leaseMs: 60_000 });
        if (!job) {
          idle++;
          await sleep(5);
          continue;
        }
        idle = 0;
        const key = exclusionKey(job);
        if (running.has(key)) clashes.push(`${owner} got job ${job.id} while ${running.get(key)} runs ${key}`);
        running.set(key, owner);
        ran.push(job.id);
        await sleep(3 + (job.id % 5));
        running.delete(key);
        const done = await pg.db
          .update(processes)
          .set({ status: 'done', leaseExpiresAt: null })
          .where(eq(processes.id, job.id))
          .returning({ id: processes.id });
        expect(done).toHaveLength(1);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    expect(clashes).toEqual([]);
    expect([...ran].sort((a, b) => a - b)).toEqual(queued.map((j) => j.id).sort((a, b) => a - b));
    const rows = await pg.db.select().from(processes);
    expect(rows.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
    // the work was spread: both nodes took jobs
    expect(new Set(rows.map((r) => r.workerId?.split('/')[0])).size).toBe(2);
  });

  it('takes over a job whose lease has ended, and leaves a job under a live lease (and its fund) alone', async () => {
    const [a, b] = [await fund('A'), await fund('B')];
    const now = Date.now();
    const [stale] = await pg.db
      .insert(processes)
      .values({ fundRequestId: a, stage: 'calculations', status: 'running', workerId: 'dead-node/t1', leaseExpiresAt: now - 1, attempts: 1, payload: {} })
      .returning();
    await pg.db
      .insert(processes)
      .values({ fundRequestId: b, stage: 'calculations', status: 'running', workerId: 'live-node/t1', leaseExpiresAt: now + 60_000, attempts: 1, payload: {} });
    await queue([{ fundRequestId: b, stage: 'visualization' }]);
    const taken = (await claimNextPg(pg.db, { owner: 'n2/t1', leaseMs: 30_000, now })) as PgProcessRow;
    expect(taken).toMatchObject({ id: stale!.id, workerId: 'n2/t1', attempts: 2, leaseExpiresAt: now + 30_000 });
    // fund B's pending job waits for its running one
    expect(await claimNextPg(pg.db, { owner: 'n2/t2', leaseMs: 30_000, now })).toBeNull();
  });

  it('claims only the stages a worker runs', async () => {
    const f = await fund('A');
    const [, wanted] = await queue([
      { fundRequestId: f, stage: 'identification' },
      { fundRequestId: null, stage: 'export', payload: { exportId: 9 } },
    ]);
    expect(await claimNextPg(pg.db, { owner: 'n/t1', leaseMs: 1000, stages: ['export'] })).toMatchObject({ id: wanted!.id, stage: 'export' });
  });
});
