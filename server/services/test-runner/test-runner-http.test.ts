/**
 * The test-runner routes in-process, with the runs executed by job threads: schedule -> poll ->
 * done with per-step results, the runs list
 * with the suites, stop, 400 for unknown codes or ids, 409 when the runner is disabled, and a run
 * against a changed production master mapping failing with a readable difference.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMappingCsv } from '../../../pipeline/mappings/parse.js';
import { fixturesDir } from '../../paths.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../../testing/context.js';
import { generateServiceKey } from '../dev-tools/keys.js';
import { administratorByCode } from '../imports/imports.js';
import { addUser } from '../users/users.js';
import { upsertMasterMapping } from '../mappings/store.js';
import { startRuntime, type Runtime } from '../../runtime.js';
import { waitForRun } from './test-runner.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
let runtime: Runtime;
const events: Array<{ id: number; status: string }> = [];

beforeAll(async () => {
  ctx = await createTestContext(); // demo data: the fixture TPAs with their master mappings
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  ctx.events.on('test-run', (e) => events.push(e));
  runtime = startRuntime(ctx, { nodeId: 'serve-test', sweeper: false, pollMs: 50 }); // runs execute in job threads
});
afterAll(async () => {
  await runtime.stop();
  await ctx.dispose();
});

/** The run once it has ended (done, error or suspended), as the API answers it. */
async function poll(id: number, timeoutMs = 30_000) {
  let payload: any;
  await expect
    .poll(
      async () => {
        const res = await api.get(`dev-tools/test-runner/tests/${id}`, token);
        expect(res.status).toBe(200);
        payload = res.body.payload;
        return payload.status;
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toMatch(/^(done|error|suspended)$/);
  return payload;
}

describe('test runner API', () => {
  it('schedules a run (ids comma-separated), runs it in the background and reports every step', async () => {
    const res = await api.post('dev-tools/test-runner/schedule', { administratorCodes: ['demo_test'], testIds: '1, 2' }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payload).toMatchObject({
      status: 'pending',
      administratorCodes: ['demo_test'],
      testIds: ['1', '2'],
      userAuthId: ctx.boot.admin.id,
      hasErrors: false,
      results: null,
    });
    const run = await poll(res.body.payload.id);
    expect(run).toMatchObject({ status: 'done', hasErrors: false });
    expect(run.results.stats).toMatchObject({ startedAt: expect.any(String), finishedAt: expect.any(String), totalTime: expect.any(Number) });
    const tests = run.results.reports.demo_test.tests;
    expect(tests.map((t: any) => [t.id, t.success])).toEqual([
      ['1', true],
      ['2', true],
    ]);
    expect(tests[1].steps.find((s: any) => s.stepId === 'load-mappings').payload.source).toBe('production');
    expect(tests[1].steps.find((s: any) => s.stepId === 'calculations').payload).toMatchObject({ status: 'warning', nav: 41349926.01 });
    // the job thread commits the run's status before its event reaches this thread: wait for the event
    await expect
      .poll(() => events.filter((e) => e.id === run.id).map((e) => e.status), { timeout: 5_000 })
      .toEqual(expect.arrayContaining(['pending', 'running', 'done']));
  }, 30_000);

  it('lists runs newest first with the suites available', async () => {
    const res = await api.get('dev-tools/test-runner/tests?offset=0&limit=50', token);
    expect(res.status).toBe(200);
    const { rows, pagination, suites } = res.body.payload;
    expect(rows[0]).toMatchObject({ administratorCodes: ['demo_test'], status: 'done', user: expect.any(String), updated_at: expect.any(String) });
    expect(pagination).toMatchObject({ offset: 0, limit: 50, count: rows.length });
    expect(suites.map((s: any) => s.administratorCode)).toEqual(['demo_test', 'keystone_admin', 'meridian_fund_services']);
    expect(suites[2]).toMatchObject({
      administratorName: 'Meridian Fund Services',
      tests: [
        { id: '1', title: expect.stringContaining('Goldman Sachs') },
        { id: '2', title: expect.any(String) },
      ],
    });
  });

  it('answers 400 naming unknown administrator codes or test ids', async () => {
    const bad = await api.post('dev-tools/test-runner/schedule', { administratorCodes: ['demo_test', 'no_such_tpa'] }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Unknown administrator code(s): no_such_tpa');
    const ids = await api.post('dev-tools/test-runner/schedule', { administratorCodes: 'demo_test', testIds: ['1', '42'] }, token);
    expect(ids.status).toBe(400);
    expect(ids.body.errors[0]).toMatch(/no test '42'/);
    expect((await api.get('dev-tools/test-runner/tests/999', token)).status).toBe(404);
  });

  it('stops a run: suspended at once, and 409 once it has ended', async () => {
    const first = (await api.post('dev-tools/test-runner/schedule', { administratorCodes: ['meridian_fund_services'], testIds: ['1'] }, token)).body.payload;
    const second = (await api.post('dev-tools/test-runner/schedule', { administratorCodes: ['demo_test'] }, token)).body.payload;
    // the second run waits while the first runs (runs go one at a time): stop it first, so it is
    // surely still pending, then the running one
    const stoppedPending = await api.post('dev-tools/test-runner/test/stop', { id: second.id }, token);
    expect(stoppedPending.status).toBe(200);
    expect(stoppedPending.body.payload.status).toBe('suspended');
    const stopped = await api.post('dev-tools/test-runner/test/stop', { id: first.id }, token);
    expect(stopped.status).toBe(200);
    expect(stopped.body.payload.status).toBe('suspended');
    expect((await waitForRun(ctx, first.id)).status).toBe('suspended');
    // the second run is stopped before any of its cases ran (its job may have just started it)
    const stoppedSecond = await waitForRun(ctx, second.id);
    expect(stoppedSecond.status).toBe('suspended');
    expect(Object.keys((stoppedSecond.results as { reports?: object } | null)?.reports ?? {})).toEqual([]);
    const again = await api.post('dev-tools/test-runner/test/stop', { id: first.id }, token);
    expect(again.status).toBe(409);
  }, 30_000);

  it('fails a case when the production master mapping changed, naming the column', async () => {
    const admin = await administratorByCode(ctx, 'demo_test');
    const file = join(fixturesDir(), 'tpas', 'demo_test', 'mappings', 'instrument_mapping.csv');
    const rows = parseMappingCsv(
      'instrument_mapping',
      'instrument_mapping.csv',
      Buffer.from(readFileSync(file, 'utf8').replace('MUNI,DEBT', 'MUNI,FUND')),
    ).rows;
    await upsertMasterMapping(ctx, { administratorId: admin.id, adminCode: admin.code, type: 'instrument_mapping', rows, userId: null });
    const res = await api.post('dev-tools/test-runner/schedule', { administratorCodes: ['demo_test'], testIds: ['2'] }, token);
    const run = await poll(res.body.payload.id);
    expect(run).toMatchObject({ status: 'done', hasErrors: true });
    const step = run.results.reports.demo_test.tests[0].steps.find((s: any) => !s.success);
    expect(step.stepId).toBe('compare-standardized:holdings');
    expect(step.error.message).toContain("standard_instrument expected 'DEBT', actual 'FUND'");
    expect(step.error.traceback).toContain('differing columns: standard_instrument');
    // the same run with the fixture mappings passes
    const fx = await api.post('dev-tools/test-runner/schedule', { administratorCodes: ['demo_test'], testIds: ['2'], mappings: 'fixtures' }, token);
    expect((await poll(fx.body.payload.id)).hasErrors).toBe(false);
  }, 30_000);

  it('refuses with 409 when the test runner is disabled', async () => {
    const off = await createTestContext({ testRunner: false, seedDemoData: false });
    try {
      const offApi = apiClient(off);
      const t = await sessionToken(off, off.boot.admin.id);
      for (const [method, path, body] of [
        ['GET', 'dev-tools/test-runner/tests'],
        ['GET', 'dev-tools/test-runner/tests/1'],
        ['POST', 'dev-tools/test-runner/schedule', { administratorCodes: ['demo_test'] }],
        ['POST', 'dev-tools/test-runner/test/stop', { id: 1 }],
      ] as const) {
        const res = await offApi.call(method, path, { token: t, body });
        expect(res.status, path).toBe(409);
        expect(res.body.message).toBe('The test runner is disabled');
      }
    } finally {
      await off.dispose();
    }
  });

  it('is closed to a delivery team member while developer tools are disabled, not to Admin or the test-runner key', async () => {
    expect(ctx.config.devToolsEnabled).toBe(false);
    const dtm = await addUser(ctx, { email: 'runner-dtm@example.com', name: 'Dana Delivery', role: 'DeliveryTeamMember' });
    const dtmToken = await sessionToken(ctx, dtm.id);
    const calls = [
      ['GET', 'dev-tools/test-runner/tests'],
      ['GET', 'dev-tools/test-runner/tests/1'],
      ['POST', 'dev-tools/test-runner/schedule', { administratorCodes: ['demo_test'] }],
      ['POST', 'dev-tools/test-runner/test/stop', { id: 1 }],
    ] as const;
    for (const [method, path, body] of calls) {
      const res = await api.call(method, path, { token: dtmToken, body });
      expect(res.status, path).toBe(403);
      expect(res.body.message).toBe('The test runner is open to delivery team members only while developer tools are enabled (setting devToolsEnabled)');
    }
    expect((await api.get('dev-tools/test-runner/tests', token)).status).toBe(200);
    const key = await generateServiceKey(ctx, ctx.boot.admin, 'test-runner');
    expect((await api.get('dev-tools/test-runner/tests', key.token)).status).toBe(200);
    // with developer tools on, the delivery team member may use it
    ctx.config.devToolsEnabled = true;
    try {
      expect((await api.get('dev-tools/test-runner/tests', dtmToken)).status).toBe(200);
    } finally {
      ctx.config.devToolsEnabled = false;
    }
  });
});
