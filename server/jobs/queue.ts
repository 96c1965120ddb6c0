/**
 * The durable job queue behind the spec's "processes" (DOMAIN.md 2), in the `processes` table:
 * `pending -> running -> done | error`, or `suspended` when cancelled.
 *
 * Claims are leases: a worker takes the oldest runnable job in one write transaction that sets
 * the owner (`worker_id`, `<node>/t<thread>`), the lease's end (`lease_expires_at`) and counts the
 * attempt. A job whose fund has another job running under a live lease waits, so one fund never
 * runs two stages at once. A running job is taken over only once its lease has ended (its worker
 * stopped renewing: it died); starting another process never touches it. Test runs go one at a
 * time. Completion and failure
 * are written only by the owner of a running job, in one transaction with the jobs it queues next,
 * so each triggered stage reaches `done` once. Every change is a `process` event.
 * Queueing from requests (`enqueue`) is `enqueue.ts`, which runs on both databases; this worker
 * side is still SQLite's (the PostgreSQL claim is `claim-pg.ts`).
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { JobQueue, NextJob, StageResult } from '../../pipeline/engine.js';
import type { AppContext } from '../context.js';
import { processes, type JobKind, type JobStatus } from '../db/schema/index.js';
import { type EnqueueInput, pipelineEnabled, type ProcessRow, publishProcess, sameJob } from './enqueue.js';

export type { EnqueueInput, ProcessRow } from './enqueue.js';
export { enqueue, pipelineEnabled, publishProcess } from './enqueue.js';

/** A stage handler: runs one job of its stage with the context of the worker that claimed it. */
export type StageHandler = (ctx: AppContext, job: ProcessRow, signal: AbortSignal) => Promise<StageResult> | StageResult;

const isoNow = () => new Date().toISOString();

/** The lease of a claim, in ms. */
export const leaseMs = (ctx: AppContext) => ctx.config.jobLeaseSeconds * 1000;

/** Kinds of job of which one runs at a time on a data directory (test runs: each runs the whole pipeline). */
const ONE_AT_A_TIME = new Set<string>(['testRun']);

/**
 * `enqueue` inside the synchronous SQLite transaction of a job's completion (`finishOwned`): the
 * same de-duplication, on the transaction's connection.
 */
function enqueueInCompletion(ctx: AppContext, input: EnqueueInput): void {
  const pending = ctx.db
    .select()
    .from(processes)
    .where(
      and(
        eq(processes.stage, input.stage),
        eq(processes.status, 'pending'),
        input.fundRequestId === null ? isNull(processes.fundRequestId) : eq(processes.fundRequestId, input.fundRequestId),
      ),
    )
    .all()
    .find((p) => sameJob(p, input));
  if (pending) {
    if (input.forceRun && !pending.forceRun) ctx.db.update(processes).set({ forceRun: true }).where(eq(processes.id, pending.id)).run();
    return;
  }
  const row = ctx.db
    .insert(processes)
    .values({
      fundRequestId: input.fundRequestId,
      stage: input.stage,
      status: 'pending',
      forceRun: !!input.forceRun,
      payload: input.payload ?? {},
      createdById: input.createdById ?? null,
    })
    .returning()
    .get();
  publishProcess(ctx, row);
}

/**
 * Claims the oldest runnable job for `owner`: pending, or running under a lease that has ended.
 * One write transaction, so two workers (threads or processes) never take the same job, and a
 * fund with a job under a live lease gets no second one.
 * @param stages the stages this worker runs (default: all)
 * @returns the claimed row, or null when nothing is runnable
 */
