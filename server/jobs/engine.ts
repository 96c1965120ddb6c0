/**
 * The job engine of one context: `pipeline/engine.ts` over this context's queue, with the stage
 * handlers bound to the context. Worker threads run one each (`thread.ts`); the CLI and tests use
 * `drain()` to run what is queued in their own thread.
 */
import { randomUUID } from 'node:crypto';
import { threadId } from 'node:worker_threads';
import { JobEngine, type RunStage } from '../../pipeline/engine.js';
import type { AppContext } from '../context.js';
import { cancelProcess } from '../queue/processes.js';
import { jobQueue, type ProcessRow, type StageHandler } from '../queue/queue.js';

export interface EngineOpts {
  /** Concurrent jobs of this engine (default 1). */
  workers?: number;
  pollMs?: number;
  /** Owner name of its claims (default: a fresh one naming this thread). */
  owner?: string;
}

/** A default owner name: unique, and naming the thread (`t0` is a process's main thread). */
export const ownerName = (prefix = `local-${randomUUID().slice(0, 8)}`) => `${prefix}/t${threadId}`;

/** The engine of a context. */
export class Engine extends JobEngine<ProcessRow> {
  constructor(
    private readonly ctx: AppContext,
    handlers: Partial<Record<string, StageHandler>>,
    opts: EngineOpts = {},
  ) {
    const stages: Record<string, RunStage<ProcessRow>> = {};
    for (const [stage, handler] of Object.entries(handlers)) if (handler) stages[stage] = (job, signal) => handler(ctx, job, signal);
    const lease = ctx.config.jobLeaseSeconds * 1000;
    super(jobQueue(ctx), stages, {
      workers: opts.workers ?? 1,
      pollMs: opts.pollMs,
      owner: opts.owner ?? ownerName(),
      renewMs: Math.max(250, Math.min(2000, lease / 4)),
    });
  }

  private unsubscribe: (() => void) | null = null;

  /** Starts the loops; a job queued or cancelled on this context's bus wakes or aborts them at once. */
  override start(): void {
    this.unsubscribe ??= this.ctx.events.on('process', (p) => {
      if (p.status === 'pending') this.wake();
      if (p.status === 'suspended') this.abort(p.id);
    });
    super.start();
  }

  override async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await super.stop();
  }

  /** Cancels a job: pending ones at once, running ones of this engine through their abort signal. */
  async cancel(id: number): ReturnType<typeof cancelProcess> {
    const view = await cancelProcess(this.ctx, id);
    this.abort(id);
    return view;
  }
}
