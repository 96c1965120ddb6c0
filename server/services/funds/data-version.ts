/**
 * The data version the listing cache keys its pages on (listing-cache.ts), one form per database.
 *
 * SQLite: `PRAGMA data_version` (moves when another connection - the CLI on the same data
 * directory, a worker thread - commits a write) with this connection's `total_changes()` (moves on
 * every row this connection inserts, updates or deletes, also when rolled back). Reads move neither.
 *
 * PostgreSQL: none yet (null): writes of other nodes are not heard of until the data-version
 * notifications are wired (docs/decisions/0011), so nothing may be served from a cache there.
 */
import type { AppContext } from '../../context.js';
import { baseStoreOf } from '../../db/dialect.js';

const versionStatements = new WeakMap<AppContext, { data: { get(): unknown }; changes: { get(): unknown } }>();

/** The current data version of the context's database, or null when it has none (PostgreSQL: do not cache). */
export function dataVersion(ctx: AppContext): string | null {
  if (baseStoreOf(ctx).dialect === 'postgres') return null;
  let stmts = versionStatements.get(ctx);
  if (!stmts) {
    stmts = { data: ctx.sqlite.prepare('PRAGMA data_version').pluck(), changes: ctx.sqlite.prepare('SELECT total_changes()').pluck() };
    versionStatements.set(ctx, stmts);
  }
  return `${stmts.data.get()}:${stmts.changes.get()}`;
}

/**
 * Whether a transaction is open on the context's SQLite connection (its rows read may yet be
 * rolled back, leaving the version where it is); false on PostgreSQL, where nothing is cached.
 */
export function inOpenTransaction(ctx: AppContext): boolean {
  return baseStoreOf(ctx).dialect === 'sqlite' && ctx.sqlite.inTransaction;
}
