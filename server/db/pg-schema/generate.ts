/**
 * Writes the PostgreSQL schema (`server/db/schema-pg/*.ts`, drizzle pg-core) from the one
 * description of the database, the SQLite schema (`server/db/schema/*.ts`), so a table is
 * described once (docs/decisions/0023-one-schema-description.md). Each SQLite module gives a
 * PostgreSQL module of the same name with the same exports, tables, columns, keys and indexes;
 * columns are mapped by type (below) and by the explicit differences of `./differences.ts`. Every
 * text and JSON column takes its TypeScript type from its SQLite twin, so rows have one type in
 * both dialects. `npm run db:generate` runs it before drizzle-kit writes the migrations;
 * `server/db/schema-parity.test.ts` fails when the committed files differ from what it writes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Column, getTableColumns, is, SQL, StringChunk } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { PG_BIGINT_COLUMNS, PG_NULLS_FIRST_INDEXES, PG_SQL_DEFAULTS } from './differences.js';

/** The repository's root directory. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const sqliteDir = 'server/db/schema';
const pgDir = 'server/db/schema-pg';

/** One module of the SQLite schema: its file name without `.ts` and what it exports. */
export interface SchemaModule {
  name: string;
  exports: Record<string, unknown>;
  /** Its source text: the generated module declares the tables in the same order. */
  source?: string;
}

/** A generated file: its path from the repository root and its text (formatted by {@link formatSource}). */
export interface GeneratedFile {
  path: string;
  source: string;
}

/** The modules `server/db/schema/index.ts` re-exports, in its order, imported. */
export async function loadSqliteSchema(): Promise<SchemaModule[]> {
  const index = readFileSync(join(repoRoot, sqliteDir, 'index.ts'), 'utf8');
  const names = [...index.matchAll(/^export \* from '\.\/([\w-]+)\.js';$/gm)].map((m) => m[1]);
  if (names.length === 0) throw new Error(`${sqliteDir}/index.ts re-exports no module (expected lines like "export * from './users.js';")`);
  return Promise.all(
    names.map(async (name) => ({
      name,
      source: readFileSync(join(repoRoot, sqliteDir, `${name}.ts`), 'utf8'),
      exports: (await import(/* @vite-ignore */ pathToFileURL(join(repoRoot, sqliteDir, `${name}.ts`)).href)) as Record<string, unknown>,
    })),
  );
}

interface TableRef {
  module: string;
  key: string;
}

/** Where a table is declared in its module's source (`export const <key> =`), so the generated module keeps its order. */
function order(m: SchemaModule, key: string): number {
  const at = m.source?.indexOf(`export const ${key} =`) ?? -1;
  return at < 0 ? Number.MAX_SAFE_INTEGER : at;
}

/** A generated module's imports, collected while its tables are written. */
class Imports {
  pgCore = new Set<string>(['pgTable']);
  common = new Set<string>();
  tables = new Map<string, Set<string>>();
  sql = false;
  sqliteTypes = false;

  render(module: string): string {
    const lines: string[] = [];
    if (this.sql) lines.push("import { sql } from 'drizzle-orm';");
    lines.push(`import { ${[...this.pgCore].sort().join(', ')} } from 'drizzle-orm/pg-core';`);
    if (this.sqliteTypes) lines.push(`import type * as s from '../schema/${module}.js';`);
    const common = [...this.common].sort();
    if (this.sqliteTypes) common.unshift('type Data');
    if (common.length) lines.push(`import { ${common.join(', ')} } from './common.js';`);
    for (const [other, keys] of [...this.tables].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`import { ${[...keys].sort().join(', ')} } from './${other}.js';`);
    }
    return lines.join('\n');
  }
}

/** Text of a SQL fragment made only of literal text (a default or an index's `where`); throws on parameters. */
function sqlText(value: SQL, where: string): string {
  return value.queryChunks
    .map((chunk) => {
      if (is(chunk, StringChunk)) return chunk.value.join('');
      throw new Error(`${where}: the SQL has a parameter or a column reference; write it as literal SQL text`);
    })
    .join('');
}

const templateLiteral = (text: string) => `sql\`${text.replace(/[`\\]/g, '\\$&').replace(/\$\{/g, '\\${')}\``;

