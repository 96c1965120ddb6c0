/**
 * Copies the rows of one table from the SQLite database of a data directory into its PostgreSQL
 * namesake, in batches, keeping ids. Values are read as drizzle reads them from SQLite (booleans,
 * JSON, numbers) and written as drizzle writes them to PostgreSQL, so the two storage forms are
 * converted by the columns themselves.
 */
import type Database from 'better-sqlite3';
import { getTableColumns, sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { TablePair } from './tables.js';

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 60_000;
/** Rows read from SQLite at a time. */
const READ_ROWS = 2_000;

/** A PostgreSQL database or transaction of node-postgres drizzle. */
type PgWriter = Pick<NodePgDatabase, 'insert' | 'execute'>;

/**
 * Copies every row of `table` (in rowid order) into the open PostgreSQL transaction `tx`.
 * @param onBatch called after each batch with the rows copied so far
 * @returns the number of rows copied
 * @throws Error naming the table and the first id of the batch PostgreSQL refused
 */
export async function copyTable(sqlite: Database.Database, tx: PgWriter, table: TablePair, onBatch?: (rows: number) => void): Promise<number> {
  const columns = getTableColumns(table.sqlite);
  const perInsert = Math.max(1, Math.min(1_000, Math.floor(MAX_PARAMETERS / table.columns.length)));
  const read = sqlite.prepare(`SELECT rowid AS "__rowid", * FROM "${table.name}" WHERE rowid > ? ORDER BY rowid LIMIT ${READ_ROWS}`);
  let last = -Infinity;
  let copied = 0;
  for (;;) {
    const raw = read.all(last) as Array<Record<string, unknown>>;
    if (!raw.length) return copied;
    last = raw[raw.length - 1]!.__rowid as number;
    const rows = raw.map((r) => {
      const row: Record<string, unknown> = {};
      for (const [key, name] of table.columns) {
        const value = r[name];
        row[key] = value === null || value === undefined ? null : columns[key]!.mapFromDriverValue(value);
      }
      return row;
    });
    for (let i = 0; i < rows.length; i += perInsert) {
      const batch = rows.slice(i, i + perInsert);
      try {
        await tx.insert(table.pg).values(batch as never);
      } catch (err) {
        const first = batch[0]?.id ?? `rowid ${raw[i]!.__rowid}`;
        throw new Error(`Copying ${table.name} failed at the batch starting with id ${first}: ${(err as Error).message}`, { cause: err });
      }
    }
    copied += rows.length;
    onBatch?.(copied);
  }
}

/**
 * Moves the identity sequence of a table past its largest id, so rows added later get the next ids.
 * @returns the largest id (0 for an empty table)
 */
export async function resetIdentity(tx: PgWriter, table: TablePair): Promise<number> {
  const res = await tx.execute(
    sql.raw(`SELECT setval(pg_get_serial_sequence('"${table.name}"', 'id'), COALESCE((SELECT max(id) FROM "${table.name}"), 0) + 1, false) - 1 AS max_id`),
  );
  return Number((res.rows[0] as { max_id: string | number }).max_id);
}
