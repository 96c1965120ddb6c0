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
 * so each triggered stage reaches `done` once. Every change is a `process` event, published once
 * the change is committed.
 * Queueing from requests (`enqueue`) is `enqueue.ts`. On PostgreSQL the claim is `claim-pg.ts`
 * (several nodes claim at once); everything else is the same statements on both databases.
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { JobQueue, NextJob, StageResult } from '../../pipeline/engine.js';
import type { AppContext } from '../context.js';
import type { PgDb } from '../db/client-pg.js';
import { storeOf } from '../db/dialect.js';
import type { JobKind, JobStatus } from '../db/schema/pipeline.js';
import { transaction } from '../db/tx.js';
import { EventBus, type AppEventName, type AppEvents } from '../events.js';
import { claimNextPg } from './claim-pg.js';
import { enqueue, pipelineEnabled, type ProcessRow, publishProcess, sameJob } from './enqueue.js';

export type { EnqueueInput, ProcessRow } from './enqueue.js';
export { enqueue, pipelineEnabled, publishProcess } from './enqueue.js';

/** A stage handler: runs one job of its stage with the context of the worker that claimed it. */
export type StageHandler = (ctx: AppContext, job: ProcessRow, signal: AbortSignal) => Promise<StageResult> | StageResult;

const isoNow = () => new Date().toISOString();

/**
 * The abort reason of a job stopped because its process shuts down (SIGTERM): the job is left
 * running, its lease is ended by the shutdown and another node or the next start takes it over.
 */
export class ShuttingDown extends Error {
  constructor() {
    super('The server is shutting down');
  }
}

/** Stages stopped at once when their process shuts down (long, and run again from the start when taken over). */
export const STOPPED_AT_SHUTDOWN = ['testRun'] as const;

/** The lease of a claim, in ms. */
export const leaseMs = (ctx: AppContext) => ctx.config.jobLeaseSeconds * 1000;

/** Kinds of job of which one runs at a time on a data directory (test runs: each runs the whole pipeline). */
const ONE_AT_A_TIME = new Set<string>(['testRun']);

/**
 * Claims the oldest runnable job for `owner`: pending, or running under a lease that has ended.
 * One write transaction, so two workers (threads, processes or nodes) never take the same job, and
 * a fund with a job under a live lease gets no second one (on PostgreSQL `claimNextPg`).
 * @param stages the stages this worker runs (default: all)
 * @returns the claimed row, or null when nothing is runnable
 */
export async function claimNext(ctx: AppContext, owner: string, stages?: string[]): Promise<ProcessRow | null> {
  const store = storeOf(ctx);
  if (store.dialect === 'sqlite') return claimSqlite(ctx, owner, stages);
  const claimed = await claimNextPg(store.db as unknown as PgDb, { owner, leaseMs: leaseMs(ctx), stages: stages as JobKind[] | undefined });
  if (claimed && claimed.attempts > 1)
    ctx.log.info(
      { processId: claimed.id, stage: claimed.stage, attempts: claimed.attempts, to: owner },
      'claimed a job started before (a lease that ended, or a reset)',
    );
  return claimed as ProcessRow | null;
}

/** The claim on SQLite: the whole database is locked by the write transaction, so the live leases are read as they are. */
async function claimSqlite(ctx: AppContext, owner: string, stages?: string[]): Promise<ProcessRow | null> {
  return transaction(ctx, async (tx) => {
    const { processes } = storeOf(ctx).tables;
    const now = Date.now();
    const expired = or(isNull(processes.leaseExpiresAt), lte(processes.leaseExpiresAt, now));
    const runnable = or(eq(processes.status, 'pending'), and(eq(processes.status, 'running'), expired));
    const candidates = await tx
      .select()
      .from(processes)
      .where(stages ? and(runnable, inArray(processes.stage, stages as JobKind[])) : runnable)
      .orderBy(asc(processes.id))
      .limit(50);
    if (!candidates.length) return null;
    const live = await tx
      .select({ id: processes.id, fundRequestId: processes.fundRequestId, stage: processes.stage, payload: processes.payload })
      .from(processes)
      .where(and(eq(processes.status, 'running'), sql`${processes.leaseExpiresAt} > ${now}`));
    const blocks = (r: (typeof live)[number], c: ProcessRow) =>
      r.id !== c.id &&
      (sameJob(r, c) || (c.fundRequestId !== null && r.fundRequestId === c.fundRequestId) || (ONE_AT_A_TIME.has(c.stage) && r.stage === c.stage));
    const job = candidates.find((c) => !live.some((r) => blocks(r, c)));
    if (!job) return null;
    const [claimed] = await tx
      .update(processes)
      .set({ status: 'running', workerId: owner, startedAt: isoNow(), leaseExpiresAt: now + leaseMs(ctx), attempts: sql`${processes.attempts} + 1` })
      .where(and(eq(processes.id, job.id), job.status === 'pending' ? eq(processes.status, 'pending') : and(eq(processes.status, 'running'), expired)))
      .returning();
    if (claimed && job.status === 'running')
      ctx.log.warn({ processId: job.id, stage: job.stage, from: job.workerId, to: owner }, 'taking over a job whose worker stopped renewing its lease');
    return claimed ?? null;
  });
}

