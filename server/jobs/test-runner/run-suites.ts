/**
 * Running the cases of a planned test run (server/services/test-runner/plan.ts): every chosen case
 * in turn, each in its own workspace, reporting progress after each case. Used by the server's
 * runs (job.ts) and by the CLI's local runs.
 */
import type { CaseResult, PlannedSuite, RunResults } from '../../services/test-runner/plan.js';
import type { TestCase } from '../../services/test-runner/suites.js';
import { runCase } from './run-case.js';
import type { MappingSource } from './workspace.js';

/** Progress of a run, case by case. */
export type RunProgress =
  | { type: 'case-start'; administratorCode: string; test: TestCase; index: number; total: number }
  | { type: 'case-done'; administratorCode: string; result: CaseResult; index: number; total: number };

/** An empty result set for a run starting now. */
export function startResults(plan: PlannedSuite[]): RunResults {
  return {
    stats: { startedAt: new Date().toISOString(), finishedAt: null, totalTime: null },
    reports: Object.fromEntries(plan.map((p) => [p.administratorCode, { tests: [] }])),
  };
}

/**
 * Runs the planned cases one after another.
 * @param opts.onProgress called before and after each case (results so far are in `results`)
 * @returns the results and whether the signal stopped the run
 */
export async function runPlan(
  plan: PlannedSuite[],
  opts: {
    mappings: MappingSource;
    signal?: AbortSignal;
    tmpRoot?: string;
    /** The largest file a case may read (bytes). */
    maxFileBytes?: number;
    onProgress?: (p: RunProgress, results: RunResults) => void;
  },
): Promise<{ results: RunResults; cancelled: boolean }> {
  const results = startResults(plan);
  const started = performance.now();
  const total = plan.reduce((n, p) => n + p.tests.length, 0);
  let index = 0;
  let cancelled = false;
  outer: for (const suite of plan) {
    for (const test of suite.tests) {
      if (opts.signal?.aborted) {
        cancelled = true;
        break outer;
      }
      opts.onProgress?.({ type: 'case-start', administratorCode: suite.administratorCode, test, index, total }, results);
      const run = await runCase(test, { mappings: opts.mappings, signal: opts.signal, tmpRoot: opts.tmpRoot, maxFileBytes: opts.maxFileBytes });
      results.reports[suite.administratorCode].tests.push(run.result);
      index++;
      opts.onProgress?.({ type: 'case-done', administratorCode: suite.administratorCode, result: run.result, index, total }, results);
      if (run.cancelled) {
        cancelled = true;
        break outer;
      }
    }
  }
  results.stats.finishedAt = new Date().toISOString();
  results.stats.totalTime = Math.round(performance.now() - started);
  return { results, cancelled };
}
