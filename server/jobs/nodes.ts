/**
 * The processes working on one data directory (`nodes`): each `serve` and `worker` process
 * registers itself with a heartbeat. This is the data-directory lock of `serve` (a second server
 * on the same directory is refused, naming the running one) and how a dead process is noticed: a
 * node on this host whose pid is gone, or whose heartbeat stopped, is removed and the jobs it held
 * are put up for takeover at once, instead of when their leases run out.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { nodes, type NodeKind } from '../db/schema/index.js';
import { DataDirInUseError } from '../errors.js';
import { expireLeases } from './queue.js';

export type NodeRow = typeof nodes.$inferSelect;

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

/** A node is dead when its process is gone (same host) or it missed heartbeats for a whole lease. */
function isDead(ctx: AppContext, n: NodeRow, now: number): boolean {
  if (n.hostname === hostname() && n.pid !== process.pid && !pidAlive(n.pid)) return true;
  return n.heartbeatAt < now - Math.max(3 * HEARTBEAT_MS, ctx.config.jobLeaseSeconds * 1000);
}

/**
 * Removes dead nodes and puts the jobs they held up for takeover.
 * @returns the ids of the nodes removed
 */
export function reapDeadNodes(ctx: AppContext): string[] {
  const now = Date.now();
  const dead = ctx.db
    .select()
    .from(nodes)
    .all()
    .filter((n) => isDead(ctx, n, now));
  for (const n of dead) {
    const jobs = expireLeases(ctx, `${n.id}/`);
    ctx.db.delete(nodes).where(eq(nodes.id, n.id)).run();
    ctx.log.warn({ node: n.id, pid: n.pid, host: n.hostname, jobs }, 'a process working on this data directory stopped; its jobs will be taken over');
  }
  return dead.map((n) => n.id);
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
  setUrl(url: string): void;
  /** Stops the heartbeat and removes the node. */
  unregister(): void;
}

/**
 * Registers this process as a node and keeps its heartbeat. Dead nodes are reaped first.
 * @throws DataDirInUseError (409) for a `serve` node when another live server uses the data directory
 */
export function registerNode(ctx: AppContext, kind: NodeKind, opts: { workers?: number } = {}): NodeHandle {
  const id = `${kind}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  reapDeadNodes(ctx);
  ctx.db.transaction(
    (tx) => {
      if (kind === 'serve') {
        const other = tx.select().from(nodes).where(eq(nodes.kind, 'serve')).get();
        if (other) throw new DataDirInUseError(alreadyServing(ctx, other));
      }
      tx.insert(nodes)
        .values({ id, kind, hostname: hostname(), pid: process.pid, workers: opts.workers ?? 0, startedAt: new Date().toISOString(), heartbeatAt: Date.now() })
        .run();
    },
    { behavior: 'immediate' },
  );
  const beat = setInterval(() => {
    try {
      const alive = ctx.db.update(nodes).set({ heartbeatAt: Date.now() }).where(eq(nodes.id, id)).run().changes;
      // reaped by a peer after a long pause (a suspended machine): register again
      if (!alive)
        ctx.db
          .insert(nodes)
          .values({
            id,
            kind,
            hostname: hostname(),
            pid: process.pid,
            workers: opts.workers ?? 0,
            startedAt: new Date().toISOString(),
            heartbeatAt: Date.now(),
          })
          .run();
      reapDeadNodes(ctx);
    } catch (err) {
      ctx.log.warn({ err }, 'node heartbeat failed; trying again');
    }
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    id,
    kind,
    setUrl: (url) => void ctx.db.update(nodes).set({ url }).where(eq(nodes.id, id)).run(),
    unregister: () => {
      clearInterval(beat);
      ctx.db.delete(nodes).where(eq(nodes.id, id)).run();
    },
  };
}
