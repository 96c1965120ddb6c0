/**
 * The PostgreSQL schema (`server/db/schema-pg`) is generated from the one description of the
 * database, the SQLite schema (`server/db/schema`), by `server/db/pg-schema/generate.ts`. The
 * committed files must be what the generator writes now (a table changed without `npm run
 * db:generate` fails here, naming the file), and the two schemas must describe the same database:
 * the same tables, columns, value types, nullability, defaults, primary and foreign keys, unique
 * constraints and indexes, so that one service code runs on either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InferInsertModel, InferSelectModel } from 'drizzle-orm';
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core';
import { index, integer, getTableConfig as sqliteConfig, SQLiteTable, blob as sqliteBlob, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as pg from './schema-pg/index.js';
import { PG_BIGINT_COLUMNS } from './pg-schema/differences.js';
import { generatePgSchema, pgSchemaFiles, repoRoot } from './pg-schema/generate.js';
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

describe('PostgreSQL schema generated from the SQLite description', () => {
  it('is committed as the generator writes it now', async () => {
    const files = await pgSchemaFiles();
    for (const file of files) {
      expect(readFileSync(join(repoRoot, file.path), 'utf8'), `${file.path} differs from its generated text: run npm run db:generate`).toBe(file.source);
    }
    const written = new Set(files.map((f) => f.path.split('/').pop()));
    const others = readdirSync(join(repoRoot, 'server/db/schema-pg')).filter((f) => !written.has(f) && f !== 'common.ts');
    expect(others, 'files of server/db/schema-pg the generator no longer writes').toEqual([]);
  });

  it('lists as bigint only integer columns that exist', () => {
    const columns = new Set(sqliteTables().flatMap((t) => sqliteConfig(t).columns.map((c) => `${sqliteConfig(t).name}.${c.name}`)));
    expect([...PG_BIGINT_COLUMNS].filter((c) => !columns.has(c))).toEqual([]);
    for (const name of PG_BIGINT_COLUMNS) expect(pgColumnType(name)).toBe('PgBigInt53');
  });

  it('writes a new SQLite table as its PostgreSQL twin, foreign keys and indexes included', () => {
    const parent = sqliteTable('parents', { id: integer('id').primaryKey({ autoIncrement: true }) });
    const child = sqliteTable(
      'children',
      {
        id: integer('id').primaryKey({ autoIncrement: true }),
        parentId: integer('parent_id').references(() => parent.id, { onDelete: 'cascade' }),
        label: text('label').notNull().default('x'),
      },
      (t) => [index('children_parent_idx').on(t.parentId)],
    );
    const [file] = generatePgSchema([{ name: 'family', exports: { child, parent } }]);
    expect(file.path).toBe('server/db/schema-pg/family.ts');
    expect(file.source).toContain('export const child = pgTable("children"');
    expect(file.source).toContain('parentId: integer("parent_id").references(() => parent.id, { onDelete: \'cascade\' }),');
    expect(file.source).toContain('label: text("label").$type<Data<typeof s.child.label>>().notNull().default("x"),');
    expect(file.source).toContain('(t) => [index("children_parent_idx").on(t.parentId)]');
  });

  it('refuses a column type without a PostgreSQL mapping, naming the column', () => {
    const photos = sqliteTable('photos', { id: integer('id').primaryKey(), bytes: sqliteBlob('bytes') });
    expect(() => generatePgSchema([{ name: 'photos', exports: { photos } }])).toThrow(
      /photos\.bytes: no PostgreSQL type for the SQLite column type SQLiteBlob/,
    );
  });
});

function pgColumnType(qualified: string): string | undefined {
  const [table, column] = qualified.split('.');
  const t = pgTables().find((p) => pgConfig(p).name === table);
  return t && pgConfig(t).columns.find((c) => c.name === column)?.columnType;
}