/** The pg-core builder chain of one column. */
function columnSource(tableName: string, tableKey: string, key: string, col: Column, fk: string | undefined, imports: Imports): string {
  const at = `${tableName}.${col.name}`;
  const name = JSON.stringify(col.name);
  const typeOf = () => {
    imports.sqliteTypes = true;
    return `.$type<Data<typeof s.${tableKey}.${key}>>()`;
  };
  const use = (builder: string) => {
    imports.pgCore.add(builder);
    return builder;
  };
  let chain: string;
  switch (col.columnType) {
    case 'SQLiteInteger':
      chain = PG_BIGINT_COLUMNS.has(at) ? `${use('bigint')}(${name}, { mode: 'number' })` : `${use('integer')}(${name})`;
      break;
    case 'SQLiteBoolean':
      chain = `${use('boolean')}(${name})`;
      break;
    case 'SQLiteReal':
      chain = `${use('doublePrecision')}(${name})`;
      break;
    case 'SQLiteText':
      chain = `${use('text')}(${name})${typeOf()}`;
      break;
    case 'SQLiteTextJson':
      chain = `${use('jsonb')}(${name})${typeOf()}`;
      break;
    default:
      throw new Error(`${at}: no PostgreSQL type for the SQLite column type ${col.columnType} (server/db/pg-schema/generate.ts maps them)`);
  }
  if (PG_BIGINT_COLUMNS.has(at) && col.columnType !== 'SQLiteInteger') throw new Error(`${at} is listed as bigint but is not an integer column`);
  if (col.primary) {
    const autoIncrement = (col as unknown as { autoIncrement?: boolean }).autoIncrement;
    chain += autoIncrement ? '.primaryKey().generatedByDefaultAsIdentity()' : '.primaryKey()';
  } else if (col.notNull) chain += '.notNull()';
  if (col.isUnique) chain += col.uniqueName === `${tableName}_${col.name}_unique` ? '.unique()' : `.unique(${JSON.stringify(col.uniqueName)})`;
  if (col.default !== undefined) {
    if (is(col.default, SQL)) {
      const text = sqlText(col.default, `${at} default`);
      const pg = PG_SQL_DEFAULTS[text];
      if (!pg) throw new Error(`${at}: no PostgreSQL equivalent of the default ${text} (add it to server/db/pg-schema/differences.ts)`);
      imports.common.add(pg);
      chain += `.default(${pg})`;
    } else chain += `.default(${JSON.stringify(col.default)})`;
  }
  if (fk) chain += fk;
  return `${key}: ${chain},`;
}

