/**
 * The job threads of a server: every stage of a real delivery runs in a worker thread (never on
 * the thread that serves requests), its events reach the server's bus, a job thread keeps the
 * cached scorecard facts up to date, and a cancel from the server reaches the thread running the job.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fundFiles, processes } from '../db/schema/index.js';
import { fixturesDir } from '../paths.js';
import { startRuntime, type Runtime } from '../runtime.js';
import { importFile } from '../services/imports/imports.js';
import { createTestContext, type TestContext } from '../testing/context.js';
import { cancelProcess } from '../queue/processes.js';
import { JOB_THREAD_NICENESS, SCHED_IDLE, threadScheduling } from './thread.js';

let ctx: TestContext;
let runtime: Runtime | undefined;
beforeEach(async () => {
  ctx = await createTestContext({ workers: 2, identificationLimitBytes: 100_000_000 });
});
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  await ctx.dispose();
});

async function until<T>(what: string, fn: () => T | undefined | null | false, ms = 40_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The niceness and scheduling policy of each thread of this process, by thread id. */
function threadPriorities(): Map<number, { niceness: number; policy: number }> {
  return new Map(readdirSync('/proc/self/task').map((tid) => [Number(tid), threadScheduling(`/proc/self/task/${tid}/stat`)]));
}
const lowered = () => [...threadPriorities().values()].filter((p) => p.niceness === JOB_THREAD_NICENESS && p.policy === SCHED_IDLE).length;
const hasChrt = process.platform === 'linux' && spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0;

describe('job threads', () => {
  it.runIf(hasChrt)('run at the idle CPU priority, below the thread serving requests', async () => {
    const before = lowered();
    runtime = startRuntime(ctx, { nodeId: 'serve-test', sweeper: false, pollMs: 100 });
    const n = await until('two lowered threads', () => {
      const more = lowered() - before;
      return more >= 2 && more;
    });
    expect(n).toBe(2);
    // this thread (the serving one: its id is the process id) keeps its priority
    expect(threadPriorities().get(process.pid)).toEqual({ niceness: 0, policy: 0 });
  });

  it('run every stage of a delivery in worker threads and pass their events to the server', async () => {
    const events: string[] = [];
    ctx.events.on('process', (p) => events.push(`${p.stage}:${p.status}`));
    const files: string[] = [];
    ctx.events.on('file', (f) => files.push(`${f.kind}:${f.status}`));
    runtime = startRuntime(ctx, { nodeId: 'serve-test', sweeper: false, pollMs: 100 });
    expect(runtime.threads.threadIds()).toHaveLength(2);
    const dir = join(fixturesDir(), 'tpas/meridian_fund_services/inputs');
    for (const name of readdirSync(dir))
      await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: name, path: join(dir, name), userId: ctx.boot.admin.id, source: 'cli' });
    await until('the work paper', () =>
      ctx.db
        .select()
        .from(fundFiles)
        .all()
        .find((f) => f.kind === 'work_paper'),
    );
    await until('every job to end', () =>
      ctx.db
        .select()
        .from(processes)
        .all()
        .every((p) => p.status === 'done'),
    );

    const jobs = ctx.db.select().from(processes).all();
    // the chase review follows the checks, on a worker thread like the stages
    expect(new Set(jobs.map((j) => j.stage))).toEqual(new Set(['identification', 'standardization', 'calculations', 'visualization', 'chaseReview']));
    const threads = new Set(runtime.threads.threadIds().map(String));
    for (const j of jobs) {
      const [, node, thread] = /^(.+)\/t(\d+)$/.exec(j.workerId ?? '') ?? [];
      expect(node).toBe('serve-test');
      expect(Number(thread)).not.toBe(threadId); // never this (the serving) thread
      expect(threads.has(thread)).toBe(true);
    }
    // a job's events are sent after its commit, from its thread: they may arrive just after the rows show it done
    await until('the last events', () => events.includes('visualization:done') && files.includes('work_paper:done'));
    expect(events).toEqual(
      expect.arrayContaining(['identification:running', 'identification:done', 'standardization:done', 'calculations:done', 'visualization:done']),
    );
    expect(files).toContain('work_paper:done');
    // the delivery's events marked its scorecard facts stale; a job thread (this one runs no refresher with job threads) writes them back
    const stale = () =>
      ctx.sqlite
        .prepare('select (select count(*) from scorecard_facts where stale = 1) + (select count(*) from scorecard_tallies where stale = 1) n')
        .get() as { n: number };
    await until('the scorecard facts refreshed', () => stale().n === 0);
    expect((ctx.sqlite.prepare('select count(*) n from scorecard_facts where refreshed_at is not null').get() as { n: number }).n).toBeGreaterThan(0);
  }, 90_000);

  it('pass a cancel from the server to the thread running the job', async () => {
    // the Goldman Sachs positions 150 times over keep standardization busy for a few seconds, so
    // the cancel reaches it while it runs even when the machine is loaded
    const src = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8').split('\r\n');
    const big = join(ctx.dir, 'MFS_HOLDINGS_BIG.csv');
    writeFileSync(big, [...src.slice(0, 4), ...Array.from({ length: 150 }, () => src.slice(4).filter(Boolean)).flat(), ''].join('\r\n'));
    runtime = startRuntime(ctx, { nodeId: 'serve-test', sweeper: false, pollMs: 100 });
    await importFile(ctx, {
      administratorCode: 'meridian_fund_services',
      fileName: 'MFS_HOLDINGS_BIG.csv',
      path: big,
      userId: ctx.boot.admin.id,
      source: 'cli',
    });
    const running = await until('a running standardization', () =>
      ctx.db
        .select()
        .from(processes)
        .all()
        .find((p) => p.stage === 'standardization' && p.status === 'running'),
    );
    await cancelProcess(ctx, running.id);
    // the thread stops and removes what it had staged; nothing runs after it
    await until(
      'no staging file',
      () => (ctx.sqlite.prepare("select count(*) n from fund_files where kind in ('staging', 'standardization')").get() as { n: number }).n === 0,
    );
    await new Promise((r) => setTimeout(r, 500));
    const after = ctx.db.select().from(processes).all();
    expect(after.find((p) => p.id === running.id)?.status).toBe('suspended');
    expect(after.filter((p) => p.stage === 'calculations')).toEqual([]);
  }, 100_000);
});
