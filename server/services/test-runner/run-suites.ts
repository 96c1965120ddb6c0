/**
 * Choosing and running the cases of a test run: which suites and test ids (unknown ones are a
 * ValidationError naming them), then every chosen case in turn, each in its own workspace,
 * reporting progress after each case. Used by the server's runs and by the CLI's local runs.
 */
import { ValidationError } from '../../errors.js';
import { runCase, type CaseResult } from './run-case.js';
import type { Suite, TestCase } from './suites.js';
import type { MappingSource } from './workspace.js';

/** A run's results (spec "Test run": stats and reports per administrator code). */
export interface RunResults {
  stats: { startedAt: string; finishedAt: string | null; totalTime: number | null };
  reports: Record<string, { tests: CaseResult[] }>;
  /** Why the run stopped when it could not finish (crash, restart). */
  error?: string;
}

export interface PlannedSuite {
  administratorCode: string;
  tests: TestCase[];
}

/** Progress of a run, case by case. */
export type RunProgress =
  | { type: 'case-start'; administratorCode: string; test: TestCase; index: number; total: number }
  | { type: 'case-done'; administratorCode: string; result: CaseResult; index: number; total: number };

/** Splits `['a,b', 'c']` into `['a', 'b', 'c']`, trimmed, without empties or repeats. */
export function splitList(values: Array<string | number> | string | undefined | null): string[] {
  const list = Array.isArray(values) ? values : values === undefined || values === null ? [] : [values];
  return [
    ...new Set(
      list
        .flatMap((v) => String(v).split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The cases a run will execute.
 * @param testIds test ids to run in each chosen suite; empty = every case
 * @throws ValidationError for no administrator, unknown administrator codes or unknown test ids
 */
export function planRun(suites: Suite[], administratorCodes: string[], testIds: string[] = []): PlannedSuite[] {
  if (!administratorCodes.length)
    throw new ValidationError('Choose at least one administrator to test', ['administratorCodes: at least one administrator code is needed']);
  const unknown = administratorCodes.filter((c) => !suites.some((s) => s.administratorCode === c));
  if (unknown.length) {
    throw new ValidationError(
      `Unknown administrator code(s): ${unknown.join(', ')}`,
      unknown.map((c) => `administratorCodes: no test suite for '${c}' (suites: ${suites.map((s) => s.administratorCode).join(', ') || 'none'})`),
    );
  }
  const chosen = administratorCodes.map((c) => suites.find((s) => s.administratorCode === c)!);
  const missing = testIds.filter((id) => !chosen.some((s) => s.tests.some((t) => t.id === id)));
  if (missing.length) {
    const known = chosen.map((s) => `${s.administratorCode}: ${s.tests.map((t) => t.id).join(', ')}`).join('; ');
    throw new ValidationError(
      `Unknown test id(s): ${missing.join(', ')}`,
      missing.map((id) => `testIds: no test '${id}' in the chosen suites (${known})`),
    );
  }
  return chosen.map((s) => ({ administratorCode: s.administratorCode, tests: s.tests.filter((t) => !testIds.length || testIds.includes(t.id)) }));
}

/** An empty result set for a run starting now. */
export function startResults(plan: PlannedSuite[]): RunResults {
  return {
    stats: { startedAt: new Date().toISOString(), finishedAt: null, totalTime: null },
    reports: Object.fromEntries(plan.map((p) => [p.administratorCode, { tests: [] }])),
  };
}

/** Whether any case of the results failed. */
export const hasFailures = (r: RunResults) => Object.values(r.reports).some((rep) => rep.tests.some((t) => !t.success));

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
