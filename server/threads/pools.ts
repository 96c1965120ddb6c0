/**
 * The request pools of a context (worker threads run by Piscina), so that the thread serving
 * requests never does heavy work (docs/architecture.md, "Request pools"):
 * - the parse pool: bulk-upload CSV parsing and validation, mapping files, self-onboarding file
 *   checks, the listing's xlsx export;
 * - the read pool: uncached listing pages, each thread with its own read-only connection, so
 *   distinct queries are answered in parallel while writes go on.
 * Both run the same tasks (tasks.ts: service functions) on a context of their own (read-context.ts).
 * Pools start on first use (`fund-audit serve` starts the read pool at once: `warmReadPool`) and
 * end when the context closes. A task whose thread dies (a crash, out of memory) fails with
 * `PoolThreadError` (503) instead of leaving the request waiting; the pool starts another thread
 * for the next task.
 */
import { PG_PAGES_PER_READ_THREAD } from './read-concurrency.js';
import { availableParallelism } from 'node:os';
import { threadId } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { AppContext } from '../context.js';
import { sqliteAddonFile } from '../db/native.js';
import { AppError } from '../errors.js';
import { inBinary, threadScript } from '../jobs/script.js';
import { tasks, type TaskArgs, type TaskName, type TaskResult } from './tasks.js';
import { fromWire, type WireError } from './wire.js';

/** Global read by the single binary's patch of Piscina: the file its worker threads start (= PISCINA_WORKER_GLOBAL in scripts/build-binary.mjs). */
const PISCINA_WORKER_GLOBAL = '__FUND_AUDIT_PISCINA_WORKER__';

export type PoolName = 'parse' | 'read';

export interface RequestPoolOptions {
  /** Threads of the parse pool; 0 does its work on the calling thread. */
  parseThreads: number;
  /** Threads (read-only connections) of the read pool; 0 answers on the calling thread. */
  readThreads: number;
  /** An idle thread beyond the first ends after this long. */
  idleTimeoutMs: number;
  /** Also accept the diagnostic tasks that end a thread (tests of crash handling). */
  diagnostics: boolean;
}

/** Default sizes: a parse thread per core (at most 4), a reader per core and at least 2 (at most 8). */
export function defaultPoolOptions(cores = availableParallelism()): RequestPoolOptions {
  return { parseThreads: Math.min(4, Math.max(1, cores)), readThreads: Math.min(8, Math.max(2, cores)), idleTimeoutMs: 60_000, diagnostics: false };
}

/** What a pool thread answers (pool-entry.ts). */
export type TaskAnswer = { ok: true; value: unknown; thread: number } | { ok: false; error: WireError; thread: number };

/** A task done: which pool and thread did it (tests and diagnostics listen). */
export interface PoolTaskEvent {
  pool: PoolName;
  task: TaskName;
  thread: number;
  ms: number;
}

/** 503: the thread doing a request's work stopped before answering. */
export class PoolThreadError extends AppError {
  constructor(what: string) {
    super(
      `The server could not finish this request: the worker thread doing it (${what}) stopped. Try again; if it happens again, the server log has the details.`,
      503,
    );
  }
}

interface PoolState {
  options: RequestPoolOptions;
  pools: Partial<Record<PoolName, Piscina>>;
  listeners: Set<(e: PoolTaskEvent) => void>;
}

const states = new WeakMap<AppContext, PoolState>();

function stateOf(ctx: AppContext): PoolState {
  let s = states.get(ctx);
  if (!s) {
    s = { options: defaultPoolOptions(), pools: {}, listeners: new Set() };
    states.set(ctx, s);
    ctx.onClose?.(() => void closeRequestPools(ctx));
  }
  return s;
}

/** Changes the pool sizes of a context (running pools are ended first; new ones start on next use). */
export async function setRequestPoolOptions(ctx: AppContext, options: Partial<RequestPoolOptions>): Promise<void> {
  const s = stateOf(ctx);
  await closeRequestPools(ctx);
  s.options = { ...s.options, ...options };
}

/** The current pool options of a context. */
export const requestPoolOptions = (ctx: AppContext): RequestPoolOptions => ({ ...stateOf(ctx).options });

