/**
 * Entry point of a request pool thread (bundled as dist/pool-worker.mjs, and pool-worker.cjs in
 * the binary): Piscina calls the default export with each task. The thread opens its read-only
 * context (on PostgreSQL a context on a small pool) on its first task and keeps it; errors a task throws go back as data (wire.ts).
 */
import { threadId, workerData } from 'node:worker_threads';
import type { AppConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { createPgContext } from '../context-pg.js';
import { useSqliteAddon } from '../db/native.js';
import type { TaskAnswer } from './pools.js';
import { PG_PAGES_PER_READ_THREAD } from './read-concurrency.js';
import { openReadContext } from './read-context.js';
import { diagnostics, tasks, type TaskName } from './tasks.js';
import { toWire } from './wire.js';

/** What a pool thread is started with (pools.ts). */
export interface PoolThreadData {
  role: 'fund-audit-pool';
  pool: 'parse' | 'read';
  config: AppConfig;
  /** better-sqlite3's addon file inside the single binary. */
  sqliteAddon?: string;
  diagnostics: boolean;
}

const data = workerData as PoolThreadData | undefined;
if (data?.role === 'fund-audit-pool') {
  if (data.sqliteAddon) useSqliteAddon(data.sqliteAddon);
  diagnostics.enabled = data.diagnostics;
}

let ctx: AppContext | undefined;
let opening: Promise<AppContext> | undefined;

/**
 * The context of this thread: the data directory's database read-only, or on PostgreSQL a small
 * pool of its own (no SQLite file is opened on a PostgreSQL node).
 */
function openPoolContext(config: AppConfig): Promise<AppContext> {
  opening ??= config.databaseUrl
    ? createPgContext({ config, url: config.databaseUrl, terminalLog: false, poolSize: PG_PAGES_PER_READ_THREAD })
    : Promise.resolve().then(() => openReadContext(config));
  opening.catch(() => (opening = undefined));
  return opening;
}

/** Runs one task on this thread's context; answers its value or its error as data. */
export default async function runPoolTask(task: { name: TaskName; args: unknown[] }): Promise<TaskAnswer> {
  try {
    ctx ??= await openPoolContext(data!.config);
    const value = await (tasks[task.name] as (c: AppContext, ...a: unknown[]) => unknown)(ctx, ...task.args);
    return { ok: true, value, thread: threadId };
  } catch (err) {
    return { ok: false, error: toWire(err), thread: threadId };
  }
}
