/**
 * The data version the listing cache keys its pages on (listing-cache.ts), one form per database.
 * Any committed write moves it, of this process or another; reads do not.
 *
 * SQLite: the `listing_version` counter (migration 0014), which triggers move on every insert,
 * update and delete of a table the listings read, in the writing transaction, whatever the
 * connection or process (the CLI on the same data directory, a job thread). Writes the listings do
 * not read leave it alone: standardized rows, job lease renewals, logs, events, node heartbeats,
 * sign-in tokens, the trail and the audit log, so cached pages stay valid while the pipeline
 * works (before, any commit of any table moved the version, and during an import every page was
 * computed again). data-version.test.ts checks that every other table has the triggers.
 *
 * PostgreSQL: the current snapshot, `pg_current_snapshot()` (`xmin:xmax:xip…`). Its numbers are
 * transaction ids, which only transactions that write are given: a write started or ended by any
 * node (any connection of the cluster) changes it, so a page cached at one snapshot is never
 * answered after another node's commit, with no notification to wait for. Reads leave it as it is.
 * One query per listing request, answered by the database without touching a table.
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { baseStoreOf, openTransaction } from '../../db/dialect.js';

const versionStatements = new WeakMap<AppContext, { get(): unknown }>();

/**
 * The current data version of the context's database: an opaque string, equal for two reads with
 * no write committed (or begun) between them.
 * @returns the version; on PostgreSQL read outside any open transaction, on the context's pool
 */
export async function dataVersion(ctx: AppContext): Promise<string> {
  const store = baseStoreOf(ctx);
  if (store.dialect === 'postgres') {
    const pgDb = store.db as unknown as { execute(query: ReturnType<typeof sql>): Promise<{ rows: Array<{ v: string }> }> };
    const { rows } = await pgDb.execute(sql`select pg_current_snapshot()::text as v`);
    return `pg:${rows[0]?.v}`;
  }
  let stmt = versionStatements.get(ctx);
  if (!stmt) {
    stmt = ctx.sqlite.prepare('SELECT version FROM listing_version WHERE id = 1').pluck();
    versionStatements.set(ctx, stmt);
  }
  return `sqlite:${stmt.get()}`;
}

/**
 * Whether a transaction is open on the context's database in this flow (its rows read may yet be
 * rolled back, leaving the version where it is): on SQLite the connection's, on PostgreSQL one
 * opened by `transaction()` (server/db/tx.ts) in this async flow.
 */
export function inOpenTransaction(ctx: AppContext): boolean {
  const store = baseStoreOf(ctx);
  if (store.dialect === 'sqlite') return ctx.sqlite.inTransaction;
  return openTransaction.getStore()?.store === store;
}