export function claimNext(ctx: AppContext, owner: string, stages?: string[]): ProcessRow | null {
  return ctx.db.transaction(
    (tx) => {
      const now = Date.now();
      const expired = or(isNull(processes.leaseExpiresAt), lte(processes.leaseExpiresAt, now));
      const runnable = or(eq(processes.status, 'pending'), and(eq(processes.status, 'running'), expired));
      const candidates = tx
        .select()
        .from(processes)
        .where(stages ? and(runnable, inArray(processes.stage, stages as JobKind[])) : runnable)
        .orderBy(asc(processes.id))
        .limit(50)
        .all();
      if (!candidates.length) return null;
      const live = tx
        .select({ id: processes.id, fundRequestId: processes.fundRequestId, stage: processes.stage, payload: processes.payload })
        .from(processes)
        .where(and(eq(processes.status, 'running'), sql`${processes.leaseExpiresAt} > ${now}`))
        .all();
      const blocks = (r: (typeof live)[number], c: ProcessRow) =>
        r.id !== c.id &&
        (sameJob(r, c) || (c.fundRequestId !== null && r.fundRequestId === c.fundRequestId) || (ONE_AT_A_TIME.has(c.stage) && r.stage === c.stage));
      const job = candidates.find((c) => !live.some((r) => blocks(r, c)));
      if (!job) return null;
      const claimed = tx
        .update(processes)
        .set({ status: 'running', workerId: owner, startedAt: isoNow(), leaseExpiresAt: now + leaseMs(ctx), attempts: sql`${processes.attempts} + 1` })
        .where(and(eq(processes.id, job.id), job.status === 'pending' ? eq(processes.status, 'pending') : and(eq(processes.status, 'running'), expired)))
        .returning()
        .get();
      if (claimed && job.status === 'running')
        ctx.log.warn({ processId: job.id, stage: job.stage, from: job.workerId, to: owner }, 'taking over a job whose worker stopped renewing its lease');
      return claimed ?? null;
    },
    { behavior: 'immediate' },
  );
}

/** Renews the lease of `owner`'s running job; false when it is not that (cancelled, taken over, finished). */
export function renewLease(ctx: AppContext, id: number, owner: string): boolean {
  const r = ctx.sqlite
    .prepare("UPDATE processes SET lease_expires_at = ? WHERE id = ? AND worker_id = ? AND status = 'running'")
    .run(Date.now() + leaseMs(ctx), id, owner);
  return r.changes > 0;
}

/** Ends `owner`'s running job with a status; null when it is no longer that owner's running job. */
function finishOwned(
  ctx: AppContext,
  job: ProcessRow,
  owner: string,
  status: JobStatus,
  payload: Record<string, unknown>,
  next: NextJob[] = [],
): ProcessRow | null {
  const row = ctx.db.transaction(
    (tx) => {
      const done = tx
        .update(processes)
        .set({ status, payload: { ...(job.payload ?? {}), ...payload }, finishedAt: isoNow(), leaseExpiresAt: null })
        .where(and(eq(processes.id, job.id), eq(processes.workerId, owner), eq(processes.status, 'running')))
        .returning()
        .get();
      if (!done) return null;
      publishProcess(ctx, done);
      for (const n of next) enqueueInCompletion(ctx, { ...n, stage: n.stage as JobKind, createdById: job.createdById });
      return done;
    },
    { behavior: 'immediate' },
  );
  if (!row) ctx.log.warn({ processId: job.id, stage: job.stage, owner }, 'a job ended after its lease was lost; its outcome is not recorded');
  return row;
}

/**
 * Puts the running jobs of an owner that is gone (a thread, or with a `<node>/` prefix a whole
 * process) up for takeover now. @returns how many
 */
export function expireLeases(ctx: AppContext, owner: string, exact = false): number {
  const who = exact ? eq(processes.workerId, owner) : sql`substr(${processes.workerId}, 1, ${owner.length}) = ${owner}`;
  return ctx.db
    .update(processes)
    .set({ leaseExpiresAt: 0 })
    .where(and(eq(processes.status, 'running'), who))
    .run().changes;
}

/**
 * The queue of a context for the engine (`pipeline/engine.ts`): claims, renewals and outcomes
 * on this context's database, process events on its bus, failures in its log.
 */
export function jobQueue(ctx: AppContext): JobQueue<ProcessRow> {
  return {
    enabled: () => pipelineEnabled(ctx),
    claim: (owner, stages) => claimNext(ctx, owner, stages),
    renew: (job, owner) => renewLease(ctx, job.id, owner),
    complete: (job, owner, outcome: StageResult) => finishOwned(ctx, job, owner, 'done', { result: outcome.result ?? {} }, outcome.next),
    fail: (job, owner, err) => {
      ctx.log.error({ err, processId: job.id, stage: job.stage, fundRequestId: job.fundRequestId }, 'job failed');
      return finishOwned(ctx, job, owner, 'error', { error: err.message });
    },
    current: (job) => ctx.db.select().from(processes).where(eq(processes.id, job.id)).get() ?? job,
    started: (job) => publishProcess(ctx, job),
  };
}
