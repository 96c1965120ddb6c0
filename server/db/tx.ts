/**
 * Transactions of dialect-neutral services: `await transaction(ctx, async (tx) => { ... })`.
 * On PostgreSQL, drizzle's transaction on one pooled connection; on SQLite, `BEGIN IMMEDIATE` on
 * the process's connection, one transaction at a time (`server/db/dialect.ts`). A transaction
 * begun inside another (the same context, the same async flow) joins it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './client.js';
import { storeOf, type DataStore, type NeutralDb } from './dialect.js';

const open = new AsyncLocalStorage<{ store: DataStore; tx: NeutralDb }>();

/**
 * Runs `fn` in a transaction of the context's database.
 * @returns what `fn` resolves to, once committed
 * @throws what `fn` throws, after rolling back everything it wrote
 */
export async function transaction<T>(ctx: { db: Db; store?: DataStore }, fn: (tx: NeutralDb) => Promise<T>): Promise<T> {
  const store = storeOf(ctx);
  const outer = open.getStore();
  if (outer && outer.store === store) return fn(outer.tx);
  return store.transaction((tx) => open.run({ store, tx }, () => fn(tx)));
}
