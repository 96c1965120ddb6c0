/**
 * The test runner on the real fixtures: every shipped case passes with the fixture mappings, the
 * expected files hold the real figures of fixtures/tpas/* /expected.json, a changed mapping fails a
 * case with a difference that names the column and shows expected vs actual, runs are chosen and
 * refused by code and id, cancelled runs leave no workspace behind, and runs interrupted by a stop
 * are marked as such.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { compareChecks, compareRows } from './compare.js';
import { readStandardizedCsv, type ChecksSnapshot } from './outputs.js';
import { runPlan } from '../../jobs/test-runner/run-suites.js';
import { planRun, type RunResults } from './plan.js';
import { junitXml } from './report.js';
import { defaultSuitesDir, loadSuites } from './suites.js';
import { INTERRUPTED, getRun, listRuns, recoverInterruptedRuns, scheduleRun, stopRun, waitForRun } from './test-runner.js';
import { readCaseFile } from './case-files.js';
import { startRuntime } from '../../runtime.js';

const suites = loadSuites();
const suiteDir = (code: string, id: string) => join(defaultSuitesDir(), code, id);
const fixtureFund = (code: string) => JSON.parse(readFileSync(join(fixturesDir(), 'tpas', code, 'expected.json'), 'utf8')).funds[0];
const steps = (r: RunResults, code: string, id: string) => r.reports[code].tests.find((t) => t.id === id)!.steps;

/** A copy of the demo TPA's fixture mappings with MUNI mapped to EQUITY instead of DEBT. */
function changedDemoMappings(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mappings-'));
  cpSync(join(fixturesDir(), 'tpas', 'demo_test', 'mappings'), join(dir, 'demo_test'), { recursive: true });
  const file = join(dir, 'demo_test', 'instrument_mapping.csv');
  writeFileSync(file, readFileSync(file, 'utf8').replace('MUNI,DEBT', 'MUNI,EQUITY'));
  return dir;
}

