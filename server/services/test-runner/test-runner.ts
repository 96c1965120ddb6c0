/**
 * The test runner (spec delivery "Test runner", "Test run"): scheduled runs of the regression
 * suites in `fixtures/test-suites`, kept in `test_runs`. A run goes `pending -> running -> done`
 * (`hasErrors` when a case failed), `suspended` when stopped, `error` when it crashed. A run is a
 * job (`testRun`) of the job queue, so it runs in a job worker thread, never on the thread serving
 * requests, one run at a time per data directory; a run whose worker died is taken over and run
 * again. Each case runs in a temporary workspace: production data is only read (the TPA's master
 * mappings). Every change is published as a `test-run` event.
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, processes, testRuns, users } from '../../db/schema/index.js';
import { cancelProcess } from '../../jobs/processes.js';
import { enqueue, type StageHandler } from '../../jobs/queue.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { hasFailures, planRun, runPlan, splitList, type RunResults } from './run-suites.js';
import { defaultSuitesDir, loadSuites } from './suites.js';

/** Runs listed per page (spec section 9: test runner tests 50). */
export const RUNS_PAGE_SIZE = 50;
export const INTERRUPTED = 'Interrupted by a restart';

export type TestRunRow = typeof testRuns.$inferSelect;

/** Where the server's runs take the master mappings from (default production, see workspace.ts). */
export type RunMappings = 'production' | 'fixtures';

export interface RunnerOptions {
  /** Root of the suites (default `fixtures/test-suites`). */
  suitesDir?: string;
}

/** Where a run's job is: the process row whose payload names the run. */
function runJob(ctx: AppContext, id: number) {
  return ctx.db
    .select()
    .from(processes)
    .where(and(eq(processes.stage, 'testRun'), sql`json_extract(${processes.payload}, '$.testRunId') = ${id}`))
    .orderBy(desc(processes.id))
    .get();
}

const now = () => new Date().toISOString();

/** A run as the spec's "Test run" row. */
function view(row: TestRunRow, user?: { username: string; firstName: string; lastName: string; email: string } | null) {
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username || user.email : null;
  return {
    id: row.id,
    userAuthId: row.userId,
    user: name,
    administratorCodes: row.administratorCodes,
    testIds: row.testIds,
    status: row.status,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    hasErrors: row.hasErrors,
    results: (row.results ?? null) as RunResults | null,
  };
}
export type TestRunView = ReturnType<typeof view>;

/**
 * Changes a run and publishes it. With `onlyFrom`, only a run whose status is one of those changes
 * (a run stopped meanwhile stays stopped); undefined when it did not.
 */
function update(
  ctx: AppContext,
  id: number,
  set: Partial<Pick<TestRunRow, 'status' | 'hasErrors'>> & { results?: RunResults | object | null },
  onlyFrom?: TestRunRow['status'][],
): TestRunRow | undefined {
  const { results, ...rest } = set;
  const row = ctx.db
    .update(testRuns)
    .set({ ...rest, ...(results !== undefined ? { results: results as Record<string, unknown> | null } : {}), updatedAt: now() })
    .where(onlyFrom ? and(eq(testRuns.id, id), inArray(testRuns.status, onlyFrom)) : eq(testRuns.id, id))
    .returning()
    .get();
  if (row) ctx.events.publish('test-run', { id, status: row.status });
  return row;
}

/**
 * Marks runs left `pending` or `running` with no job to run them (the job is gone, or was queued by
 * an older version) as `error` ('Interrupted by a restart'). Runs whose job is queued or running
 * are left alone: a run whose worker died is taken over with its job. Called by `serve` at start.
 */
export function recoverInterruptedRuns(ctx: AppContext): number {
  const stale = ctx.db
    .select()
    .from(testRuns)
    .where(inArray(testRuns.status, ['pending', 'running']))
    .all()
    .filter((r) => !['pending', 'running'].includes(runJob(ctx, r.id)?.status ?? ''));
  for (const r of stale) update(ctx, r.id, { status: 'error', results: { ...((r.results ?? {}) as object), error: INTERRUPTED } });
  if (stale.length) ctx.log.warn({ ids: stale.map((r) => r.id) }, 'test runs interrupted by a restart');
  return stale.length;
}

/** The suites available: administrators with their test ids and titles. */
export function listSuites(ctx: AppContext, opts: RunnerOptions = {}) {
  const names = new Map(
    ctx.db
      .select()
      .from(administrators)
      .all()
      .map((a) => [a.code, a.name]),
  );
  return loadSuites(opts.suitesDir ?? defaultSuitesDir()).map((s) => ({
    administratorCode: s.administratorCode,
    administratorName: names.get(s.administratorCode) ?? null,
    tests: s.tests.map((t) => ({ id: t.id, title: t.title, description: t.description, ...(t.loadError ? { error: t.loadError } : {}) })),
  }));
}

function findRun(ctx: AppContext, id: number) {
  const r = ctx.db.select({ run: testRuns, user: users }).from(testRuns).leftJoin(users, eq(testRuns.userId, users.id)).where(eq(testRuns.id, id)).get();
  if (!r) throw new NotFoundError(`No such test run with id: ${id}`);
  return r;
}

/** One run with its results. @throws NotFoundError */
export function getRun(ctx: AppContext, id: number): TestRunView {
  const r = findRun(ctx, id);
  return view(r.run, r.user);
}

