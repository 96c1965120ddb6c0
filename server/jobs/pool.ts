/**
 * The job worker threads of a process (`serve` and `fund-audit worker`): `size` threads, each with
 * its own database connection (SQLite) or small pool (PostgreSQL), claiming jobs by lease (`thread.ts`). The thread that serves HTTP and
 * the socket never runs a stage: it only forwards the threads' events to its bus, wakes them when
 * a job is queued and passes cancels on. A thread that dies is replaced; the job it held is put up
 * for takeover at once.
 */
import { Worker } from 'node:worker_threads';
import type { AppContext } from '../context.js';
import { sqliteAddonFile } from '../db/native.js';
import type { AppEventName, AppEvents } from '../events.js';
import { threadScript } from './script.js';
import { expireLeases } from '../queue/queue.js';
import { threadOwner, type FromJobThread, type JobThreadData, type ToJobThread } from './thread.js';

export interface JobThreadsOptions {
  size: number;
  nodeId: string;
  pollMs?: number;
}

/** A process's job threads. */
export class JobThreads {
  private readonly threads = new Set<Worker>();
  /** the thread that also refreshes the cached scorecard facts (one per process is enough) */
  private refresher: Worker | null = null;
  private stopping = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly opts: JobThreadsOptions,
  ) {}

  /** Thread ids of the running threads. */
  threadIds(): number[] {
    return [...this.threads].map((t) => t.threadId);
  }

  /** Starts the threads; queued jobs wake them and cancels reach them through the bus. */
  start(): void {
    this.unsubscribe = this.ctx.events.on('process', (p) => {
      if (p.status === 'pending') this.post({ type: 'wake' });
      if (p.status === 'suspended') this.post({ type: 'abort', id: p.id });
    });
    for (let i = 0; i < this.opts.size; i++) this.spawn();
  }

  private post(m: ToJobThread): void {
    for (const t of this.threads) t.postMessage(m);
  }

  private spawn(): void {
    const script = threadScript('worker');
    const data: JobThreadData & { entry?: string } = {
      role: 'fund-audit-jobs',
      config: this.ctx.config,
      nodeId: this.opts.nodeId,
      pollMs: this.opts.pollMs,
      sqliteAddon: sqliteAddonFile(),
      entry: script.entry,
      scorecardRefresher: this.refresher === null,
    };
    const worker = new Worker(script.file, { workerData: data, name: 'fund-audit-jobs' });
    const id = worker.threadId;
    this.threads.add(worker);
    if (data.scorecardRefresher) this.refresher = worker;
    worker.on('message', (m: FromJobThread) => {
      if (m.type === 'event') this.ctx.events.publish(m.name, m.data as AppEvents[AppEventName]);
    });
    worker.on('error', (err) => this.ctx.log.error({ err, thread: id }, 'a job thread failed'));
    worker.on('exit', (code) => {
      this.threads.delete(worker);
      if (this.refresher === worker) this.refresher = null;
      if (this.stopping) return;
      expireLeases(this.ctx, threadOwner(this.opts.nodeId, id), true).then(
        (released) => this.ctx.log.error({ thread: id, code, released }, 'a job thread stopped; starting another'),
        (err) => this.ctx.log.error({ err, thread: id, code }, 'a job thread stopped; its job is taken over when its lease ends'),
      );
      setTimeout(() => this.stopping || this.spawn(), 1000).unref();
    });
  }

  /**
   * Stops the threads: each finishes its running job first; after `graceMs` the rest are ended
   * and their jobs put up for takeover.
   */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    const all = [...this.threads];
    const exits = all.map((t) => new Promise<void>((resolve) => t.once('exit', () => resolve())));
    this.post({ type: 'stop' });
    const timer = setTimeout(() => all.forEach((t) => void t.terminate()), graceMs);
    await Promise.all(exits);
    clearTimeout(timer);
    await expireLeases(this.ctx, `${this.opts.nodeId}/`);
  }
}
