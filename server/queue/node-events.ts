/**
 * Events between the nodes working on one database, so a browser connected to one node sees what
 * another did: on PostgreSQL LISTEN/NOTIFY (`events-pg.ts`) for every node; on SQLite a `worker`
 * process writes its events to `node_events` and the `serve` process reads them (`relay.ts`).
 */
import { lt } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { PgDb } from '../db/client-pg.js';
import { baseStoreOf } from '../db/dialect.js';
import { bridgeEventsPg } from '../events-pg.js';
import { relayEventsToDb, tailEventsFromDb } from './relay.js';

/** How long large event payloads stay in `node_events` on PostgreSQL, in ms. */
const KEEP_MS = 10 * 60_000;

/**
 * Connects this node's event bus to the other nodes.
 * @param kind `serve` (publishes the others' events to its sockets) or `worker`
 * @returns `stop()`
 * @throws Error when the listening connection cannot be opened (PostgreSQL)
 */
export async function startNodeEvents(ctx: AppContext, nodeId: string, kind: 'serve' | 'worker'): Promise<{ stop(): Promise<void> }> {
  const store = baseStoreOf(ctx);
  if (store.dialect === 'sqlite') {
    const stop = kind === 'serve' ? tailEventsFromDb(ctx, nodeId) : relayEventsToDb(ctx, nodeId);
    return { stop: async () => stop() };
  }
  const url = ctx.config.databaseUrl;
  if (!url) throw new Error('a PostgreSQL context without databaseUrl in its configuration');
  const bridge = await bridgeEventsPg({ pool: (store.db as unknown as PgDb).$client, url, bus: ctx.events, nodeId, log: ctx.log });
  const prune = setInterval(() => {
    const t = store.tables.nodeEvents;
    store.db
      .delete(t)
      .where(lt(t.createdAt, Date.now() - KEEP_MS))
      .then(
        () => undefined,
        (err: unknown) => ctx.log.warn({ err }, 'removing old events failed; trying again'),
      );
  }, 60_000);
  prune.unref();
  return {
    stop: async () => {
      clearInterval(prune);
      await bridge.stop();
    },
  };
}
