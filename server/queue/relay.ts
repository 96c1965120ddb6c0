/**
 * Events between processes on one SQLite data directory: a `worker` process has no socket, so it
 * writes the events its jobs publish to `node_events`, and every `serve` process reads new rows
 * a few times a second and publishes them on its own bus (and so to its sockets). Rows are kept
 * for a few minutes.
 */
import { and, gt, lt, ne } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { nodeEvents } from '../db/schema/index.js';
import type { AppEventName, AppEvents } from '../events.js';

/** How often a server reads events left by other processes, in ms. */
export const TAIL_MS = 250;
/** How long events are kept, in ms. */
const KEEP_MS = 10 * 60_000;

/**
 * Writes every event published on this context's bus to `node_events` (a `worker` process).
 * @returns a function that stops it
 */
export function relayEventsToDb(ctx: AppContext, nodeId: string): () => void {
  const insert = ctx.sqlite.prepare('INSERT INTO node_events (node_id, name, data, created_at) VALUES (?, ?, ?, ?)');
  return ctx.events.onAny((name, data) => {
    try {
      insert.run(nodeId, name, JSON.stringify(data), Date.now());
    } catch (err) {
      ctx.log.warn({ err, event: name }, 'an event could not be passed on to the servers');
    }
  });
}

/**
 * Publishes on this context's bus the events other processes wrote (a `serve` process), from now on.
 * @returns a function that stops it
 */
export function tailEventsFromDb(ctx: AppContext, nodeId: string): () => void {
  let last = (ctx.sqlite.prepare('SELECT coalesce(max(id), 0) AS id FROM node_events').get() as { id: number }).id;
  let lastPrune = Date.now();
  const timer = setInterval(() => {
    try {
      const rows = ctx.db
        .select()
        .from(nodeEvents)
        .where(and(gt(nodeEvents.id, last), ne(nodeEvents.nodeId, nodeId)))
        .orderBy(nodeEvents.id)
        .limit(1000)
        .all();
      for (const r of rows) {
        last = r.id;
        ctx.events.publish(r.name as AppEventName, r.data as AppEvents[AppEventName]);
      }
      if (Date.now() - lastPrune > 60_000) {
        lastPrune = Date.now();
        ctx.db
          .delete(nodeEvents)
          .where(lt(nodeEvents.createdAt, Date.now() - KEEP_MS))
          .run();
      }
    } catch (err) {
      ctx.log.warn({ err }, 'reading events of other processes failed; trying again');
    }
  }, TAIL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