/** Runs newest first, 50 per page. */
export function listRuns(ctx: AppContext, input: { offset?: number; limit?: number } = {}) {
  const offset = Math.max(0, input.offset ?? 0);
  const limit = Math.min(Math.max(1, input.limit ?? RUNS_PAGE_SIZE), 1000);
  const rows = ctx.db
    .select({ run: testRuns, user: users })
    .from(testRuns)
    .leftJoin(users, eq(testRuns.userId, users.id))
    .orderBy(desc(testRuns.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = ctx.db.select({ n: count() }).from(testRuns).get()?.n ?? 0;
  return { rows: rows.map((r) => view(r.run, r.user)), pagination: { offset, limit, count: total } };
}

/** The job payload of a run. */
interface TestRunPayload {
  testRunId: number;
  mappings?: RunMappings;
  suitesDir?: string;
}

/**
 * The `testRun` job: runs the suites of a scheduled run, case by case, writing results as they
 * come; stops at the next step when the job is cancelled (the run was stopped).
 */
export const testRunJob: StageHandler = async (ctx, job, signal) => {
  const { testRunId: id, mappings = 'production', suitesDir } = (job.payload ?? {}) as unknown as TestRunPayload;
  const { run } = findRun(ctx, id);
  if (run.status !== 'pending' && run.status !== 'running') return { result: { testRunId: id, skipped: run.status } };
  try {
    const plan = planRun(loadSuites(suitesDir ?? defaultSuitesDir()), run.administratorCodes, run.testIds);
    // a run stopped since the job was claimed is left stopped
    const started = update(ctx, id, { status: 'running', results: { stats: { startedAt: now(), finishedAt: null, totalTime: null }, reports: {} } }, [
      'pending',
      'running',
    ]);
    if (!started) return { result: { testRunId: id, skipped: 'suspended' } };
    const { results, cancelled } = await runPlan(plan, {
      mappings: mappings === 'production' ? { kind: 'production', ctx } : { kind: 'fixtures' },
      signal,
      onProgress: (p, partial) => {
        if (p.type === 'case-done' && !signal.aborted) update(ctx, id, { results: partial, hasErrors: hasFailures(partial) }, ['running']);
      },
    });
    const status = cancelled || signal.aborted ? 'suspended' : 'done';
    // a run stopped while its last case ended is suspended, with the results it has
    update(ctx, id, { status, results, hasErrors: hasFailures(results) }, ['running']) ??
      update(ctx, id, { results, hasErrors: hasFailures(results) }, ['suspended']);
    return { result: { testRunId: id, cancelled: cancelled || signal.aborted } };
  } catch (err) {
    ctx.log.error({ err, testRunId: id }, 'test run failed');
    const row = ctx.db.select().from(testRuns).where(eq(testRuns.id, id)).get();
    update(ctx, id, { status: 'error', results: { ...((row?.results ?? {}) as object), error: (err as Error).message }, hasErrors: true }, [
      'pending',
      'running',
    ]);
    return { result: { testRunId: id, error: (err as Error).message } };
  }
};

/**
 * Schedules a run of the chosen suites as a job; it starts when earlier runs are finished.
 * @param input.testIds ids to run in each chosen suite (a list, or comma-separated); none = all
 * @param input.mappings master mappings to test: the production ones (default) or the fixtures'
 * @throws ValidationError naming unknown administrator codes or test ids
 */
export function scheduleRun(
  ctx: AppContext,
  user: User,
  input: { administratorCodes: string[] | string; testIds?: string[] | string | null; mappings?: RunMappings },
  opts: RunnerOptions = {},
): TestRunView {
  const codes = splitList(input.administratorCodes);
  const testIds = splitList(input.testIds);
  planRun(loadSuites(opts.suitesDir ?? defaultSuitesDir()), codes, testIds); // validates codes and ids
  const row = ctx.db
    .insert(testRuns)
    .values({ userId: user.id, administratorCodes: codes, testIds, status: 'pending', hasErrors: false, results: null })
    .returning()
    .get();
  ctx.events.publish('test-run', { id: row.id, status: row.status });
  const payload: TestRunPayload = { testRunId: row.id, mappings: input.mappings ?? 'production', ...(opts.suitesDir ? { suitesDir: opts.suitesDir } : {}) };
  enqueue(ctx, { stage: 'testRun', fundRequestId: null, payload: payload as unknown as Record<string, unknown>, createdById: user.id });
  return getRun(ctx, row.id);
}

/**
 * Stops a pending or running run: it becomes `suspended` at once; its job is cancelled, so a
 * running case stops at its next step or job and its workspace is deleted.
 * @throws NotFoundError; ConflictError when the run has already ended
 */
export function stopRun(ctx: AppContext, id: number): TestRunView {
  const { run } = findRun(ctx, id);
  if (run.status !== 'pending' && run.status !== 'running')
    throw new ConflictError(`Test run ${id} is ${run.status}: only a pending or running run can be stopped`);
  update(ctx, id, { status: 'suspended' });
  const job = runJob(ctx, id);
  if (job && (job.status === 'pending' || job.status === 'running')) cancelProcess(ctx, job.id);
  return getRun(ctx, id);
}

/**
 * Resolves when a run has ended (done, error or suspended) and its job has stopped, polling the
 * database (the run executes in a job worker thread or another process).
 * @throws NotFoundError; Error after `timeoutMs`
 */
export async function waitForRun(ctx: AppContext, id: number, timeoutMs = 120_000): Promise<TestRunView> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const view = getRun(ctx, id);
    const job = runJob(ctx, id);
    if (!['pending', 'running'].includes(view.status) && job?.status !== 'running') return view;
    if (Date.now() > end) throw new Error(`Test run ${id} did not end within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
