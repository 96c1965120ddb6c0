/**
 * The PostgreSQL schema (`server/db/schema-pg`) must describe the same database as the SQLite one
 * (`server/db/schema`): the same tables, columns, value types, nullability, defaults, primary and
 * foreign keys, unique constraints and indexes, so that one service code runs on either. A table
 * or column added to one schema only fails here, naming it.
 */
import type { InferInsertModel, InferSelectModel } from 'drizzle-orm';
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as pg from './schema-pg/index.js';
import * as sqlite from './schema/index.js';

/** Whether each type is assignable to the other (the same row shape, optional columns alike). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SqliteTables = { [K in keyof typeof sqlite as (typeof sqlite)[K] extends SQLiteTable ? K : never]: (typeof sqlite)[K] };
type PgTables = typeof pg;
/**
 * Compile-time check: each table of both schemas reads and writes rows of the same TypeScript type
 * in both dialects (a table missing from one schema is named by the tests below).
 */
type RowTypesMatch = {
  [K in keyof SqliteTables & keyof PgTables]: PgTables[K] extends PgTable
    ? [Same<InferSelectModel<SqliteTables[K]>, InferSelectModel<PgTables[K]>>, Same<InferInsertModel<SqliteTables[K]>, InferInsertModel<PgTables[K]>>]
    : 'not a table in schema-pg';
};
const rowTypesMatch: { [K in keyof RowTypesMatch]: [true, true] } = {} as RowTypesMatch;
void rowTypesMatch;

interface ColumnShape {
  type: string;
  notNull: boolean;
  primaryKey: boolean;
  unique: boolean;
  /** A default value or a generated id. */
  default: boolean;
}
interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKeys: string[];
  foreignKeys: string[];
  indexes: string[];
}

const sqliteTables = () => (Object.values(sqlite) as unknown[]).filter((v): v is SQLiteTable => v instanceof SQLiteTable);
const pgTables = () => (Object.values(pg) as unknown[]).filter((v): v is PgTable => v instanceof PgTable);

const names = (cols: Array<{ name?: string } | unknown>) => cols.map((c) => (c as { name?: string }).name ?? '(expression)').join(', ');

function sqliteShape(table: SQLiteTable): TableShape {
  const c = sqliteConfig(table);
  return {
    columns: Object.fromEntries(
      c.columns.map((col) => [
        col.name,
        {
          type: col.dataType,
          notNull: col.notNull,
          primaryKey: col.primary,
          unique: col.isUnique,
          default: col.hasDefault || (col.primary && col.columnType === 'SQLiteInteger' && (col as unknown as { autoIncrement: boolean }).autoIncrement),
        },
      ]),
    ),
    primaryKeys: c.primaryKeys.map((pk) => names(pk.columns)).sort(),
    foreignKeys: c.foreignKeys
      .map((fk) => {
        const r = fk.reference();
        return `${names(r.columns)} -> ${sqliteConfig(r.foreignTable).name}(${names(r.foreignColumns)}) on delete ${fk.onDelete ?? 'no action'}`;
      })
      .sort(),
    indexes: c.indexes.map((i) => `${i.config.name}${i.config.unique ? ' unique' : ''} (${names(i.config.columns)})`).sort(),
  };
}

function pgShape(table: PgTable): TableShape {
  const c = pgConfig(table);
  return {
    columns: Object.fromEntries(
      c.columns.map((col) => [
        col.name,
        { type: col.dataType, notNull: col.notNull, primaryKey: col.primary, unique: col.isUnique, default: col.hasDefault || !!col.generatedIdentity },
      ]),
    ),
    primaryKeys: c.primaryKeys.map((pk) => names(pk.columns)).sort(),
    foreignKeys: c.foreignKeys
      .map((fk) => {
        const r = fk.reference();
        return `${names(r.columns)} -> ${pgConfig(r.foreignTable).name}(${names(r.foreignColumns)}) on delete ${fk.onDelete ?? 'no action'}`;
      })
      .sort(),
    indexes: c.indexes.map((i) => `${i.config.name}${i.config.unique ? ' unique' : ''} (${names(i.config.columns)})`).sort(),
  };
}

describe('PostgreSQL schema beside the SQLite schema', () => {
  const sqliteByName = new Map(sqliteTables().map((t) => [sqliteConfig(t).name, t]));
  const pgByName = new Map(pgTables().map((t) => [pgConfig(t).name, t]));

  it('has the same tables', () => {
    const missing = [...sqliteByName.keys()].filter((n) => !pgByName.has(n)).sort();
    const extra = [...pgByName.keys()].filter((n) => !sqliteByName.has(n)).sort();
    expect({ 'tables missing in schema-pg': missing, 'tables only in schema-pg': extra }).toEqual({
      'tables missing in schema-pg': [],
      'tables only in schema-pg': [],
    });
    expect(sqliteByName.size).toBeGreaterThan(20);
  });

  for (const [name, table] of sqliteByName) {
    it(`defines ${name} alike`, () => {
      const twin = pgByName.get(name);
      if (!twin) throw new Error(`Table ${name} is in server/db/schema but not in server/db/schema-pg`);
      expect(pgShape(twin)).toEqual(sqliteShape(table));
    });
  }
});
