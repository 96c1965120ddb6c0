/**
 * What a test case may read: only regular files inside its suite's folder, no larger than the
 * limit, never a named pipe (for its inputs as for its case.json), read in chunks that stop when
 * the run is stopped.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPlan } from '../../jobs/test-runner/run-suites.js';
import { readCaseFile } from './case-files.js';
import { planRun, type RunResults } from './plan.js';
import { defaultSuitesDir, loadSuites } from './suites.js';

const steps = (r: RunResults, code: string, id: string) => r.reports[code].tests.find((t) => t.id === id)!.steps;

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