describe('shipped suites', () => {
  let results: RunResults;
  beforeAll(async () => {
    const plan = planRun(suites, ['meridian_fund_services', 'keystone_admin', 'demo_test']);
    results = (await runPlan(plan, { mappings: { kind: 'fixtures' } })).results;
  }, 60_000);

  it('pass on the real fixtures, every case and step', () => {
    const failed = Object.entries(results.reports).flatMap(([code, r]) =>
      r.tests.filter((t) => !t.success).map((t) => `${code}/${t.id}: ${JSON.stringify(t.steps.filter((s) => !s.success))}`),
    );
    expect(failed).toEqual([]);
    expect(Object.fromEntries(Object.entries(results.reports).map(([code, r]) => [code, r.tests.map((t) => t.id)]))).toEqual({
      meridian_fund_services: ['1', '2'],
      keystone_admin: ['1'],
      demo_test: ['1', '2'],
    });
    expect(
      steps(results, 'meridian_fund_services', '1')
        .map((s) => s.stepId)
        .sort(),
    ).toEqual(
      [
        'load-mappings',
        'create-fund-request',
        'import',
        'identification',
        'standardization:share_capital',
        'standardization:holdings',
        'standardization:prices',
        'standardization:trial_balance',
        'calculations',
        'work-papers',
        'compare-standardized:holdings',
        'compare-standardized:prices',
        'compare-standardized:share_capital',
        'compare-standardized:trial_balance',
        'compare-checks',
      ].sort(),
    );
    expect(results.stats.totalTime).toBeGreaterThan(0);
  });

  it('expects Invalid holdings with the QA_Mapping entry for the unknown instrument', () => {
    const std = steps(results, 'meridian_fund_services', '2').find((s) => s.stepId === 'standardization:holdings')!;
    expect(std.payload).toMatchObject({ validationStatus: 'Invalid', rowCount: 6, qaMapping: [{ name: 'BANK LOAN', column: 'Asset Class', lines: [7] }] });
  });

  it('hold the real figures of fixtures/tpas/*/expected.json', () => {
    for (const [code, id] of [
      ['meridian_fund_services', '1'],
      ['keystone_admin', '1'],
      ['demo_test', '2'],
    ]) {
      const fund = fixtureFund(code);
      const dir = join(suiteDir(code, id), 'expected');
      const checks = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as ChecksSnapshot;
      expect(checks.figures.nav.value, code).toBeCloseTo(fund.net_assets, 2);
      const holdings = readStandardizedCsv('holdings', readFileSync(join(dir, 'standardized', 'holdings.csv'), 'utf8'));
      expect(holdings).toHaveLength(fund.positions);
      expect(holdings.reduce((s, r) => s + Number(r.market_value_base), 0)).toBeCloseTo(fund.holdings_market_value_base, 2);
      const tb = readStandardizedCsv('trial_balance', readFileSync(join(dir, 'standardized', 'trial_balance.csv'), 'utf8'));
      expect(tb.reduce((s, r) => s + Number(r.balance_base), 0)).toBeCloseTo(0, 2);
      if (fund.prices_rows)
        expect(
          readFileSync(join(dir, 'standardized', 'prices.csv'), 'utf8')
            .trimEnd()
            .split('\n'),
        ).toHaveLength(fund.prices_rows + 1);
    }
    const gs = JSON.parse(readFileSync(join(suiteDir('meridian_fund_services', '1'), 'expected', 'checks.json'), 'utf8')) as ChecksSnapshot;
    expect(gs.figures.nav.value).toBe(361898455.93);
    // warnings: the 8 two-leg ids, price testing (the TPA's own prices only) and FX testing of CLP and TWD (no ECB rate), NOT PERFORMED
    expect(gs.checks.price_testing.statuses).toEqual({ warning: 1 });
    expect(gs.checks.fx_testing.statuses).toEqual({ pass: 22, warning: 2 });
    expect(gs.summary).toEqual({ pass: 29, warning: 11, fail: 0 });
    expect(gs.checks.holdings_integrity.statuses).toEqual({ warning: 8 });
  });

  it('give JUnit XML with one testsuite per administrator and one testcase per case', () => {
    const xml = junitXml(results);
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toContain('name="1: Goldman Sachs Bond Fund: full delivery (TB, holdings, prices, capital)"');
    expect(xml).not.toContain('<failure');
  });
});

