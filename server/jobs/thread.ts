/**
 * A job worker thread: its own context (its own SQLite connection in WAL mode, or on PostgreSQL
 * a small pool of its own; its own event bus and log) and an engine claiming jobs by lease, at the
 * idle CPU priority, below the threads serving requests. Events its jobs publish go to the parent thread,
 * which forwards them to the sockets; the parent wakes it when a job is queued, tells it which job
 * was cancelled, and asks it to stop. One thread of a process also keeps the cached scorecard facts
 * up to date (`ScorecardRefresher`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { threadId, type MessagePort } from 'node:worker_threads';
import type { AppConfig } from '../config.js';
import { createContext } from '../context.js';
import { createPgContext } from '../context-pg.js';
import type { AppEventName } from '../events.js';
import { Engine } from './engine.js';
import { ShuttingDown, STOPPED_AT_SHUTDOWN } from '../queue/queue.js';
import { ScorecardRefresher } from '../services/scorecards/refresh.js';
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
  /** This thread also refreshes the cached scorecard facts, at its idle priority (one thread per process). */
  scorecardRefresher?: boolean;
}

/** Parent -> thread. */
export type ToJobThread = { type: 'wake' } | { type: 'abort'; id: number } | { type: 'stop' };
/** Thread -> parent. */
export type FromJobThread = { type: 'ready'; owner: string } | { type: 'event'; name: AppEventName; data: unknown } | { type: 'stopped' };

/**
 * The niceness of job threads (Linux: 0 normal to 19 lowest), kept where the idle policy below
 * cannot be set: when the cores are busy, the threads that answer requests go first.
 */
export const JOB_THREAD_NICENESS = 10;

/** Linux's SCHED_IDLE scheduling policy (`sched(7)`), as /proc/<pid>/task/<tid>/stat field 41 shows it. */
export const SCHED_IDLE = 5;

/** How a job thread was lowered: the idle policy, niceness only, or not at all. */
export type ThreadPriority = 'idle' | 'niceness' | null;

/**
 * A Linux thread's niceness and scheduling policy, from its stat file (fields 19 and 41; the
 * command name before them is in parentheses and may hold spaces).
 * @param statFile `/proc/thread-self/stat` (the calling thread) or `/proc/<pid>/task/<tid>/stat`
 */
export function threadScheduling(statFile = '/proc/thread-self/stat'): { niceness: number; policy: number } {
  const stat = readFileSync(statFile, 'utf8');
  // fields[0] is field 3 (the state)
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { niceness: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) };
}

/**
 * Lowers the calling thread's CPU priority so that the threads answering requests always go
 * first. On Linux a thread is a task of its own (`/proc/thread-self` names its id), so only this
 * thread is lowered, not the process. First niceness `JOB_THREAD_NICENESS`; then the SCHED_IDLE
 * policy (decision 0016), set through util-linux's `chrt`, as Node has no call for it: an idle
 * thread runs only on CPU time no other thread wants and gives way the moment one wakes, where a
 * niced thread keeps its time slice and its share (the benchmarks measured a niced job thread
 * taking 55-65% of a core from the request thread under load). Any user may move its own thread
 * to SCHED_IDLE. Where `chrt` is missing or refused, the niceness stays; elsewhere than Linux
 * nothing changes.
 * @returns how the thread was lowered
 */
export function lowerThreadPriority(): ThreadPriority {
  if (process.platform !== 'linux') return null;
  let lowered: ThreadPriority = null;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, JOB_THREAD_NICENESS);
    lowered = 'niceness';
    const chrt = spawnSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5000 });
    if (chrt.status === 0 && threadScheduling().policy === SCHED_IDLE) lowered = 'idle';
  } catch {
    // left as far as it got
  }
  return lowered;
}

/** The owner name of a thread's claims. */
export const threadOwner = (nodeId: string, thread: number) => `${nodeId}/t${thread}`;

/**
 * Runs the job loop of this thread until the parent says stop.
 * @throws Error when the data directory or the database cannot be opened
 */
export async function runJobThread(data: JobThreadData, port: MessagePort): Promise<void> {
  const priority = lowerThreadPriority();
  const ctx = data.config.databaseUrl
    ? await createPgContext({ config: data.config, url: data.config.databaseUrl, terminalLog: false, poolSize: 2 })
    : await createContext({ config: data.config, terminalLog: false });
  ctx.log.debug({ priority }, 'job thread started');
  const send = (m: FromJobThread) => port.postMessage(m);
  ctx.events.onAny((name, payload) => send({ type: 'event', name, data: payload }));
  const owner = threadOwner(data.nodeId, threadId);
  const engine = new Engine(ctx, allJobs, { owner, pollMs: data.pollMs });
  const refresher = data.scorecardRefresher ? new ScorecardRefresher(ctx) : null;
  port.on('message', (m: ToJobThread) => {
    if (m.type === 'wake') engine.wake();
    else if (m.type === 'abort') engine.abort(m.id);
    else if (m.type === 'stop') {
      // a test run can take many minutes: it stops now and is taken over, the others finish
      engine.abortStages(STOPPED_AT_SHUTDOWN, new ShuttingDown());
      void Promise.all([engine.stop(), refresher?.stop()]).then(() => {
        ctx.close();
        send({ type: 'stopped' });
        port.close();
      });
    }
  });
  engine.start();
  refresher?.start();
  send({ type: 'ready', owner });
}
