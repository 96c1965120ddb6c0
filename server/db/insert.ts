/**
 * Fast inserts for hot paths (bulk uploads, standardized rows): maps a drizzle table's property
 * names to columns once, converts values with the columns' own driver mapping (booleans, JSON),
 * and reuses one prepared statement per table and set of given columns. Runs on the raw
 * better-sqlite3 connection, so inside `ctx.db.transaction(...)` it joins that transaction.
 */
import type Database from 'better-sqlite3';
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';

const columnCache = new WeakMap<Table, Record<string, Column>>();
const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function columnsOf(table: Table): Record<string, Column> {
  let cols = columnCache.get(table);
  if (!cols) columnCache.set(table, (cols = getTableColumns(table)));
  return cols;
}

/**
 * Inserts one row given by property names (undefined values are left to the column default).
 * @returns the new row id
 */
export function insertRow<T extends Table>(sqlite: Database.Database, table: T, values: Partial<T['$inferInsert']>): number {
  const cols = columnsOf(table);
  const keys = Object.keys(values).filter((k) => (values as Record<string, unknown>)[k] !== undefined && cols[k]);
  const cacheKey = `${getTableName(table)}|${keys.join(',')}`;
  let statements = statementCache.get(sqlite);
  if (!statements) statementCache.set(sqlite, (statements = new Map()));
  let stmt = statements.get(cacheKey);
  if (!stmt) {
    const names = keys.map((k) => `"${cols[k].name}"`).join(', ');
    stmt = sqlite.prepare(
      keys.length
        ? `INSERT INTO "${getTableName(table)}" (${names}) VALUES (${keys.map(() => '?').join(', ')})`
        : `INSERT INTO "${getTableName(table)}" DEFAULT VALUES`,
    );
    statements.set(cacheKey, stmt);
  }
  const params = keys.map((k) => {
    const v = (values as Record<string, unknown>)[k];
    return v === null ? null : (cols[k].mapToDriverValue(v) as unknown);
  });
  return Number(stmt.run(...params).lastInsertRowid);
}
