/**
 * One service code over SQLite and PostgreSQL: the database handle and tables a service takes from
 * its context (`storeOf(ctx)`), typed once.
 *
 * Both dialects are typed as drizzle's SQLite database in its "async" form over the tables of
 * `server/db/schema`: the PostgreSQL schema (`server/db/schema-pg`) has the same tables, columns
 * and TypeScript types per column (`schema-parity.test.ts`), and drizzle's builders share their
 * API, so a service that only awaits builders (no `.run()`, `.all()`, `.get()`, `.prepare`) runs
 * on either. See docs/decisions/0011-postgresql-beside-sqlite.md.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import type { BaseSQLiteDatabase, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client.js';
import * as sqliteSchema from './schema/index.js';

export type Dialect = 'sqlite' | 'postgres';

/** The table objects of the schema, by export name (`tables.fundRequests`, ...). */
export type Tables = { [K in keyof typeof sqliteSchema as (typeof sqliteSchema)[K] extends SQLiteTable ? K : never]: (typeof sqliteSchema)[K] };

/** The database as a dialect-neutral service sees it: await every builder. */
export type NeutralDb = BaseSQLiteDatabase<'async', unknown, typeof sqliteSchema>;

/** The database of a context in the dialect in use. */
export interface DataStore {
  dialect: Dialect;
  db: NeutralDb;
  tables: Tables;
  /**
   * Runs `fn` in a transaction of this database (use `transaction` of `server/db/tx.ts`, which
   * also joins an enclosing one): committed when it resolves, rolled back when it throws.
   */
  transaction<T>(fn: (tx: NeutralDb) => Promise<T>): Promise<T>;
}

const sqliteStores = new WeakMap<object, DataStore>();

/**
 * The store of a context: the one it carries (a PostgreSQL context), else the SQLite database of
 * `ctx.db`, made once per database; inside a `transaction` on that database, the transaction.
 */
export function storeOf(ctx: { db: Db; store?: DataStore }): DataStore {
  const store = baseStoreOf(ctx);
  const open = openTransaction.getStore();
  return open && open.store === store ? open.view : store;
}

/**
 * The transaction open in this async flow (`server/db/tx.ts`): `store` is the database it runs
 * on, `view` the same store whose `db` is the transaction. While one is open, `storeOf` of a
 * context on that database gives the view, so a service called inside the transaction writes in
 * it (on PostgreSQL the pool's other connections would not see its rows, or wait on its locks);
 * `afterCommit` holds what runs once it has committed (`afterCommit` of tx.ts).
 */
export const openTransaction = new AsyncLocalStorage<{ store: DataStore; view: DataStore; afterCommit: Array<() => void> }>();

/** The store of a context outside any transaction. */
export function baseStoreOf(ctx: { db: Db; store?: DataStore }): DataStore {
  if (ctx.store) return ctx.store;
  let store = sqliteStores.get(ctx.db);
  if (!store) {
    store = sqliteStore(ctx.db);
    sqliteStores.set(ctx.db, store);
  }
  return store;
}

/** Tables of the SQLite schema only (the schema module also exports status lists and types). */
function sqliteTables(): Tables {
  return sqliteSchema as unknown as Tables;
}

/**
 * A SQLite store over one better-sqlite3 connection. better-sqlite3 cannot keep a transaction
 * open across an `await`, so a transaction is `BEGIN IMMEDIATE` ... `COMMIT` written by hand,
 * under an async mutex of the database file in this thread: a second transaction of this thread
 * waits for the first instead of running its statements inside it (or blocking the thread on the
 * file's lock while the first cannot finish). Other threads and processes wait on the file's
 * write lock (busy timeout), as before.
 */
export function sqliteStore(db: Db): DataStore {
  const client = db.$client;
  const neutral = db as unknown as NeutralDb;
  return {
    dialect: 'sqlite',
    db: neutral,
    tables: sqliteTables(),
    transaction: async (fn) => {
      const release = await gate(client);
      try {
        client.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(neutral);
          client.exec('COMMIT');
          return result;
        } catch (err) {
          if (client.inTransaction) client.exec('ROLLBACK');
          throw err;
        }
      } finally {
        release();
      }
    },
  };
}

const queues = new Map<string, Promise<void>>();
const memoryKeys = new WeakMap<Database.Database, string>();

/**
 * The queue a connection's transactions wait in: one per database file in this thread, so two
 * connections of one thread on the same file (two contexts) wait for each other without blocking
 * the thread on the file lock; an in-memory database is its own.
 */
function queueKey(client: Database.Database): string {
  if (client.memory || !client.name) {
    let key = memoryKeys.get(client);
    if (!key) memoryKeys.set(client, (key = `:memory:${Math.random()}`));
    return key;
  }
  return client.name;
}

/** Waits for the previous transaction on the connection's file; resolves with the release of this one. */
async function gate(client: Database.Database): Promise<() => void> {
  const key = queueKey(client);
  const before = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = before.then(() => mine);
  queues.set(key, tail);
  await before;
  return () => {
    release();
    // forget a file nobody waits on
    if (queues.get(key) === tail) queues.delete(key);
  };
}

