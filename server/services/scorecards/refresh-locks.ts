/**
 * The rows of a scorecard cache table (`scorecard_facts`, `scorecard_tallies`) that a refresher may
 * write back in its transaction. Writers mark these rows stale from triggers, row by row in their
 * own order; a refresher that waited for one of them while holding another could deadlock with
 * such a writer on PostgreSQL. So there it locks the rows first with `FOR UPDATE SKIP LOCKED`,
 * never waits, and leaves the rows a writer holds stale for a later batch. SQLite runs one write
 * transaction at a time: every row may be written.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { rawRows } from './facts.js';

/** A row's key values joined into one text. */
export const rowKey = (values: readonly unknown[]): string => values.map(String).join('\u0000');

/**
 * Locks, inside the open transaction, the rows of `table` with the given keys that no other
 * transaction holds.
 * @param columns the key columns, e.g. ['fund_request_id']
 * @param keys each row's values of those columns
 * @returns the keys locked (`rowKey`), or null on SQLite (every row may be written)
 */
export async function lockRowsForRefresh(
  ctx: AppContext,
  table: 'scorecard_facts' | 'scorecard_tallies',
  columns: readonly string[],
  keys: readonly (readonly unknown[])[],
): Promise<Set<string> | null> {
  const store = storeOf(ctx);
  if (store.dialect !== 'postgres') return null;
  if (!keys.length) return new Set();
  const cols = sql.raw(columns.join(', '));
  const tuples = sql.join(
    keys.map(
      (k) =>
        sql`(${sql.join(
          k.map((v) => sql`${v}`),
          sql`, `,
        )})`,
    ),
    sql`, `,
  );
  const rows = await rawRows<Record<string, unknown>>(
    store,
    sql`select ${cols} from ${sql.raw(table)} where (${cols}) in (${tuples}) order by ${cols} for update skip locked`,
  );
  return new Set(rows.map((r) => rowKey(columns.map((c) => r[c]))));
}
