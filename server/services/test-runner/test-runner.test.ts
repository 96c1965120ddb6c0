/**
 * The test runner on the real fixtures: every shipped case passes with the fixture mappings, the
 * expected files hold the real figures of fixtures/tpas/* /expected.json, a changed mapping fails a
 * case with a difference that names the column and shows expected vs actual, and runs are chosen and
 * refused by code and id. What a case may read: case-files.test.ts; cancelled, interrupted and
 * taken-over runs: test-runs.test.ts.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors.js';
import { fixturesDir } from '../../paths.js';
import { compareChecks, compareRows } from './compare.js';
import { readStandardizedCsv, type ChecksSnapshot } from './outputs.js';
import { runPlan } from '../../jobs/test-runner/run-suites.js';
import { planRun, type RunResults } from './plan.js';
import { junitXml } from './report.js';
import { defaultSuitesDir, loadSuites } from './suites.js';

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
