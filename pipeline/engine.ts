/**
 * The durable job engine behind the spec's "processes" (DOMAIN.md 2): each stage run is a row in
 * `processes` going `pending -> running -> done | error` (or `suspended` when cancelled). Jobs
 * survive a crash: rows left `running` by a dead server are put back to `pending` at start. The
 * same fund and stage never run twice at once (claiming checks it inside one write transaction).
 * Stage handlers write their outputs atomically and name the stages to run next. Every state change
 * is published on the event bus as a `process` event.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../server/context.js';
import { processes, type JobStatus, type Stage } from '../server/db/schema/index.js';
import { serviceOn } from '../server/services/settings/services.js';
import { cancelProcess } from './processes.js';

export type ProcessRow = typeof processes.$inferSelect;

/** What a stage asks to run next. */
export interface NextJob {
  stage: Stage;
  fundRequestId: number | null;
  payload?: Record<string, unknown>;
  forceRun?: boolean;
}

export interface StageResult {
  /** Kept in the process payload (counts, file ids, warnings). */
  result?: Record<string, unknown>;
  next?: NextJob[];
}

/** A stage handler. `signal` is aborted when the job is cancelled while running. */
export type StageHandler = (ctx: AppContext, job: ProcessRow, signal: AbortSignal) => Promise<StageResult> | StageResult;

/** Thrown by a handler that noticed its job was cancelled. */
export class JobCancelled extends Error {}

export interface EnqueueInput extends NextJob {
  createdById?: number | null;
}

const now = () => new Date().toISOString();

function publish(ctx: AppContext, row: Pick<ProcessRow, 'id' | 'fundRequestId' | 'stage' | 'status' | 'payload'>): void {
  ctx.events.publish('process', { id: row.id, fundRequestId: row.fundRequestId, stage: row.stage, status: row.status, payload: row.payload ?? undefined });
}

/** Identity of a job for de-duplication: fund + stage, plus the file for per-file stages. */
function sameJob(a: { fundRequestId: number | null; stage: string; payload?: Record<string, unknown> | null }, b: typeof a): boolean {
  return a.fundRequestId === b.fundRequestId && a.stage === b.stage && (a.payload?.importFileId ?? null) === (b.payload?.importFileId ?? null) && (a.payload?.exportId ?? null) === (b.payload?.exportId ?? null);
}

/**
 * Queues a job; a pending job for the same fund and stage (and file) is reused, and gets forceRun
 * when asked.
 * @returns the process row
 */
export function enqueue(ctx: AppContext, input: EnqueueInput): ProcessRow {
  const pending = ctx.db.select().from(processes)
    .where(and(eq(processes.stage, input.stage), eq(processes.status, 'pending'), input.fundRequestId === null ? isNull(processes.fundRequestId) : eq(processes.fundRequestId, input.fundRequestId)))
    .all().find((p) => sameJob(p, { ...input, fundRequestId: input.fundRequestId }));
  if (pending) {
    if (input.forceRun && !pending.forceRun) ctx.db.update(processes).set({ forceRun: true }).where(eq(processes.id, pending.id)).run();
    return pending;
  }
  const row = ctx.db.insert(processes).values({
    fundRequestId: input.fundRequestId, stage: input.stage, status: 'pending', forceRun: !!input.forceRun,
    payload: input.payload ?? {}, createdById: input.createdById ?? null,
  }).returning().get();
  publish(ctx, row);
  return row;
}

/** Whether the pipeline service is switched on (dev tools "services"). */
export const pipelineEnabled = (ctx: AppContext) => serviceOn(ctx, 'pipeline');

/**
 * Claims the oldest pending job whose fund and stage are not already running.
 * One write transaction, so two workers never take the same job or the same fund and stage.
 */
export function claimNext(ctx: AppContext, workerId: string, stages?: Stage[]): ProcessRow | null {
  return ctx.db.transaction((tx) => {
    const candidates = tx.select().from(processes)
      .where(stages ? and(eq(processes.status, 'pending'), inArray(processes.stage, stages)) : eq(processes.status, 'pending'))
      .orderBy(asc(processes.id)).limit(50).all();
    const running = tx.select({ fundRequestId: processes.fundRequestId, stage: processes.stage, payload: processes.payload }).from(processes).where(eq(processes.status, 'running')).all();
    const job = candidates.find((c) => !running.some((r) => sameJob(r, c) || (c.fundRequestId !== null && r.fundRequestId === c.fundRequestId)));
    if (!job) return null;
    const claimed = tx.update(processes).set({ status: 'running', workerId, startedAt: now(), attempts: sql`${processes.attempts} + 1` })
      .where(and(eq(processes.id, job.id), eq(processes.status, 'pending'))).returning().get();
    return claimed ?? null;
  }, { behavior: 'immediate' });
}