/** The `pgTable(...)` declaration of one SQLite table. */
function tableSource(table: SQLiteTable, key: string, module: string, refs: Map<SQLiteTable, TableRef>, imports: Imports): string {
  const config = getTableConfig(table);
  const name = config.name;
  if (config.uniqueConstraints.length || config.checks.length) {
    throw new Error(`${name}: table-level unique constraints and checks are not generated; use a unique index, or extend server/db/pg-schema/generate.ts`);
  }
  const columns = Object.entries(getTableColumns(table));
  const keyOf = (col: Column, of: [string, Column][]) => {
    const found = of.find(([, c]) => c.name === col.name);
    if (!found) throw new Error(`${name}: column ${col.name} is not a column of its table`);
    return found[0];
  };

  const fks = new Map<string, string>();
  for (const fk of config.foreignKeys) {
    const ref = fk.reference();
    if (ref.columns.length !== 1 || ref.name) {
      throw new Error(`${name}: only unnamed one-column foreign keys (.references()) are generated, not ${fk.getName()}`);
    }
    const target = refs.get(ref.foreignTable as SQLiteTable);
    if (!target) throw new Error(`${name}: the foreign key ${fk.getName()} points to a table the schema does not export`);
    if (target.module !== module) {
      const keys = imports.tables.get(target.module) ?? new Set<string>();
      keys.add(target.key);
      imports.tables.set(target.module, keys);
    }
    const foreignColumn = keyOf(ref.foreignColumns[0], Object.entries(getTableColumns(ref.foreignTable)));
    const actions = [fk.onDelete && `onDelete: '${fk.onDelete}'`, fk.onUpdate && `onUpdate: '${fk.onUpdate}'`].filter(Boolean);
    fks.set(ref.columns[0].name, `.references(() => ${target.key}.${foreignColumn}${actions.length ? `, { ${actions.join(', ')} }` : ''})`);
  }

  const body = columns.map(([k, col]) => columnSource(name, key, k, col, fks.get(col.name), imports)).join('\n');
  const t = (col: unknown) => {
    if (is(col, SQL)) throw new Error(`${name}: index expressions are not generated; write the index in a hand-written PostgreSQL migration`);
    return `t.${keyOf(col as Column, columns)}`;
  };
  const extras: string[] = [];
  for (const pk of config.primaryKeys) {
    if (pk.name) throw new Error(`${name}: named primary keys are not generated`);
    imports.pgCore.add('primaryKey');
    extras.push(`primaryKey({ columns: [${pk.columns.map(t).join(', ')}] })`);
  }
  for (const index of config.indexes) {
    const builder = index.config.unique ? 'uniqueIndex' : 'index';
    imports.pgCore.add(builder);
    const nullsFirst = PG_NULLS_FIRST_INDEXES.has(index.config.name);
    const on = index.config.columns.map((col) => (nullsFirst && !(col as Column).notNull ? `${t(col)}.asc().nullsFirst()` : t(col)));
    let source = `${builder}(${JSON.stringify(index.config.name)}).on(${on.join(', ')})`;
    if (index.config.where) {
      imports.sql = true;
      source += `.where(${templateLiteral(sqlText(index.config.where, `${index.config.name} where`))})`;
    }
    extras.push(source);
  }
  const extra = extras.length ? `, (t) => [${extras.join(', ')}]` : '';
  return `export const ${key} = pgTable(${JSON.stringify(name)}, {\n${body}\n}${extra});`;
}

const header = (module: string) =>
  [
    '/**',
    ` * Generated from \`${sqliteDir}/${module}.ts\` by \`npm run db:generate\` (server/db/pg-schema/generate.ts):`,
    " * the same tables in drizzle's pg-core. Change the SQLite description (and",
    ' * server/db/pg-schema/differences.ts), not this file.',
    ' */',
  ].join('\n');

/**
 * The PostgreSQL schema modules (one per SQLite module, plus `index.ts`), unformatted. Throws,
 * naming the table or column, on what it cannot map.
 */
export function generatePgSchema(modules: SchemaModule[]): GeneratedFile[] {
  const refs = new Map<SQLiteTable, TableRef>();
  for (const m of modules) {
    for (const [key, value] of Object.entries(m.exports)) if (value instanceof SQLiteTable) refs.set(value, { module: m.name, key });
  }
  const files: GeneratedFile[] = [];
  for (const m of modules) {
    const imports = new Imports();
    const tables = Object.entries(m.exports)
      .filter((e): e is [string, SQLiteTable] => e[1] instanceof SQLiteTable)
      .sort(([a], [b]) => order(m, a) - order(m, b) || a.localeCompare(b))
      .map(([key, table]) => tableSource(table, key, m.name, refs, imports));
    if (tables.length === 0) continue;
    files.push({ path: `${pgDir}/${m.name}.ts`, source: `${header(m.name)}\n${imports.render(m.name)}\n\n${tables.join('\n\n')}\n` });
  }
  const index = files.map((f) => `export * from './${relative(pgDir, f.path).replace(/\.ts$/, '.js')}';`).join('\n');
  files.push({
    path: `${pgDir}/index.ts`,
    source: `/** The whole database schema in the PostgreSQL dialect, generated from \`${sqliteDir}\` (see its modules). */\n${index}\n`,
  });
  return files;
}

/** Formats a TypeScript file's text as the project's biome settings do (`path` from the repository root picks the settings). */
export function formatSource(path: string, source: string): string {
  const result = spawnSync(join(repoRoot, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${path}`], {
    cwd: repoRoot,
    input: source,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`biome could not format ${path}: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** The generated PostgreSQL schema files of the current SQLite description, formatted. */
export async function pgSchemaFiles(): Promise<GeneratedFile[]> {
  return generatePgSchema(await loadSqliteSchema()).map((f) => ({ path: f.path, source: formatSource(f.path, f.source) }));
}
