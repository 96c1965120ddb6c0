/**
 * `fund-audit test` through the built binary, with no terminal and standard input closed: a passing
 * run exits 0 and writes JUnit with the case names, a changed mapping exits 3 with a `<failure>`,
 * the data directory is left alone, `--json` prints the results, and `--server` schedules the run
 * on a running server and polls it; SIGTERM stops a local run between the reads of a case and exits 1
 * saying the run was cancelled.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { appRoot, fixturesDir } from '../server/paths.js';
import { signIn } from './testing/server.js';

const bin = join(appRoot(), 'bin/fund-audit.mjs');
const { CI: _ci, ...noCi } = process.env;
const env = { ...noCi, FUND_AUDIT_SEED_DEMO_DATA: 'false' };
/** Runs the CLI with stdin closed (/dev/null) and stdout/stderr piped: no TTY anywhere. */
const run = (args: string[], cwd = tmpdir()) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });

function junit(file: string) {
  const xml = readFileSync(file, 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(xml).testsuites;
}

describe('fund-audit test', () => {
  it('run --admin demo_test --reporter junit --output f.xml: exit 0, valid JUnit naming the cases, no data directory written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-test-cli-'));
    const r = run(['-d', join(dir, 'data'), 'test', 'run', '--admin', 'demo_test', '--reporter', 'junit', '--output', join(dir, 'f.xml')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/demo_test: done 2\/2 \(2 passed\)/);
    const doc = junit(join(dir, 'f.xml'));
    expect(doc).toMatchObject({ tests: '2', failures: '0' });
    expect(doc.testsuite).toHaveLength(1);
    expect(doc.testsuite[0]).toMatchObject({ name: 'demo_test', tests: '2', failures: '0' });
    expect(doc.testsuite[0].testcase.map((c: any) => c.name)).toEqual([
      '1: Partial delivery: trial balance and holdings, share capital not yet received',
      '2: Demo mode delivery: the three demo files',
    ]);
    expect(doc.testsuite[0].testcase.every((c: any) => !('failure' in c))).toBe(true);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('a case broken by a changed mapping exits 3; the JUnit has a <failure> naming the column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-test-cli-'));
    cpSync(join(fixturesDir(), 'tpas', 'demo_test', 'mappings'), join(dir, 'maps', 'demo_test'), { recursive: true });
    const file = join(dir, 'maps', 'demo_test', 'instrument_mapping.csv');
    writeFileSync(file, readFileSync(file, 'utf8').replace('MUNI,DEBT', 'MUNI,EQUITY'));
    const r = run([
      'test',
      'run',
      '--admin',
      'demo_test',
      '--admin',
      'keystone_admin',
      '--tests',
      '1',
      '--mappings',
      join(dir, 'maps'),
      '--reporter',
      'junit',
      '--output',
      join(dir, 'f.xml'),
    ]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/✘ demo_test 1: compare-standardized:holdings: holdings: 55 row\(s\) differ/);
    expect(r.stdout).toContain("standard_instrument expected 'DEBT', actual 'EQUITY'");
    const doc = junit(join(dir, 'f.xml'));
    expect(doc.testsuite.map((s: any) => [s.name, s.failures])).toEqual([
      ['demo_test', '1'],
      ['keystone_admin', '0'],
    ]);
    const failure = doc.testsuite[0].testcase[0].failure;
    expect(failure.message).toMatch(/^compare-standardized:holdings: .*standard_instrument expected 'DEBT', actual 'EQUITY'$/);
    expect(failure['#text']).toContain('differing columns: standard_instrument');
    expect(failure['#text']).toContain('expected: S000012000,2022-12-31,US49151FGH73');
  });

  it('stops a local run on SIGTERM at once, saying the run was cancelled, and leaves no workspace behind', async () => {
    // eight copies of the demo TPA's first case: a run long enough to be stopped in the middle
    const suites = mkdtempSync(join(tmpdir(), 'fa-suites-'));
    for (let i = 1; i <= 8; i++) {
      const dir = join(suites, 'demo_test', String(i));
      cpSync(join(fixturesDir(), 'test-suites', 'demo_test', '1'), dir, { recursive: true });
      const def = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8'));
      writeFileSync(join(dir, 'case.json'), JSON.stringify({ ...def, id: String(i) }));
    }
    // the run's workspaces go to a folder of this test's own: the first one there says the run has begun
    const tmp = mkdtempSync(join(tmpdir(), 'fa-run-tmp-'));
    const child = spawn(process.execPath, [bin, 'test', 'run', '--suites', suites, '--admin', 'demo_test'], {
      env: { ...env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => readdirSync(tmp).some((f) => f.startsWith('fund-audit-testrun-')), { timeout: 30_000, interval: 20 }).toBe(true);
      child.kill('SIGTERM');
      expect(await exited, out).toBe(1);
    } finally {
      child.kill('SIGKILL');
    }
    expect(out).toMatch(/The run was cancelled/);
    const ran = out.match(/^demo_test\s+\d+\s/gm) ?? [];
    expect(ran.length).toBeLessThan(8);
    expect(readdirSync(tmp).filter((f) => f.startsWith('fund-audit-testrun-'))).toEqual([]);
  }, 60_000);

  it('--json prints the run results; list shows the suites; unknown codes exit 3', () => {
    const r = run(['--json', 'test', 'run', '--admin', 'meridian_fund_services', '--tests', '2']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.stats).toMatchObject({ startedAt: expect.any(String), totalTime: expect.any(Number) });
    expect(out.reports.meridian_fund_services.tests[0]).toMatchObject({ id: '2', success: true });
    const list = run(['--json', 'test', 'list']);
    expect(JSON.parse(list.stdout).map((s: any) => [s.administratorCode, s.tests.map((t: any) => t.id)])).toEqual([
      ['demo_test', ['1', '2']],
      ['keystone_admin', ['1']],
      ['meridian_fund_services', ['1', '2']],
    ]);
    const bad = run(['test', 'run', '--admin', 'nope']);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toMatch(/Unknown administrator code\(s\): nope/);
    expect(run(['test', 'run']).status).toBe(3);
  });

  it('--server schedules the run on a running server and polls it to the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-test-cli-'));
    const child = spawn(process.execPath, [bin, '-d', dir, 'serve', '--port', '0'], {
      env: { ...env, FUND_AUDIT_SEED_DEMO_DATA: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const { url, link } = await new Promise<{ url: string; link: string }>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(out)), 20_000);
        child.stdout.on('data', (d) => {
          out += d;
          const u = out.match(/listening on (http:\/\/[\d.:]+)/);
          const l = out.match(/(http:\/\/\S+\/redeemToken\/#\S+)/);
          if (u && l) {
            clearTimeout(t);
            resolve({ url: u[1], link: l[1] });
          }
        });
      });
      const token = await signIn(url, link);
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const c = spawn(
          process.execPath,
          [bin, '--server', url, '--token', token, 'test', 'run', '--admin', 'demo_test', '--reporter', 'junit', '--output', join(dir, 'f.xml')],
          { env, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stdout = '';
        let stderr = '';
        c.stdout.on('data', (d) => (stdout += d));
        c.stderr.on('data', (d) => (stderr += d));
        c.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/demo_test: done 2\/2 \(2 passed\)/);
      expect(junit(join(dir, 'f.xml')).testsuite[0]).toMatchObject({ name: 'demo_test', tests: '2', failures: '0' });
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