/**
 * A top-level member of a JSON column as SQL, without reading the whole document into the
 * application: `->>` on PostgreSQL (text: `'true'`, `'1'`, the string's text), `json_extract` on
 * SQLite (its JSON type: `1` for true, numbers, text). Compare the answer in JavaScript.
 * @param key a member name of letters, digits and underscores
 */
export function jsonMember(store: DataStore, column: SQLWrapper, key: string): SQL<unknown> {
  if (!/^\w+$/.test(key)) throw new Error(`Not a JSON member name: ${key}`);
  if (store.dialect === 'postgres') return sql`(${column} ->> ${sql.raw(`'${key}'`)})`;
  return sql`json_extract(${column}, ${sql.raw(`'$.${key}'`)})`;
}

/**
 * The rows of `table` that pass `where`, as one JSON array (text) of arrays, each the values of
 * `columns` in that order, sorted by `orderBy`: `[]` when none. A scalar subquery, so that one
 * statement can read several tables' rows in one round trip, and the rows come back as one JSON
 * text each (parsed by `JSON.parse`, not value by value by the driver and the ORM). Booleans come
 * as true/false on PostgreSQL and 1/0 on SQLite; numbers and texts as they are.
 */
export function jsonRows(store: DataStore, columns: SQLWrapper[], table: SQLWrapper, where: SQL | undefined, orderBy: SQLWrapper): SQL<string> {
  const values = sql.join(columns, sql`, `);
  if (store.dialect === 'postgres')
    return sql<string>`(select coalesce(json_agg(json_build_array(${values}) order by ${orderBy}), '[]')::text from ${table} where ${where})`;
  return sql<string>`(select json_group_array(json_array(${values}) order by ${orderBy}) from ${table} where ${where})`;
}

/**
 * The rows of a raw SQL query as the driver gives them, one object a row keyed by the column
 * names, with no mapping by the ORM: `all` on SQLite, `execute` on PostgreSQL (inside a
 * `transaction`, on it). Values are the database's own: on PostgreSQL `bigint` (a `count(*)`)
 * comes as text, booleans as true/false; on SQLite booleans as 1/0.
 */
export async function rawRows<R extends Record<string, unknown>>(store: DataStore, query: SQL): Promise<R[]> {
  if (store.dialect === 'postgres') return ((await (store.db as unknown as PgExecute).execute(query)) as { rows: R[] }).rows;
  return (await store.db.all(query)) as R[];
}

/** The raw query runner of a PostgreSQL drizzle database. */
interface PgExecute {
  execute(query: SQL): Promise<{ rows: unknown[] }>;
}

/** A query prepared once (`prepared`), run with the values of its placeholders. */
export interface Prepared<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
}

/** A drizzle query that can be prepared (a select, on either database) and awaited for its rows. */
export type Preparable<T> = PromiseLike<T> & { prepare(): unknown };

/**
 * Prepares a drizzle query once, to run many times with `sql.placeholder` values: its SQL is built
 * once, SQLite compiles it once, PostgreSQL parses and plans it once per connection (a statement
 * named `name`, unique in the process). It runs on the database's own connections, never a
 * transaction's: `runPrepared` uses it outside transactions only.
 */
function prepared<T>(query: Preparable<T>, name: string): Prepared<T> {
  // PostgreSQL's builders take the statement's name; SQLite's take none and ignore it
  return (query as unknown as { prepare(name: string): Prepared<T> }).prepare(name);
}

const preparedQueries = new WeakMap<DataStore, Map<string, Prepared<unknown>>>();

/**
 * Runs the query `build` makes, with `values` for its placeholders: prepared once per database
 * under `name` (see `prepared`), or, inside a transaction, built on the transaction and run there
 * unnamed. For the statements every request or page runs, whose SQL text is always the same.
 * @param name unique in the process for this `build`
 */
export function runPrepared<T>(
  ctx: { db: Db; store?: DataStore },
  name: string,
  build: (store: DataStore) => Preparable<T>,
  values: Record<string, unknown>,
): Promise<T> {
  const store = storeOf(ctx);
  const base = baseStoreOf(ctx);
  if (store !== base) return (build(store) as unknown as { prepare(): Prepared<T> }).prepare().execute(values);
  let byName = preparedQueries.get(base);
  if (!byName) preparedQueries.set(base, (byName = new Map()));
  let query = byName.get(name) as Prepared<T> | undefined;
  if (!query) {
    query = prepared(build(base), name);
    byName.set(name, query);
  }
  return query.execute(values);
}

/**
 * `column` is one of the ids given as the placeholder `name` (a prepared query; its value from
 * `idsValue`): a JSON array read by `json_each` on SQLite, an integer array on PostgreSQL. One
 * parameter whatever the number of ids, so the SQL text is the same for 1 id or 500 and
 * PostgreSQL parses one parameter instead of one per id.
 */
export function anyOfPlaceholder(store: DataStore, column: SQLWrapper, name = 'ids'): SQL {
  if (store.dialect === 'postgres') return sql`${column} = any(${sql.placeholder(name)}::int[])`;
  return sql`${column} in (select value from json_each(${sql.placeholder(name)}))`;
}

/** The value of an `anyOfPlaceholder` placeholder: an integer array on PostgreSQL, a JSON array on SQLite. */
export function idsValue(store: DataStore, ids: readonly number[]): unknown {
  return store.dialect === 'postgres' ? ids : JSON.stringify(ids);
}
