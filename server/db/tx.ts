/**
 * Transactions of dialect-neutral services: `await transaction(ctx, async (tx) => { ... })`.
 * On PostgreSQL, drizzle's transaction on one pooled connection; on SQLite, `BEGIN IMMEDIATE` on
 * the process's connection, one transaction at a time (`server/db/dialect.ts`). A transaction
 * begun inside another (the same context, the same async flow) joins it; `afterCommit` defers work
 * to the commit of the outermost one.
 */
import type { Db } from './client.js';
import { baseStoreOf, openTransaction, type DataStore, type NeutralDb } from './dialect.js';

/**
 * Runs `fn` in a transaction of the context's database. Inside it, `storeOf` of any context on the
 * same database gives the transaction, so services called from `fn` write in it too.
 * @returns what `fn` resolves to, once committed
 * @throws what `fn` throws, after rolling back everything it wrote
 */
export async function transaction<T>(ctx: { db: Db; store?: DataStore }, fn: (tx: NeutralDb) => Promise<T>): Promise<T> {
  const store = baseStoreOf(ctx);
  const outer = openTransaction.getStore();
  if (outer && outer.store === store) return fn(outer.view.db);
  const committed: Array<() => void> = [];
  const result = await store.transaction((tx) => openTransaction.run({ store, view: { ...store, db: tx }, afterCommit: committed }, () => fn(tx)));
  for (const run of committed) run();
  return result;
}

/**
 * Runs `fn` once the transaction open on the context's database in this async flow has committed
 * (never, when it rolls back), or at once when none is open. For what others must not see before
 * the rows it tells of are there: events to sockets and other nodes, caches.
 */
export function afterCommit(ctx: { db: Db; store?: DataStore }, fn: () => void): void {
  const open = openTransaction.getStore();
  if (open && open.store === baseStoreOf(ctx)) open.afterCommit.push(fn);
  else fn();
}
