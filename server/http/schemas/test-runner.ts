/**
 * Response payload schemas of the test runner (delivery spec section 3 "Test run"), mirroring
 * `TestRunView` and `listSuites` of server/services/test-runner/test-runner.ts and the results of
 * its run-suites.ts and run-case.ts.
 */
import { z } from 'zod';
import { JOB_STATUSES } from '../../db/schema/index.js';

const int = z.number().int();

/** One step of a case: its outcome, what it produced and why it failed. */
const stepResultSchema = z.strictObject({
  stepId: z.string(),
  success: z.boolean(),
  payload: z.unknown().optional(),
  error: z.strictObject({ message: z.string(), traceback: z.string().nullable(), details: z.unknown().optional() }).optional(),
});

/** One case of a suite (`time` in milliseconds). */
const caseResultSchema = z.strictObject({ id: z.string(), title: z.string(), success: z.boolean(), time: z.number(), steps: z.array(stepResultSchema) });

/**
 * A run's results: stats and reports by TPA once it started; a run stopped before it started (a
 * restart) has only `error`.
 */
const runResultsSchema = z.strictObject({
  stats: z.strictObject({ startedAt: z.string(), finishedAt: z.string().nullable(), totalTime: z.number().nullable() }).optional(),
  reports: z.record(z.string(), z.strictObject({ tests: z.array(caseResultSchema) })).optional(),
  error: z.string().optional(),
});

/** A test run. */
export const testRunSchema = z.strictObject({
  id: int,
  userAuthId: int.nullable(),
  user: z.string().nullable(),
  administratorCodes: z.array(z.string()),
  testIds: z.array(z.string()),
  status: z.enum(JOB_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  hasErrors: z.boolean(),
  results: runResultsSchema.nullable(),
});

/** A TPA's regression suite and its cases (`error` when a case could not be read). */
export const suiteSchema = z.strictObject({
  administratorCode: z.string(),
  administratorName: z.string().nullable(),
  tests: z.array(z.strictObject({ id: z.string(), title: z.string(), description: z.string(), error: z.string().optional() })),
});

/** Runs newest first with the suites available. */
export const testRunListSchema = z.strictObject({
  rows: z.array(testRunSchema),
  pagination: z.strictObject({ offset: int, limit: int, count: int }),
  suites: z.array(suiteSchema),
});
