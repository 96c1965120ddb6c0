/**
 * Transactions of dialect-neutral services: `await transaction(ctx, async (tx) => { ... })`.
 * On PostgreSQL, drizzle's transaction on one pooled connection; on SQLite, `BEGIN IMMEDIATE` on
 * the process's connection, one transaction at a time (`server/db/dialect.ts`). A transaction
 * begun inside another (the same context, the same async flow) joins it.
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
  return store.transaction((tx) => openTransaction.run({ store, view: { ...store, db: tx } }, () => fn(tx)));
}
