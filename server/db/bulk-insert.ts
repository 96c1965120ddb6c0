/**
 * Many rows of one table inserted in each database's fast form, for services that write thousands
 * of rows at once (the bulk save of fund requests): on SQLite one cached prepared statement per
 * row (`insert.ts`; the query builder costs tens of microseconds a row, docs/decisions/0003), on
 * PostgreSQL multi-row inserts of up to 200 rows (one round trip each). Both run on the store's
 * connection, so inside a `transaction` they write in it.
 */
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client.js';
import type { DataStore } from './dialect.js';
import { insertRow } from './insert.js';

/** Rows one PostgreSQL statement inserts (about 60 columns for a fund request: under its 65,535 parameters). */
const ROWS_PER_STATEMENT = 200;

/**
 * Inserts `rows` into `table` (a table of `store.tables`), in the order given.
 * @returns the new rows' ids, in the order of `rows`
 */
export async function insertMany<T extends SQLiteTable>(store: DataStore, table: T, rows: Array<T['$inferInsert']>): Promise<number[]> {
  if (!rows.length) return [];
  if (store.dialect === 'sqlite') {
    const sqlite = (store.db as unknown as Db).$client;
    return rows.map((row) => insertRow(sqlite, table, row));
  }
  const id = (getTableColumns(table) as Record<string, SQLiteColumn>).id;
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    // PostgreSQL reads a VALUES list in order, drawing the identities in that order, and returns
    // the rows as inserted: ascending ids confirm the returned rows are in the order given
    const inserted = (await store.db.insert(table).values(part).returning({ id })).map((r) => Number(r.id));
    if (inserted.length !== part.length || inserted.some((v, j) => j > 0 && v <= inserted[j - 1]))
      throw new Error(`Inserting ${part.length} rows into ${getTableName(table)} did not return their ids in order`);
    ids.push(...inserted);
  }
  return ids;
}
