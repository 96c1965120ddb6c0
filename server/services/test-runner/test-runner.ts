/**
 * The test runner (spec delivery "Test runner", "Test run"): scheduled runs of the regression
 * suites in `fixtures/test-suites`, kept in `test_runs`. A run goes `pending -> running -> done`
 * (`hasErrors` when a case failed), `suspended` when stopped, `error` when it crashed or the server
 * stopped under it. Runs execute in this process one at a time, outside the job engine (whose
 * stages are the pipeline's), each case in a temporary workspace: production data is only read
 * (the TPA's master mappings). Every change is published as a `test-run` event.
 */
import { count, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, testRuns, users } from '../../db/schema/index.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { hasFailures, planRun, runPlan, splitList, type PlannedSuite, type RunResults } from './run-suites.js';
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

interface RunnerState {
  controllers: Map<number, AbortController>;
  finished: Map<number, Promise<void>>;
  queue: Promise<void>;
}
const states = new WeakMap<AppContext, RunnerState>();

/** This process's runner state for a context; the first use marks runs left by an earlier process as interrupted. */
function stateOf(ctx: AppContext): RunnerState {
  let st = states.get(ctx);
  if (!st) {
    st = { controllers: new Map(), finished: new Map(), queue: Promise.resolve() };
    states.set(ctx, st);
    recoverInterruptedRuns(ctx);
  }
  return st;
}

const now = () => new Date().toISOString();

/** A run as the spec's "Test run" row. */
function view(row: TestRunRow, user?: { username: string; firstName: string; lastName: string; email: string } | null) {
  const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username || user.email : null;
  return {
    id: row.id, userAuthId: row.userId, user: name, administratorCodes: row.administratorCodes, testIds: row.testIds, status: row.status,
    created_at: row.createdAt, updated_at: row.updatedAt, hasErrors: row.hasErrors, results: (row.results ?? null) as RunResults | null,
  };
}
export type TestRunView = ReturnType<typeof view>;

function update(ctx: AppContext, id: number, set: Partial<Pick<TestRunRow, 'status' | 'hasErrors'>> & { results?: RunResults | object | null }, publish = true): TestRunRow {
  const { results, ...rest } = set;
  const row = ctx.db.update(testRuns).set({ ...rest, ...(results !== undefined ? { results: results as Record<string, unknown> | null } : {}), updatedAt: now() }).where(eq(testRuns.id, id)).returning().get();
  if (publish) ctx.events.publish('test-run', { id, status: row.status });
  return row;
}

/**
 * Marks runs left `pending` or `running` by a stopped server as `error` ('Interrupted by a
 * restart'). Runs of this process are left alone. Called on the first use of the runner.
 */
export function recoverInterruptedRuns(ctx: AppContext): number {
  const mine = states.get(ctx)?.controllers ?? new Map();
  const stale = ctx.db.select().from(testRuns).where(inArray(testRuns.status, ['pending', 'running'])).all().filter((r) => !mine.has(r.id));
  for (const r of stale) update(ctx, r.id, { status: 'error', results: { ...((r.results ?? {}) as object), error: INTERRUPTED } });
  if (stale.length) ctx.log.warn({ ids: stale.map((r) => r.id) }, 'test runs interrupted by a restart');
  return stale.length;
}

/** The suites available: administrators with their test ids and titles. */
export function listSuites(ctx: AppContext, opts: RunnerOptions = {}) {
  const names = new Map(ctx.db.select().from(administrators).all().map((a) => [a.code, a.name]));
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
  stateOf(ctx);
  const r = findRun(ctx, id);
  return view(r.run, r.user);
}