describe('a changed mapping', () => {
  it('fails the case, naming the column and showing expected vs actual', async () => {
    const dir = changedDemoMappings();
    try {
      const plan = planRun(suites, ['demo_test'], ['2']);
      const { results } = await runPlan(plan, { mappings: { kind: 'dir', dir } });
      const test = results.reports.demo_test.tests[0];
      expect(test.success).toBe(false);
      const s = test.steps.find((x) => x.stepId === 'compare-standardized:holdings')!;
      expect(s.success).toBe(false);
      expect(s.error!.message).toMatch(
        /^holdings: 55 row\(s\) differ \(expected 55 rows, got 55\); first: row 1 \(security_id US49151FGH73, file line 2\): standard_instrument expected 'DEBT', actual 'EQUITY'$/,
      );
      expect(s.error!.traceback).toContain('differing columns: standard_instrument');
      expect(s.error!.traceback).toMatch(/expected: S000012000,2022-12-31,US49151FGH73,.*,DEBT\n {2}actual: {3}S000012000,2022-12-31,US49151FGH73,.*,EQUITY/);
      expect(s.error!.details).toMatchObject({ differingRows: 55, missingRows: 0, extraRows: 0 });
      // the other files and the load step are untouched
      expect(test.steps.find((x) => x.stepId === 'compare-standardized:trial_balance')!.success).toBe(true);
      expect(test.steps.find((x) => x.stepId === 'load-mappings')!.payload).toMatchObject({ source: join(dir, 'demo_test') });
      expect(junitXml(results)).toMatch(
        /<failure message="compare-standardized:holdings: holdings: 55 row\(s\) differ .*standard_instrument expected &apos;DEBT&apos;, actual &apos;EQUITY&apos;"/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('in a copied suite with a changed expected row, reports the row as expected vs actual', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fa-suites-'));
    try {
      cpSync(join(defaultSuitesDir(), 'demo_test', '1'), join(root, 'demo_test', '1'), { recursive: true });
      const file = join(root, 'demo_test', '1', 'expected', 'standardized', 'trial_balance.csv');
      writeFileSync(file, readFileSync(file, 'utf8').replace('A900,', 'A901,'));
      const { results } = await runPlan(planRun(loadSuites(root), ['demo_test']), { mappings: { kind: 'fixtures' } });
      const s = results.reports.demo_test.tests[0].steps.find((x) => x.stepId === 'compare-standardized:trial_balance')!;
      expect(s.error!.message).toContain("account_code expected 'A901', actual 'A900'");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('choosing cases', () => {
  it('refuses unknown administrator codes and test ids, naming them', () => {
    expect(() => planRun(suites, ['demo_test', 'nope', 'other'])).toThrow('Unknown administrator code(s): nope, other');
    expect(() => planRun(suites, ['demo_test'], ['2', '9'])).toThrow('Unknown test id(s): 9');
    expect(() => planRun(suites, [])).toThrow(ValidationError);
    expect(planRun(suites, ['demo_test', 'keystone_admin'], ['2']).map((p) => [p.administratorCode, p.tests.map((t) => t.id)])).toEqual([
      ['demo_test', ['2']],
      ['keystone_admin', []],
    ]);
  });
});

describe('comparisons', () => {
  it('count missing and extra rows', () => {
    const row = (code: string, bal: string) => ({
      fund_code: 'F',
      as_of: '2023-03-31',
      account_code: code,
      account_name: '',
      currency: 'USD',
      balance_local: bal,
      balance_base: bal,
      standard_account: 'CASH',
    });
    const cmp = compareRows(
      'trial_balance',
      [row('1', '10'), row('2', '20'), row('3', '30')],
      [row('1', '10.0000000000001'), row('2', '21'), row('4', '40'), row('5', '50')],
    );
    expect(cmp).toMatchObject({ equal: false, differingRows: 2, missingRows: 0, extraRows: 1 });
    expect(cmp.differences[0]).toMatchObject({ key: 'account_code 2', columns: ['balance_local', 'balance_base'] });
  });

  it('compare check figures within their tolerance', () => {
    const snap = (nav: number, status: 'pass' | 'fail'): ChecksSnapshot => ({
      status,
      summary: { pass: status === 'pass' ? 1 : 0, warning: 0, fail: status === 'fail' ? 1 : 0 },
      figures: { nav: { value: nav, tolerance: 0.01 } },
      checks: { nav: { statuses: { [status]: 1 }, tolerance: 0.01, items: [{ name: 'NAV', status, diff: nav - 100 }] } },
    });
    expect(compareChecks(snap(100, 'pass'), snap(100.005, 'pass'))).toEqual([]);
    expect(compareChecks(snap(100, 'pass'), snap(101, 'fail'))).toEqual([
      'overall status: expected pass, actual fail',
      'summary.pass: expected 1, actual 0',
      'summary.fail: expected 0, actual 1',
      'nav: expected 100 ± 0.01, actual 101 (difference 1)',
      'nav: statuses expected {"pass":1}, actual {"fail":1}',
      "nav 'NAV': status expected pass, actual fail",
      "nav 'NAV': diff expected 0 ± 0.01, actual 1",
    ]);
  });
});

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

describe('what a case may read', () => {
  /** A suite `demo_test` in a new folder: case `id` a copy of demo_test/1 with `change` applied to its case.json. */
  function suiteWith(cases: Record<string, (def: Record<string, unknown>, dir: string) => void>): string {
    const root = mkdtempSync(join(tmpdir(), 'fa-suites-'));
    for (const [id, change] of Object.entries(cases)) {
      const dir = join(root, 'demo_test', id);
      cpSync(join(defaultSuitesDir(), 'demo_test', '1'), dir, { recursive: true });
      const def = { ...JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')), id };
      change(def, dir);
      writeFileSync(join(dir, 'case.json'), JSON.stringify(def));
    }
    return root;
  }

  it('only regular files inside its suite folder, no larger than the limit, and never waits on a pipe', async () => {
    const root = suiteWith({
      '1': (def) => (def.inputs = ['../../../../../../../../etc/passwd']),
      '2': (def) => (def.inputs = ['/etc/hostname']),
      '3': (def, dir) => {
        symlinkSync('/etc/passwd', join(dir, 'inputs', 'linked.csv'));
        def.inputs = ['linked.csv'];
      },
      '4': (def, dir) => {
        execFileSync('mkfifo', [join(dir, 'inputs', 'pipe.csv')]);
        def.inputs = ['pipe.csv'];
      },
      '5': (def, dir) => {
        writeFileSync(join(dir, 'inputs', 'big.csv'), 'x'.repeat(5000));
        def.inputs = ['big.csv'];
      },
      '6': (def) => (def.fundRequest = { ref: '../../../../../etc/passwd', fundShortCode: 'S000012000' }),
    });
    try {
      const suite = loadSuites(root);
      expect(suite[0]!.tests.find((t) => t.id === '6')!.loadError).toMatch(/fundRequest\.ref: must be the name of a file in fixtures\/fund-requests/);
      const { results } = await runPlan(planRun(suite, ['demo_test'], ['1', '2', '3', '4', '5']), { mappings: { kind: 'fixtures' }, maxFileBytes: 4096 });
      const importError = (id: string) => steps(results, 'demo_test', id).find((s) => s.stepId === 'import')?.error?.message;
      expect(importError('1')).toMatch(
        /^Input file passwd \(.*etc\/passwd\) is outside the suite's folder .*demo_test: a case reads only files inside its suite's folder$/,
      );
      expect(importError('2')).toMatch(/^Input file hostname \(\/etc\/hostname\) is outside the suite's folder/);
      expect(importError('3')).toMatch(/^Input file linked\.csv \(.*linked\.csv\) is outside the suite's folder/);
      expect(importError('4')).toMatch(/^Input file pipe\.csv \(.*pipe\.csv\) is a named pipe: a case reads only regular files$/);
      expect(importError('5')).toMatch(/^Input file big\.csv \(.*big\.csv\) is 5000 bytes, larger than the limit of 4096 bytes$/);
      expect(results.reports.demo_test.tests.map((t) => t.success)).toEqual([false, false, false, false, false]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);

  it('lists a case whose case.json is a pipe or lies outside the suite folder with the reason, without waiting', () => {
    const root = suiteWith({ '1': () => undefined, '2': () => undefined });
    const outside = mkdtempSync(join(tmpdir(), 'fa-outside-'));
    try {
      rmSync(join(root, 'demo_test', '1', 'case.json'));
      execFileSync('mkfifo', [join(root, 'demo_test', '1', 'case.json')]);
      writeFileSync(join(outside, 'case.json'), readFileSync(join(root, 'demo_test', '2', 'case.json')));
      rmSync(join(root, 'demo_test', '2', 'case.json'));
      symlinkSync(join(outside, 'case.json'), join(root, 'demo_test', '2', 'case.json'));
      const [suite] = loadSuites(root);
      expect(suite!.tests.map((t) => [t.id, t.def, t.loadError])).toEqual([
        ['1', null, expect.stringMatching(/^case\.json \(.*\) is a named pipe: a case reads only regular files$/)],
        ['2', null, expect.stringMatching(/^case\.json \(.*\) is outside the suite's folder/)],
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('reads an input in chunks and stops at the next chunk when the run is stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-read-'));
    try {
      writeFileSync(join(dir, 'big.csv'), Buffer.alloc(5 * 1024 * 1024, 'a'));
      let asked = 0;
      const stopped = new Error('stopped');
      const between = () => {
        if (++asked === 2) throw stopped;
      };
      await expect(readCaseFile(join(dir, 'big.csv'), dir, 'Input file big.csv', { between })).rejects.toBe(stopped);
      expect(asked).toBe(2);
      expect((await readCaseFile(join(dir, 'big.csv'), dir, 'Input file big.csv')).length).toBe(5 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
