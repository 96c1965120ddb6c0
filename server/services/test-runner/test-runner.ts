/**
 * The test runner (spec delivery "Test runner", "Test run"): scheduled runs of the regression
 * suites in `fixtures/test-suites`, kept in `test_runs`. A run goes `pending -> running -> done`
 * (`hasErrors` when a case failed), `suspended` when stopped, `error` when it crashed. A run is a
 * job (`testRun`) of the job queue, so it runs in a job worker thread, never on the thread serving
 * requests, one run at a time per data directory; a run whose worker died, or whose server shut
 * down (it stops at once, even in the middle of reading a file), is taken over and run again. Each case runs in a temporary workspace: production data is only read (the TPA's master
 * mappings). Every change is published as a `test-run` event.
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * job it queues and cancels goes through the job queue (`server/queue/enqueue.ts`, `processes.ts`);
 * the cases themselves run in a job worker (`server/jobs/test-runner/`).
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { type DataStore, storeOf, type Tables } from '../../db/dialect.js';
import { cancelProcess } from '../../queue/processes.js';
import { enqueue } from '../../queue/queue.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { planRun, splitList, type RunResults } from './plan.js';
import { defaultSuitesDir, loadSuites } from './suites.js';

/** Runs listed per page (spec section 9: test runner tests 50). */
export const RUNS_PAGE_SIZE = 50;
export const INTERRUPTED = 'Interrupted by a restart';

export type TestRunRow = Tables['testRuns']['$inferSelect'];

/** Where the server's runs take the master mappings from (default production, see workspace.ts). */
export type RunMappings = 'production' | 'fixtures';

export interface RunnerOptions {
  /** Root of the suites (default `fixtures/test-suites`). */
  suitesDir?: string;
}

/** The condition "the job payload's `testRunId` is `id`": SQLite's json_extract, PostgreSQL's jsonb `->>`. */
function payloadNamesRun(store: DataStore, id: number) {
  const payload = store.tables.processes.payload;
  return store.dialect === 'postgres' ? sql`(${payload} ->> 'testRunId')::integer = ${id}` : sql`json_extract(${payload}, '$.testRunId') = ${id}`;
}

/** Where a run's job is: the process row whose payload names the run. */
async function runJob(ctx: AppContext, id: number) {
  const store = storeOf(ctx);
  const { db, tables: t } = store;
  const [job] = await db
    .select()
    .from(t.processes)
    .where(and(eq(t.processes.stage, 'testRun'), payloadNamesRun(store, id)))
    .orderBy(desc(t.processes.id))
    .limit(1);
  return job;
}

/** Now as an ISO timestamp (a run's `updatedAt`, its results' times). */
export const now = (): string => new Date().toISOString();

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
export async function updateRun(
  ctx: AppContext,
  id: number,
  set: Partial<Pick<TestRunRow, 'status' | 'hasErrors'>> & { results?: RunResults | object | null },
  onlyFrom?: TestRunRow['status'][],
): Promise<TestRunRow | undefined> {
  const { results, ...rest } = set;
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .update(t.testRuns)
    .set({ ...rest, ...(results !== undefined ? { results: results as Record<string, unknown> | null } : {}), updatedAt: now() })
    .where(onlyFrom ? and(eq(t.testRuns.id, id), inArray(t.testRuns.status, onlyFrom)) : eq(t.testRuns.id, id))
    .returning();
  if (row) ctx.events.publish('test-run', { id, status: row.status });
  return row;
}

/**
 * Marks runs left `pending` or `running` with no job to run them (the job is gone, or was queued by
 * an older version) as `error` ('Interrupted by a restart'). Runs whose job is queued or running
 * are left alone: a run whose worker died is taken over with its job. Called by `serve` at start.
 */
export async function recoverInterruptedRuns(ctx: AppContext): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const open = await db
    .select()
    .from(t.testRuns)
    .where(inArray(t.testRuns.status, ['pending', 'running']));
  const stale: typeof open = [];
  for (const r of open) if (!['pending', 'running'].includes((await runJob(ctx, r.id))?.status ?? '')) stale.push(r);
  for (const r of stale) await updateRun(ctx, r.id, { status: 'error', results: { ...((r.results ?? {}) as object), error: INTERRUPTED } });
  if (stale.length) ctx.log.warn({ ids: stale.map((r) => r.id) }, 'test runs interrupted by a restart');
  return stale.length;
}