/** Runs newest first, 50 per page. */
export function listRuns(ctx: AppContext, input: { offset?: number; limit?: number } = {}) {
  stateOf(ctx);
  const offset = Math.max(0, input.offset ?? 0);
  const limit = Math.min(Math.max(1, input.limit ?? RUNS_PAGE_SIZE), 1000);
  const rows = ctx.db.select({ run: testRuns, user: users }).from(testRuns).leftJoin(users, eq(testRuns.userId, users.id)).orderBy(desc(testRuns.id)).limit(limit).offset(offset).all();
  const total = ctx.db.select({ n: count() }).from(testRuns).get()?.n ?? 0;
  return { rows: rows.map((r) => view(r.run, r.user)), pagination: { offset, limit, count: total } };
}

async function execute(ctx: AppContext, id: number, plan: PlannedSuite[], controller: AbortController, mappings: RunMappings): Promise<void> {
  const st = stateOf(ctx);
  try {
    if (controller.signal.aborted) return;
    update(ctx, id, { status: 'running', results: { stats: { startedAt: now(), finishedAt: null, totalTime: null }, reports: {} } });
    const { results, cancelled } = await runPlan(plan, {
      mappings: mappings === 'production' ? { kind: 'production', ctx } : { kind: 'fixtures' },
      signal: controller.signal,
      onProgress: (p, partial) => {
        if (p.type === 'case-done') update(ctx, id, { results: partial, hasErrors: hasFailures(partial) });
      },
    });
    update(ctx, id, { status: cancelled || controller.signal.aborted ? 'suspended' : 'done', results, hasErrors: hasFailures(results) });
  } catch (err) {
    ctx.log.error({ err, testRunId: id }, 'test run failed');
    const row = ctx.db.select().from(testRuns).where(eq(testRuns.id, id)).get();
    update(ctx, id, { status: 'error', results: { ...((row?.results ?? {}) as object), error: (err as Error).message }, hasErrors: true });
  } finally {
    st.controllers.delete(id);
  }
}

/**
 * Schedules a run of the chosen suites; it starts when earlier runs of this server are finished.
 * @param input.testIds ids to run in each chosen suite (a list, or comma-separated); none = all
 * @param input.mappings master mappings to test: the production ones (default) or the fixtures'
 * @throws ValidationError naming unknown administrator codes or test ids
 */
export function scheduleRun(ctx: AppContext, user: User, input: { administratorCodes: string[] | string; testIds?: string[] | string | null; mappings?: RunMappings }, opts: RunnerOptions = {}): TestRunView {
  const st = stateOf(ctx);
  const codes = splitList(input.administratorCodes);
  const testIds = splitList(input.testIds);
  const plan = planRun(loadSuites(opts.suitesDir ?? defaultSuitesDir()), codes, testIds);
  const row = ctx.db.insert(testRuns).values({ userId: user.id, administratorCodes: codes, testIds, status: 'pending', hasErrors: false, results: null }).returning().get();
  ctx.events.publish('test-run', { id: row.id, status: row.status });
  const controller = new AbortController();
  st.controllers.set(row.id, controller);
  const done = st.queue.then(() => execute(ctx, row.id, plan, controller, input.mappings ?? 'production'));
  st.queue = done;
  st.finished.set(row.id, done);
  void done.finally(() => st.finished.delete(row.id));
  return getRun(ctx, row.id);
}

/**
 * Stops a pending or running run: it becomes `suspended` at once; a running case stops at its next
 * step or job and its workspace is deleted.
 * @throws NotFoundError; ConflictError when the run has already ended
 */
export function stopRun(ctx: AppContext, id: number): TestRunView {
  const st = stateOf(ctx);
  const { run } = findRun(ctx, id);
  if (run.status !== 'pending' && run.status !== 'running') throw new ConflictError(`Test run ${id} is ${run.status}: only a pending or running run can be stopped`);
  st.controllers.get(id)?.abort();
  update(ctx, id, { status: 'suspended' });
  return getRun(ctx, id);
}

/** Resolves when a run of this process has ended (tests, CLI); at once for others. */
export async function waitForRun(ctx: AppContext, id: number): Promise<TestRunView> {
  await stateOf(ctx).finished.get(id);
  return getRun(ctx, id);
}