/**
 * Renews the lease of `owner`'s running job (its own transaction: on SQLite it must not join a
 * stage's transaction open on the same connection).
 * @returns false when it is no longer that owner's running job (cancelled, taken over, finished)
 */
export async function renewLease(ctx: AppContext, id: number, owner: string): Promise<boolean> {
  return transaction(ctx, async (tx) => {
    const { processes } = storeOf(ctx).tables;
    const renewed = await tx
      .update(processes)
      .set({ leaseExpiresAt: Date.now() + leaseMs(ctx) })
      .where(and(eq(processes.id, id), eq(processes.workerId, owner), eq(processes.status, 'running')))
      .returning({ id: processes.id });
    return renewed.length > 0;
  });
}

/**
 * Ends `owner`'s running job with a status, and queues the jobs it names next (`enqueue`, in the
 * same transaction: the outcome and the next jobs are committed together or not at all). The
 * `process` events are published after the commit.
 * @returns the ended row; null when it is no longer that owner's running job
 */
async function finishOwned(
  ctx: AppContext,
  job: ProcessRow,
  owner: string,
  status: JobStatus,
  payload: Record<string, unknown>,
  next: NextJob[] = [],
): Promise<ProcessRow | null> {
  const held: Array<[AppEventName, AppEvents[AppEventName]]> = [];
  const quiet: AppContext = { ...ctx, events: new EventBus() };
  quiet.events.onAny((name, data) => held.push([name, data]));
  const row = await transaction(ctx, async (tx) => {
    const { processes } = storeOf(ctx).tables;
    const [done] = await tx
      .update(processes)
      .set({ status, payload: { ...(job.payload ?? {}), ...payload }, finishedAt: isoNow(), leaseExpiresAt: null })
      .where(and(eq(processes.id, job.id), eq(processes.workerId, owner), eq(processes.status, 'running')))
      .returning();
    if (!done) return null;
    publishProcess(quiet, done);
    for (const n of next) await enqueue(quiet, { ...n, stage: n.stage as JobKind, createdById: job.createdById });
    return done;
  });
  if (!row) ctx.log.warn({ processId: job.id, stage: job.stage, owner }, 'a job ended after its lease was lost; its outcome is not recorded');
  else for (const [name, data] of held) ctx.events.publish(name, data);
  return row;
}

/**
 * Puts the running jobs of an owner that is gone (a thread, or with a `<node>/` prefix a whole
 * process) up for takeover now. @returns how many
 */
export async function expireLeases(ctx: AppContext, owner: string, exact = false): Promise<number> {
  return transaction(ctx, async (tx) => {
    const { processes } = storeOf(ctx).tables;
    const who = exact ? eq(processes.workerId, owner) : sql`substr(${processes.workerId}, 1, ${owner.length}) = ${owner}`;
    const expired = await tx
      .update(processes)
      .set({ leaseExpiresAt: 0 })
      .where(and(eq(processes.status, 'running'), who))
      .returning({ id: processes.id });
    return expired.length;
  });
}

/** A job as it is now in the database (the job itself when its row is gone). */
async function currentJob(ctx: AppContext, job: ProcessRow): Promise<ProcessRow> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.processes).where(eq(t.processes.id, job.id));
  return row ?? job;
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
    current: (job) => currentJob(ctx, job),
    started: (job) => publishProcess(ctx, job),
  };
}
