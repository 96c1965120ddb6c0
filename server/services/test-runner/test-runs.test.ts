/**
 * Test runs stopped part-way: a cancelled run stops between jobs and deletes its workspace, runs
 * interrupted by a stop are marked as such when a server starts, stopping a scheduled run cancels
 * its job, and a run cut off by a server shutting down is taken over by the next start.
 */
import { mkdtempSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { runPlan } from '../../jobs/test-runner/run-suites.js';
import { startRuntime } from '../../runtime.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { planRun } from './plan.js';
import { loadSuites } from './suites.js';
import { INTERRUPTED, getRun, listRuns, recoverInterruptedRuns, scheduleRun, stopRun, waitForRun } from './test-runner.js';

const suites = loadSuites();

describe('cancelling and restarts', () => {
  it('a cancelled run stops between jobs and deletes its workspace', async () => {
    const tmpRoot = mkdtempSync(join(tmpdir(), 'fa-ws-'));
    try {
      const controller = new AbortController();
      // stopped while its first case is under way
      const onProgress = (p: { type: string }) => p.type === 'case-start' && setImmediate(() => controller.abort());
      const run = runPlan(planRun(suites, ['meridian_fund_services', 'demo_test']), {
        mappings: { kind: 'fixtures' },
        signal: controller.signal,
        tmpRoot,
        onProgress,
      });
      const { results, cancelled } = await run;
      expect(cancelled).toBe(true);
      expect(results.reports.meridian_fund_services.tests[0].steps.at(-1)).toMatchObject({ stepId: 'cancelled', success: false });
      expect(results.reports.demo_test.tests).toEqual([]);
      expect(readdirSync(tmpRoot)).toEqual([]);
    } finally {
      rmSync(tmpRoot, { recursive: true, force: true });
    }
  });
});

describeEachDialect('test runs interrupted by a stop', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterAll(() => ctx?.dispose());

  it('are marked interrupted when a server starts, unless their job is still queued', async () => {
    const { db, tables: t } = storeOf(ctx);
    const run = (status: 'running' | 'pending' | 'done', testIds: string[]) => ({
      userId: ctx.boot.admin.id,
      administratorCodes: ['demo_test'],
      testIds,
      status,
      results: status === 'running' ? { stats: { startedAt: '2026-01-01T00:00:00.000Z' }, reports: {} } : null,
    });
    const [, , queued] = await db
      .insert(t.testRuns)
      .values([run('running', []), run('done', ['1']), run('pending', ['2'])])
      .returning({ id: t.testRuns.id });
    await db.insert(t.processes).values({ stage: 'testRun', status: 'pending', payload: { testRunId: queued?.id } });
    expect(await recoverInterruptedRuns(ctx)).toBe(1);
    const { rows, pagination } = await listRuns(ctx);
    expect(pagination.count).toBe(3);
    expect(rows.map((r) => [r.status, r.results?.error ?? null])).toEqual([
      ['pending', null],
      ['done', null],
      ['error', INTERRUPTED],
    ]);
    expect(existsSync(ctx.dir)).toBe(true);
  });

  it('a scheduled run queues its job, and stopping it cancels the job', async () => {
    const { db, tables: t } = storeOf(ctx);
    const run = await scheduleRun(ctx, ctx.boot.admin, { administratorCodes: 'demo_test', mappings: 'fixtures' });
    expect(run.status).toBe('pending');
    const jobOf = async () => (await db.select().from(t.processes)).find((p) => p.stage === 'testRun' && p.payload?.testRunId === run.id);
    expect(await jobOf()).toMatchObject({
      status: 'pending',
      fundRequestId: null,
      createdById: ctx.boot.admin.id,
      payload: { testRunId: run.id, mappings: 'fixtures' },
    });
    expect((await stopRun(ctx, run.id)).status).toBe('suspended');
    expect(await jobOf()).toMatchObject({ status: 'suspended', payload: { testRunId: run.id, cancelled: true } });
  });
});

describe('a server shutting down (SIGTERM) during a test run', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ seedDemoData: false, workers: 1 });
  });
  afterAll(() => ctx?.dispose());

  it('stops the run at once, leaves it for a takeover, and the next start runs it to the end', async () => {
    const run = await scheduleRun(ctx, ctx.boot.admin, { administratorCodes: 'meridian_fund_services,demo_test', mappings: 'fixtures' });
    const first = startRuntime(ctx, { nodeId: 'stopping', sweeper: false, pollMs: 50 });
    await expect.poll(async () => (await getRun(ctx, run.id)).status, { timeout: 20_000, interval: 20 }).toBe('running');
    await first.stop();
    const stopped = await getRun(ctx, run.id);
    expect(stopped.status).toBe('running');
    const finished = Object.values(stopped.results?.reports ?? {}).reduce((n, r) => n + r.tests.length, 0);
    expect(finished).toBeLessThan(4);
    const { db, tables: t } = storeOf(ctx);
    const job = (await db.select().from(t.processes)).find((p) => p.stage === 'testRun');
    expect(job).toMatchObject({ status: 'running', leaseExpiresAt: 0 });

    const second = startRuntime(ctx, { nodeId: 'started-again', sweeper: false, pollMs: 50 });
    try {
      const done = await waitForRun(ctx, run.id, 60_000);
      expect(done).toMatchObject({ status: 'done', hasErrors: false });
      expect(Object.values(done.results!.reports).map((r) => r.tests.length)).toEqual([2, 2]);
    } finally {
      await second.stop();
    }
  }, 90_000);
});