/** Puts jobs left running by a server that died back to pending; returns how many. */
export function recoverInterrupted(ctx: AppContext): number {
  const rows = ctx.db.update(processes).set({ status: 'pending', workerId: null }).where(eq(processes.status, 'running')).returning().all();
  for (const r of rows) publish(ctx, r);
  if (rows.length) ctx.log.warn({ count: rows.length }, 'resuming jobs interrupted by a stop');
  return rows.length;
}

function finish(ctx: AppContext, job: ProcessRow, status: JobStatus, payload: Record<string, unknown>): ProcessRow {
  const row = ctx.db.update(processes).set({ status, payload: { ...(job.payload ?? {}), ...payload }, finishedAt: now(), workerId: null })
    .where(eq(processes.id, job.id)).returning().get();
  publish(ctx, row);
  return row;
}

/** The engine: a few workers polling the queue, woken early when a job is queued. */
export class Engine {
  private readonly workerId = randomUUID();
  private readonly controllers = new Map<number, AbortController>();
  private stopped = true;
  private wake: (() => void) | null = null;
  private loops: Promise<void>[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly ctx: AppContext, private readonly handlers: Partial<Record<Stage, StageHandler>>, private readonly opts: { workers: number; pollMs?: number } = { workers: 1 }) {}

  /** Starts the workers after recovering interrupted jobs. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    recoverInterrupted(this.ctx);
    this.unsubscribe = this.ctx.events.on('process', (p) => {
      if (p.status === 'pending') this.wake?.();
      if (p.status === 'suspended') this.controllers.get(p.id)?.abort();
    });
    for (let i = 0; i < this.opts.workers; i++) this.loops.push(this.loop());
  }

  /** Stops taking jobs and waits for running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.wake?.();
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** Runs queued jobs until none is left (tests, CLI): returns the number run. */
  async drain(limit = 10_000): Promise<number> {
    let n = 0;
    while (n < limit) {
      const job = claimNext(this.ctx, this.workerId, Object.keys(this.handlers) as Stage[]);
      if (!job) break;
      await this.run(job);
      n++;
    }
    return n;
  }

  /** Cancels a job: pending ones at once, running ones through their abort signal. */
  cancel(id: number): ReturnType<typeof cancelProcess> {
    const view = cancelProcess(this.ctx, id);
    this.controllers.get(id)?.abort();
    return view;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const job = pipelineEnabled(this.ctx) ? claimNext(this.ctx, this.workerId, Object.keys(this.handlers) as Stage[]) : null;
      if (job) {
        await this.run(job);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.opts.pollMs ?? 1000);
        timer.unref?.();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Runs one claimed job to its end state and queues what it asks for next. */
  async run(job: ProcessRow): Promise<ProcessRow> {
    const handler = this.handlers[job.stage];
    publish(this.ctx, job);
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    try {
      if (!handler) throw new Error(`No handler for stage ${job.stage}`);
      const result = await handler(this.ctx, job, controller.signal);
      const current = this.ctx.db.select().from(processes).where(eq(processes.id, job.id)).get();
      if (current?.status === 'suspended') return current;
      const done = finish(this.ctx, job, 'done', { result: result.result ?? {} });
      for (const next of result.next ?? []) enqueue(this.ctx, { ...next, createdById: job.createdById });
      return done;
    } catch (err) {
      if (err instanceof JobCancelled || controller.signal.aborted) {
        return this.ctx.db.select().from(processes).where(eq(processes.id, job.id)).get()!;
      }
      this.ctx.log.error({ err, processId: job.id, stage: job.stage, fundRequestId: job.fundRequestId }, 'job failed');
      return finish(this.ctx, job, 'error', { error: (err as Error).message });
    } finally {
      this.controllers.delete(job.id);
    }
  }
}