/** Calls `listener` after every pool task of a context; returns the unsubscribe function. */
export function onPoolTask(ctx: AppContext, listener: (e: PoolTaskEvent) => void): () => void {
  const s = stateOf(ctx);
  s.listeners.add(listener);
  return () => s.listeners.delete(listener);
}

function poolOf(ctx: AppContext, name: PoolName, s: PoolState): Piscina {
  const existing = s.pools[name];
  if (existing) return existing;
  const script = threadScript('pool-worker');
  // inside the binary Piscina's own thread script is not on disk: the pool bundle includes it
  if (inBinary()) (globalThis as Record<string, unknown>)[PISCINA_WORKER_GLOBAL] = script.file;
  const size = name === 'read' ? s.options.readThreads : s.options.parseThreads;
  const pool = new Piscina({
    filename: script.file,
    // every reader starts at once (each with its connection); a parse thread starts when needed
    minThreads: name === 'read' ? size : 1,
    maxThreads: size,
    concurrentTasksPerWorker: name === 'read' && ctx.config.databaseUrl ? PG_PAGES_PER_READ_THREAD : 1,
    idleTimeout: s.options.idleTimeoutMs,
    atomics: 'disabled',
    workerData: {
      role: 'fund-audit-pool',
      pool: name,
      config: ctx.config,
      sqliteAddon: sqliteAddonFile(),
      entry: script.entry,
      diagnostics: s.options.diagnostics,
    },
  });
  // a thread failing outside a task (none is running) must not end the server
  pool.on('error', (err: Error) => ctx.log.error({ err, pool: name }, 'a request pool thread failed'));
  s.pools[name] = pool;
  return pool;
}

/**
 * Runs a task in a pool of the context (on this thread when the pool has 0 threads) and answers
 * its result; errors the task throws are thrown here as the same typed errors.
 * @throws PoolThreadError when the thread stopped before answering (crash, out of memory, pool closed)
 */
export async function runTask<N extends TaskName>(
  ctx: AppContext,
  pool: PoolName,
  name: N,
  args: TaskArgs<N>,
  transfer: ArrayBuffer[] = [],
): Promise<TaskResult<N>> {
  const s = stateOf(ctx);
  const started = performance.now();
  const done = (thread: number) => {
    for (const l of s.listeners) l({ pool, task: name, thread, ms: performance.now() - started });
  };
  if ((pool === 'read' ? s.options.readThreads : s.options.parseThreads) <= 0) {
    const value = await (tasks[name] as (c: AppContext, ...a: unknown[]) => unknown)(ctx, ...(args as unknown[]));
    done(threadId);
    return value as TaskResult<N>;
  }
  let answer: TaskAnswer;
  try {
    answer = await poolOf(ctx, pool, s).run({ name, args }, { transferList: transfer });
  } catch (err) {
    ctx.log.error({ err, pool, task: name }, 'a request pool thread stopped during a task');
    throw new PoolThreadError(name);
  }
  done(answer.thread);
  if (!answer.ok) throw fromWire(answer.error);
  return answer.value as TaskResult<N>;
}

/**
 * Starts the read pool of a context and opens each reader's connection now, so that the first
 * uncached page after a start does not wait for the threads to load (a second or more from the
 * TypeScript sources, a few hundred milliseconds from the bundle). Resolves when every reader has
 * answered once; a reader that fails to open is logged, and the pool starts another for the next task.
 */
export async function warmReadPool(ctx: AppContext): Promise<void> {
  const readers = stateOf(ctx).options.readThreads;
  await Promise.all(
    Array.from({ length: readers }, () =>
      runTask(ctx, 'read', 'threads.thread-id', []).catch((err: unknown) => ctx.log.warn({ err }, 'a read pool thread could not start')),
    ),
  );
}

/** Ends the pools of a context (their threads are terminated; tasks still running fail with PoolThreadError). */
export async function closeRequestPools(ctx: AppContext): Promise<void> {
  const s = states.get(ctx);
  if (!s) return;
  const pools = Object.values(s.pools);
  s.pools = {};
  await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
}

/**
 * A copy of `bytes` in an ArrayBuffer of its own, to move to a pool thread without copying it a
 * second time (an upload is often a view into a larger buffer, which would be cloned whole).
 */
export function movable(bytes: Uint8Array): { bytes: Uint8Array; transfer: ArrayBuffer[] } {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return { bytes: copy, transfer: [copy.buffer] };
}