/** The suites available: administrators with their test ids and titles. */
export async function listSuites(ctx: AppContext, opts: RunnerOptions = {}) {
  const { db, tables: t } = storeOf(ctx);
  const names = new Map((await db.select({ code: t.administrators.code, name: t.administrators.name }).from(t.administrators)).map((a) => [a.code, a.name]));
  return loadSuites(opts.suitesDir ?? defaultSuitesDir()).map((s) => ({
    administratorCode: s.administratorCode,
    administratorName: names.get(s.administratorCode) ?? null,
    tests: s.tests.map((t) => ({ id: t.id, title: t.title, description: t.description, ...(t.loadError ? { error: t.loadError } : {}) })),
  }));
}

/** A run and the user who scheduled it. @throws NotFoundError */
export async function findRun(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const [r] = Number.isSafeInteger(id)
    ? await db.select({ run: t.testRuns, user: t.users }).from(t.testRuns).leftJoin(t.users, eq(t.testRuns.userId, t.users.id)).where(eq(t.testRuns.id, id))
    : [];
  if (!r) throw new NotFoundError(`No such test run with id: ${id}`);
  return r;
}

/** One run with its results. @throws NotFoundError */
export async function getRun(ctx: AppContext, id: number): Promise<TestRunView> {
  const r = await findRun(ctx, id);
  return view(r.run, r.user);
}

/** Runs newest first, 50 per page. */
export async function listRuns(ctx: AppContext, input: { offset?: number; limit?: number } = {}) {
  const offset = Math.max(0, input.offset ?? 0);
  const limit = Math.min(Math.max(1, input.limit ?? RUNS_PAGE_SIZE), 1000);
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({ run: t.testRuns, user: t.users })
    .from(t.testRuns)
    .leftJoin(t.users, eq(t.testRuns.userId, t.users.id))
    .orderBy(desc(t.testRuns.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(t.testRuns);
  return { rows: rows.map((r) => view(r.run, r.user)), pagination: { offset, limit, count: Number(total?.n ?? 0) } };
}

/** The job payload of a run. */
export interface TestRunPayload {
  testRunId: number;
  mappings?: RunMappings;
  suitesDir?: string;
}

/**
 * Schedules a run of the chosen suites as a job; it starts when earlier runs are finished.
 * @param input.testIds ids to run in each chosen suite (a list, or comma-separated); none = all
 * @param input.mappings master mappings to test: the production ones (default) or the fixtures'
 * @throws ValidationError naming unknown administrator codes or test ids
 */
export async function scheduleRun(
  ctx: AppContext,
  user: User,
  input: { administratorCodes: string[] | string; testIds?: string[] | string | null; mappings?: RunMappings },
  opts: RunnerOptions = {},
): Promise<TestRunView> {
  const codes = splitList(input.administratorCodes);
  const testIds = splitList(input.testIds);
  planRun(loadSuites(opts.suitesDir ?? defaultSuitesDir()), codes, testIds); // validates codes and ids
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .insert(t.testRuns)
    .values({ userId: user.id, administratorCodes: codes, testIds, status: 'pending', hasErrors: false, results: null })
    .returning();
  if (!row) throw new ConflictError('The test run could not be recorded');
  ctx.events.publish('test-run', { id: row.id, status: row.status });
  const payload: TestRunPayload = { testRunId: row.id, mappings: input.mappings ?? 'production', ...(opts.suitesDir ? { suitesDir: opts.suitesDir } : {}) };
  await enqueue(ctx, { stage: 'testRun', fundRequestId: null, payload: payload as unknown as Record<string, unknown>, createdById: user.id });
  return getRun(ctx, row.id);
}

/**
 * Stops a pending or running run: it becomes `suspended` at once; its job is cancelled, so a
 * running case stops at its next step or job and its workspace is deleted.
 * @throws NotFoundError; ConflictError when the run has already ended
 */
export async function stopRun(ctx: AppContext, id: number): Promise<TestRunView> {
  await findRun(ctx, id);
  // only from pending or running, in the one statement: a run its job ends meanwhile stays ended
  if (!(await updateRun(ctx, id, { status: 'suspended' }, ['pending', 'running']))) {
    const { run } = await findRun(ctx, id);
    throw new ConflictError(`Test run ${id} is ${run.status}: only a pending or running run can be stopped`);
  }
  const job = await runJob(ctx, id);
  if (job && (job.status === 'pending' || job.status === 'running'))
    // its job may end between the read and the cancel (its last case done): the run is stopped either way
    await cancelProcess(ctx, job.id).catch((err: unknown) => {
      if (!(err instanceof ValidationError)) throw err;
    });
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
    const view = await getRun(ctx, id);
    const job = await runJob(ctx, id);
    if (!['pending', 'running'].includes(view.status) && job?.status !== 'running') return view;
    if (Date.now() > end) throw new Error(`Test run ${id} did not end within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
