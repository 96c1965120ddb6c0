/**
 * A job worker thread: its own context (its own SQLite connection in WAL mode, or on PostgreSQL
 * a small pool of its own; its own event bus and log) and an engine claiming jobs by lease, at a
 * lower CPU priority than the threads serving requests. Events its jobs publish go to the parent thread,
 * which forwards them to the sockets; the parent wakes it when a job is queued, tells it which job
 * was cancelled, and asks it to stop.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { threadId, type MessagePort } from 'node:worker_threads';
import type { AppConfig } from '../config.js';
import { createContext } from '../context.js';
import { createPgContext } from '../context-pg.js';
import type { AppEventName } from '../events.js';
import { Engine } from './engine.js';
import { allJobs } from './stages/index.js';

/** What a job thread is started with. */
export interface JobThreadData {
  role: 'fund-audit-jobs';
  config: AppConfig;
  /** The node of the process; the thread's claims are `<nodeId>/t<threadId>`. */
  nodeId: string;
  pollMs?: number;
  /** better-sqlite3's addon file inside the single binary. */
  sqliteAddon?: string;
}

/** Parent -> thread. */
export type ToJobThread = { type: 'wake' } | { type: 'abort'; id: number } | { type: 'stop' };
/** Thread -> parent. */
export type FromJobThread = { type: 'ready'; owner: string } | { type: 'event'; name: AppEventName; data: unknown } | { type: 'stopped' };

/**
 * The niceness of job threads (Linux: 0 normal to 19 lowest): when the cores are busy, the
 * threads that answer requests (and the request pools) go before the pipeline, which only waits a
 * little longer; on idle cores it runs as fast as before.
 */
export const JOB_THREAD_NICENESS = 10;

/**
 * Lowers the calling thread's CPU priority to `JOB_THREAD_NICENESS`. On Linux a thread is a task
 * of its own with its own niceness (`/proc/thread-self` names its id), so only this thread is
 * lowered, not the process. Elsewhere, or when not allowed, nothing changes.
 * @returns the thread's niceness, or null when it was left as it was
 */
export function lowerThreadPriority(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, JOB_THREAD_NICENESS);
    return JOB_THREAD_NICENESS;
  } catch {
    return null;
  }
}

/** The owner name of a thread's claims. */
export const threadOwner = (nodeId: string, thread: number) => `${nodeId}/t${thread}`;

/**
 * Runs the job loop of this thread until the parent says stop.
 * @throws Error when the data directory or the database cannot be opened
 */
export async function runJobThread(data: JobThreadData, port: MessagePort): Promise<void> {
  lowerThreadPriority();
  const ctx = data.config.databaseUrl
    ? await createPgContext({ config: data.config, url: data.config.databaseUrl, terminalLog: false, poolSize: 2 })
    : await createContext({ config: data.config, terminalLog: false });
  const send = (m: FromJobThread) => port.postMessage(m);
  ctx.events.onAny((name, payload) => send({ type: 'event', name, data: payload }));
  const owner = threadOwner(data.nodeId, threadId);
  const engine = new Engine(ctx, allJobs, { owner, pollMs: data.pollMs });
  port.on('message', (m: ToJobThread) => {
    if (m.type === 'wake') engine.wake();
    else if (m.type === 'abort') engine.abort(m.id);
    else if (m.type === 'stop') {
      void engine.stop().then(() => {
        ctx.close();
        send({ type: 'stopped' });
        port.close();
      });
    }
  });
  engine.start();
  send({ type: 'ready', owner });
}
