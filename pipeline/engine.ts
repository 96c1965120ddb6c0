/**
 * The job engine behind the spec's "processes" (DOMAIN.md 2), free of any storage: it asks a
 * `JobQueue` for work, runs the stage a job names and reports the outcome back to the queue. The
 * queue (the server's `processes` table) decides what may run: it hands a job out with a lease
 * (owner, expiry), which the engine renews while the job runs, and takes it back only when the
 * lease has expired. A renewal that fails (the job was cancelled, or its lease was lost) aborts the
 * running stage through its signal.
 */

/** What a stage asks to run next. */
export interface NextJob {
  stage: string;
  fundRequestId: number | null;
  payload?: Record<string, unknown>;
  forceRun?: boolean;
}

/** What a stage returns when it is done. */
export interface StageResult {
  /** Kept in the process payload (counts, file ids, warnings). */
  result?: Record<string, unknown>;
  next?: NextJob[];
}

/** The least the engine knows of a job. */
export interface JobRef {
  id: number;
  stage: string;
}

/** Thrown by a stage that noticed its job was cancelled. */
export class JobCancelled extends Error {}

/** Where jobs come from and where their outcomes go; every call may be synchronous or not. */
export interface JobQueue<J extends JobRef> {
  /** Whether the queue hands out work now (the pipeline service switch). */
  enabled(): boolean | Promise<boolean>;
  /** Claims the next runnable job of `stages` for `owner` with a fresh lease, or null. */
  claim(owner: string, stages: string[]): J | null | Promise<J | null>;
  /** Renews the lease; false when the job is no longer this owner's running job (cancelled, taken over). */
  renew(job: J, owner: string): boolean | Promise<boolean>;
  /** Records success and queues what the stage asked for; null when the job was no longer this owner's. */
  complete(job: J, owner: string, outcome: StageResult): J | null | Promise<J | null>;
  /** Records a failure with its message; null when the job was no longer this owner's. */
  fail(job: J, owner: string, error: Error): J | null | Promise<J | null>;
  /** The job as it is now (after a cancel, for instance). */
  current(job: J): J | Promise<J>;
  /** Tells that a job has started running (an event for watchers). */
  started?(job: J): void;
}

/** Runs one job's stage; `signal` is aborted when the job is cancelled or its lease is lost. */
export type RunStage<J> = (job: J, signal: AbortSignal) => Promise<StageResult> | StageResult;

export interface EngineOptions {
  /** Concurrent loops (jobs at once) of this engine. */
  workers?: number;
  /** How often an idle loop looks for work, in ms. */
  pollMs?: number;
  /** How often a running job's lease is renewed, in ms. */
  renewMs?: number;
  /** The owner name written on claimed jobs (unique per engine). */
  owner: string;
}

/**
 * A few loops claiming and running jobs. `drain` runs what is queued and returns (CLI, tests);
 * `start`/`stop` keep loops polling (a worker). `wake` makes idle loops look for work at once.
 */
export class JobEngine<J extends JobRef> {
  private readonly controllers = new Map<number, AbortController>();
  private readonly stagesRunning = new Map<number, string>();
  private stopped = true;
  private wakers = new Set<() => void>();
  private loops: Promise<void>[] = [];

  constructor(
    private readonly queue: JobQueue<J>,
    private readonly stages: Record<string, RunStage<J>>,
    private readonly opts: EngineOptions,
  ) {}

  /** The owner name of this engine's claims. */
  get owner(): string {
    return this.opts.owner;
  }

  /** Ids of the jobs running now. */
  running(): number[] {
    return [...this.controllers.keys()];
  }

  /** Starts the loops. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (let i = 0; i < (this.opts.workers ?? 1); i++) this.loops.push(this.loop());
  }

  /** Stops taking jobs and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** Makes idle loops look for work now (a job was queued). */
  wake(): void {
    for (const w of [...this.wakers]) w();
  }

  /** Aborts a running job of this engine (it was cancelled). */
  abort(id: number): void {
    this.controllers.get(id)?.abort();
  }

  /**
   * Aborts the running jobs of some stages with a reason (e.g. the process shuts down): their
   * stages see `signal.reason` and the jobs are left as they are, for a takeover.
   */
  abortStages(stages: readonly string[], reason: unknown): void {
    for (const [id, stage] of this.stagesRunning) if (stages.includes(stage)) this.controllers.get(id)?.abort(reason);
  }

  /** Runs queued jobs until none is left (tests, CLI): returns the number run. */
  async drain(limit = 10_000): Promise<number> {
    let n = 0;
    while (n < limit) {
      const job = await this.queue.claim(this.opts.owner, Object.keys(this.stages));
      if (!job) break;
      await this.run(job);
      n++;
    }
    return n;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const job = (await this.queue.enabled()) ? await this.queue.claim(this.opts.owner, Object.keys(this.stages)) : null;
      if (job) {
        await this.run(job);
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, this.opts.pollMs ?? 1000);
        timer.unref?.();
        this.wakers.add(done);
      });
    }
  }

  /** Runs one claimed job to its end state; its lease is renewed meanwhile. */
  async run(job: J): Promise<J> {
    const stage = this.stages[job.stage];
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    this.stagesRunning.set(job.id, job.stage);
    this.queue.started?.(job);
    const renew = setInterval(() => {
      void Promise.resolve(this.queue.renew(job, this.opts.owner)).then(
        (ok) => ok || controller.abort(),
        () => undefined, // a busy database: the next renewal tries again
      );
    }, this.opts.renewMs ?? 2000);
    renew.unref?.();
    try {
      if (!stage) throw new Error(`No handler for stage ${job.stage}`);
      const outcome = await stage(job, controller.signal);
      if (controller.signal.aborted) return await this.queue.current(job);
      return (await this.queue.complete(job, this.opts.owner, outcome)) ?? (await this.queue.current(job));
    } catch (err) {
      if (err instanceof JobCancelled || controller.signal.aborted) return await this.queue.current(job);
      return (await this.queue.fail(job, this.opts.owner, err as Error)) ?? (await this.queue.current(job));
    } finally {
      clearInterval(renew);
      this.controllers.delete(job.id);
      this.stagesRunning.delete(job.id);
    }
  }
}
