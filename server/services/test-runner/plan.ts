/**
 * What a test run is made of (spec delivery "Test runner", "Test run"): the cases it will run,
 * chosen by administrator code and test id (unknown ones are a ValidationError naming them), and
 * the results it records, step by step and case by case. Shared by the service that schedules
 * runs, the job that runs them (server/jobs/test-runner/) and the CLI's reports.
 */
import { ValidationError } from '../../errors.js';
import type { Suite, TestCase } from './suites.js';

export interface StepError {
  message: string;
  traceback: string | null;
  details?: unknown;
}
export interface StepResult {
  stepId: string;
  success: boolean;
  payload?: unknown;
  error?: StepError;
}
export interface CaseResult {
  id: string;
  title: string;
  success: boolean;
  /** Milliseconds. */
  time: number;
  steps: StepResult[];
}
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

/** Whether any case of the results failed. */
export const hasFailures = (r: RunResults) => Object.values(r.reports).some((rep) => rep.tests.some((t) => !t.success));
