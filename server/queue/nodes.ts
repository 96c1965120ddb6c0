/**
 * The processes working on one database (`nodes`): each `serve` and `worker` process registers
 * itself with a heartbeat. On SQLite a `serve` also takes the data directory's lock (dir-lock.ts,
 * held by the process while it lives, suspended or not): a second server on the same directory is
 * refused, naming the running one; on PostgreSQL any number of `serve` and `worker` nodes share
 * the database. It is also how a dead process is noticed: a node whose
 * heartbeat stopped (on SQLite also a node of this host whose pid is gone) is removed and the jobs
 * it held are put up for takeover at once, instead of when their leases run out.
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { storeOf, type Tables } from '../db/dialect.js';
import type { NodeKind } from '../db/schema/nodes.js';
import { transaction } from '../db/tx.js';
import { DataDirInUseError } from '../errors.js';
import { type DataDirLock, LOCK_FILE, lockDataDir } from './dir-lock.js';
import { expireLeases } from './queue.js';

export type NodeRow = Tables['nodes']['$inferSelect'];

/** How often a node writes its heartbeat, in ms. */
export const HEARTBEAT_MS = 5000;

/** Whether a process of this host is alive (a pid another user owns counts as alive). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A node is dead when it missed heartbeats for a whole lease; on SQLite (one machine) also when
 * its process of this host is gone. On PostgreSQL nodes run on several machines, where a pid says
 * nothing: only the heartbeat counts.
 */
function isDead(ctx: AppContext, n: NodeRow, now: number): boolean {
  if (storeOf(ctx).dialect === 'sqlite' && n.hostname === hostname() && n.pid !== process.pid && !pidAlive(n.pid)) return true;
  return n.heartbeatAt < now - Math.max(3 * HEARTBEAT_MS, ctx.config.jobLeaseSeconds * 1000);
}

/**
 * Removes dead nodes and puts the jobs they held up for takeover.
 * @returns the ids of the nodes removed
 */
export async function reapDeadNodes(ctx: AppContext): Promise<string[]> {
  const now = Date.now();
  const { db, tables: t } = storeOf(ctx);
  const dead = (await db.select().from(t.nodes)).filter((n) => isDead(ctx, n, now));
  const removed: string[] = [];
  for (const n of dead) {
    // one transaction per node: of two nodes reaping at once, one removes it and expires its jobs
    const gone = await transaction(ctx, async (tx) => {
      const [row] = await tx.delete(t.nodes).where(eq(t.nodes.id, n.id)).returning({ id: t.nodes.id });
      return row ? expireLeases(ctx, `${n.id}/`) : null;
    });
    if (gone === null) continue;
    removed.push(n.id);
    ctx.log.warn({ node: n.id, pid: n.pid, host: n.hostname, jobs: gone }, 'a process working on this database stopped; its jobs will be taken over');
  }
  return removed;
}

/** The message refusing a second server on one data directory. */
function alreadyServing(ctx: AppContext, n: NodeRow): string {
  const where = n.url ? ` at ${n.url}` : '';
  return (
    `Fund Audit is already serving the data directory ${ctx.config.dataDir}${where} (pid ${n.pid} on ${n.hostname}, since ${n.startedAt}). ` +
    'Stop that server first, or add job workers to it with `fund-audit worker`.'
  );
}

export interface NodeHandle {
  /** The node id; job owners of this process are `<id>/t<thread>`. */
  id: string;
  kind: NodeKind;
  /** Records the address a server listens on. */
  setUrl(url: string): Promise<void>;
  /** Stops the heartbeat and removes the node. */
  unregister(): Promise<void>;
}

/**
 * Registers this process as a node and keeps its heartbeat. Dead nodes are reaped first.
 * @throws DataDirInUseError (409) for a `serve` node on SQLite when another live server uses the data directory
 */
export async function registerNode(ctx: AppContext, kind: NodeKind, opts: { workers?: number } = {}): Promise<NodeHandle> {
  const id = `${kind}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const { tables: t, dialect } = storeOf(ctx);
  const row = () => ({
    id,
    kind,
    hostname: hostname(),
    pid: process.pid,
    workers: opts.workers ?? 0,
    startedAt: new Date().toISOString(),
    heartbeatAt: Date.now(),
  });
  const lock = kind === 'serve' && dialect === 'sqlite' ? await serverLock(ctx) : null;
  try {
    await reapDeadNodes(ctx);
    await transaction(ctx, async (tx) => {
      if (lock) {
        // the lock is ours: a server still listed is gone (killed before it could remove itself)
        const stale = await tx.delete(t.nodes).where(eq(t.nodes.kind, 'serve')).returning({ id: t.nodes.id });
        for (const n of stale) await expireLeases(ctx, `${n.id}/`);
      }
      await tx.insert(t.nodes).values(row());
    });
  } catch (err) {
    lock?.release();
    throw err;
  }
  const heartbeat = async () => {
    const alive = await transaction(ctx, async (tx) =>
      tx.update(t.nodes).set({ heartbeatAt: Date.now() }).where(eq(t.nodes.id, id)).returning({ id: t.nodes.id }),
    );
    // reaped by a peer after a long pause (a suspended machine): register again
    if (!alive.length) await transaction(ctx, async (tx) => tx.insert(t.nodes).values(row()).onConflictDoNothing());
    await reapDeadNodes(ctx);
  };
  let beating: Promise<void> = Promise.resolve();
  const beat = setInterval(() => {
    beating = heartbeat().catch((err) => ctx.log.warn({ err }, 'node heartbeat failed; trying again'));
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    id,
    kind,
    setUrl: async (url) => {
      await transaction(ctx, async (tx) => tx.update(t.nodes).set({ url }).where(eq(t.nodes.id, id)));
    },
    unregister: async () => {
      clearInterval(beat);
      await beating;
      await transaction(ctx, async (tx) => tx.delete(t.nodes).where(eq(t.nodes.id, id)));
      lock?.release();
    },
  };
}

/**
 * Takes the data directory's server lock (SQLite).
 * @throws DataDirInUseError naming the running server when another process holds it
 */
async function serverLock(ctx: AppContext): Promise<DataDirLock> {
  const lock = lockDataDir(ctx.config.dataDir);
  if (lock) return lock;
  const { db, tables: t } = storeOf(ctx);
  const [other] = await db.select().from(t.nodes).where(eq(t.nodes.kind, 'serve')).limit(1);
  throw new DataDirInUseError(
    other
      ? alreadyServing(ctx, other)
      : `Fund Audit is already serving the data directory ${ctx.config.dataDir} (another process holds ${join(ctx.config.dataDir, LOCK_FILE)}). Stop that server first, or add job workers to it with \`fund-audit worker\`.`,
  );
}
