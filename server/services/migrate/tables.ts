/**
 * The tables an install moves from SQLite to PostgreSQL, parents before children: each table of
 * `server/db/schema` paired with its namesake of `server/db/schema-pg` (the same names, columns
 * and TypeScript types: schema-parity.test.ts), ordered by their foreign keys.
 */
import { getTableColumns, is } from 'drizzle-orm';
import { getTableConfig as pgTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as pgSchema from '../../db/schema-pg/index.js';
import * as sqliteSchema from '../../db/schema/index.js';

/**
 * Tables not moved: the running processes of the source install (as a restore forgets them), and
 * the scorecards' cache, which the target's triggers mark stale as the delivery and chase events
 * arrive and its refresher writes again from them (docs/decisions/0020).
 */
export const NOT_MOVED = new Set(['nodes', 'node_events', 'scorecard_facts', 'scorecard_tallies']);

export interface TablePair {
  /** SQL name of the table. */
  name: string;
  sqlite: SQLiteTable;
  pg: PgTable;
  /** Columns by property name: `[property, SQL column name]`. */
  columns: Array<[string, string]>;
  /** Whether the table has an identity column `id` whose sequence must follow the copied ids. */
  identity: boolean;
}

/**
 * Every table of both schemas, parents before children (a table referring to itself comes once;
 * its rows are copied in rowid order, so a row's parent, made before it, comes first).
 * @throws Error when a table is in one schema only or the foreign keys form a cycle
 */
export function tablesInOrder(): TablePair[] {
  const sqliteTables = new Map<string, SQLiteTable>(
    (Object.values(sqliteSchema) as unknown[]).filter((t): t is SQLiteTable => is(t, SQLiteTable)).map((t) => [sqliteTableConfig(t).name, t]),
  );
  const pgTables = new Map<string, PgTable>(
    (Object.values(pgSchema) as unknown[]).filter((t): t is PgTable => is(t, PgTable)).map((t) => [pgTableConfig(t).name, t]),
  );
  for (const name of new Set([...sqliteTables.keys(), ...pgTables.keys()]))
    if (!sqliteTables.has(name) || !pgTables.has(name)) throw new Error(`The table ${name} is in one database schema only`);
  const parents = new Map<string, Set<string>>();
  for (const [name, t] of pgTables) {
    const refs = pgTableConfig(t).foreignKeys.map((fk) => pgTableConfig(fk.reference().foreignTable).name);
    parents.set(name, new Set(refs.filter((r) => r !== name)));
  }
  const ordered: string[] = [];
  const done = new Set<string>();
  const visit = (name: string, path: string[]) => {
    if (done.has(name)) return;
    if (path.includes(name)) throw new Error(`The foreign keys of ${[...path, name].join(' -> ')} form a cycle`);
    for (const p of [...(parents.get(name) ?? [])].sort()) visit(p, [...path, name]);
    done.add(name);
    ordered.push(name);
  };
  for (const name of [...pgTables.keys()].sort()) visit(name, []);
  return ordered.map((name) => {
    const sqlite = sqliteTables.get(name)!;
    const pg = pgTables.get(name)!;
    const columns = Object.entries(getTableColumns(sqlite)).map(([key, col]) => [key, col.name] as [string, string]);
    const id = (getTableColumns(pg) as Record<string, { generatedIdentity?: unknown }>).id;
    return { name, sqlite, pg, columns, identity: Boolean(id?.generatedIdentity) };
  });
}
