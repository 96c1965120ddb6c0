import { asc, eq } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { getTableConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { migrationsPgDir } from '../paths.js';
import { searchCondition } from '../services/funds/listing-search.js';
import { insertFund } from '../testing/fund-factory.js';
import { createTestContext, type TestContext } from '../testing/context.js';
import { SchemaTooNewError } from './client.js';
import { openPgDb, type OpenPgResult } from './client-pg.js';
import { createPgTestDatabase, describePg } from '../testing/dialects.js';
import { fundSearchCondition } from './pg/fund-search.js';
import type { FrequentWords } from './search-words.js';
import * as pgSchema from './schema-pg/index.js';
import { fundCodes, fundRequests } from './schema/index.js';

const migrations = readMigrationFiles({ migrationsFolder: migrationsPgDir() });

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

describePg('PostgreSQL database: migrations', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  const opened: OpenPgResult[] = [];
  const open = async () => {
    const r = await openPgDb(database.url, { max: 2 });
    opened.push(r);
    return r;
  };
  beforeEach(async () => {
    database = await createPgTestDatabase();
  });
  afterEach(async () => {
    for (const r of opened.splice(0)) await r.pool.end();
    await database.drop();
  });

  it('creates every table of the schema in an empty database, with the search indexes and the append-only audit log', async () => {
    const first = await open();
    expect(first).toMatchObject({ applied: migrations.length, schemaVersion: migrations.length });
    expect(migrations.length).toBeGreaterThanOrEqual(2);
    const tables = await query<{ table_name: string }>(
      database.url,
      "select table_name from information_schema.tables where table_schema = 'public' order by 1",
    );
    const expected = Object.values(pgSchema)
      .map((t) => getTableConfig(t).name)
      .concat('__drizzle_migrations')
      .sort();
    expect(tables.map((t) => t.table_name).sort()).toEqual(expected);
    // the migrations build what schema-pg describes: every column, its nullability and default
    const columns = await query<{ table_name: string; column_name: string; is_nullable: string; has_default: boolean }>(
      database.url,
      "select table_name, column_name, is_nullable, (column_default is not null or is_identity = 'YES') as has_default from information_schema.columns where table_schema = 'public' and table_name <> '__drizzle_migrations'",
    );
    const inDatabase = columns
      .map((c) => `${c.table_name}.${c.column_name}${c.is_nullable === 'NO' ? ' not null' : ''}${c.has_default ? ' default' : ''}`)
      .sort();
    const inSchema = Object.values(pgSchema)
      .flatMap((t) => {
        const c = getTableConfig(t);
        return c.columns.map((col) => `${c.name}.${col.name}${col.notNull ? ' not null' : ''}${col.hasDefault || col.generatedIdentity ? ' default' : ''}`);
      })
      .sort();
    expect(inDatabase).toEqual(inSchema);
    const indexes = await query<{ indexname: string }>(database.url, "select indexname from pg_indexes where indexdef like '%gin_trgm_ops%' order by 1");
    expect(indexes.map((i) => i.indexname)).toEqual([
      'fund_codes_code_trgm_idx',
      'fund_requests_client_trgm_idx',
      'fund_requests_name_trgm_idx',
      'fund_requests_search_idx',
    ]);
    // the status filter and the text in one index (btree_gin): a filtered search asks it for both
    const [search] = await query<{ indexdef: string }>(database.url, "select indexdef from pg_indexes where indexname = 'fund_requests_search_idx'");
    expect(search!.indexdef).toContain('USING gin (status, name gin_trgm_ops, client gin_trgm_ops)');
    await query(database.url, "insert into audit_log (at, action, details, prev_hash, hash) values ('2026-01-01', 'sign-in', '{}', 'x', 'h1')");
    await expect(query(database.url, "update audit_log set action = 'other'")).rejects.toThrow('the audit log is append-only');
    await expect(query(database.url, 'delete from audit_log')).rejects.toThrow('the audit log is append-only');
    // a restart finds nothing to do
    expect(await open()).toMatchObject({ applied: 0, schemaVersion: migrations.length });
  });

  it('applies the migrations once when several nodes start at the same time', async () => {
    const starts = await Promise.all([open(), open(), open()]);
    expect(starts.map((s) => s.applied).sort()).toEqual([0, 0, migrations.length]);
    expect(starts.every((s) => s.schemaVersion === migrations.length)).toBe(true);
    const rows = await query<{ n: string }>(database.url, 'select count(*) as n from "__drizzle_migrations"');
    expect(Number(rows[0]?.n)).toBe(migrations.length);
  });

  it('refuses a database upgraded by a newer Fund Audit, naming both schema versions', async () => {
    await (await open()).pool.end();
    opened.length = 0;
    await query(database.url, 'insert into "__drizzle_migrations" (hash, created_at) values ($1, $2)', ['future', Date.now() + 10 ** 12]);
    const err = await openPgDb(database.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect((err as Error).message).toContain(`has schema version ${migrations.length + 1}, but Fund Audit`);
    expect((err as Error).message).toContain(`knows schema versions up to ${migrations.length}`);
  });
});

describePg('PostgreSQL database: fund search', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  let pgDb: OpenPgResult;
  let sqlite: TestContext;
  const funds = [
    { name: 'Atlas Equity', client: 'Orion Capital', fundCode: 'FC-100', alternateCodes: [] },
    { name: 'Boreal Bond 50% Hedged', client: 'Helix Partners', fundCode: 'FC-101', alternateCodes: ['ALT1x'] },
    { name: 'Cygnus_Growth', client: 'Atlas Asset Management', fundCode: 'FC-102', alternateCodes: [] },
    { name: 'Draco "Prime" Income', client: 'Orion Capital', fundCode: 'FC-103', alternateCodes: ['ALT3x'] },
    { name: 'Équité Europe', client: 'Helix Partners', fundCode: 'FC-104', alternateCodes: [] },
    { name: 'équité monde', client: 'Atlas Asset Management', fundCode: 'FC-105', alternateCodes: ['ALT5x'] },
    { name: 'Vega Equity Income', client: 'Orion Capital', fundCode: 'LU0123456789', alternateCodes: [] },
  ];

  beforeAll(async () => {
    database = await createPgTestDatabase();
    pgDb = await openPgDb(database.url, { max: 2 });
    sqlite = await createTestContext({ seedDemoData: false });
    for (const f of funds) {
      await insertFund(sqlite, { ...f, status: 'Approved' });
      const [row] = await pgDb.db.insert(pgSchema.fundRequests).values({ name: f.name, client: f.client, status: 'Approved' }).returning();
      const codes = [f.fundCode, ...f.alternateCodes].map((code, i) => ({ fundRequestId: row!.id, code, main: i === 0 }));
      await pgDb.db.insert(pgSchema.fundCodes).values(codes);
    }
  });
  afterAll(async () => {
    await sqlite?.dispose();
    await pgDb?.pool.end();
    await database?.drop();
  });

  const onPg = async (text: string, frequent?: FrequentWords) =>
    (
      await pgDb.db
        .select({ name: pgSchema.fundRequests.name })
        .from(pgSchema.fundRequests)
        .where(fundSearchCondition(text, frequent))
        .orderBy(asc(pgSchema.fundRequests.name))
    ).map((r) => r.name);
  const onSqlite = async (text: string) =>
    sqlite.db
      .select({ name: fundRequests.name })
      .from(fundRequests)
      .where(await searchCondition(sqlite, text))
      .all()
      .map((r) => r.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  it('finds funds by a fragment of name, client or code as the SQLite search does', async () => {
    const cases: Record<string, string[]> = {
      equity: ['Atlas Equity', 'Vega Equity Income'],
      ORION: ['Atlas Equity', 'Draco "Prime" Income', 'Vega Equity Income'],
      'fc-10': ['Atlas Equity', 'Boreal Bond 50% Hedged', 'Cygnus_Growth', 'Draco "Prime" Income', 'Équité Europe', 'équité monde'],
      alt3: ['Draco "Prime" Income'],
      '0123456': ['Vega Equity Income'],
      '50%': ['Boreal Bond 50% Hedged'],
      _gro: ['Cygnus_Growth'],
      '"Prime"': ['Draco "Prime" Income'],
      équ: ['équité monde'],
      'té Eu': ['Équité Europe'],
      zz: [],
      nowhere: [],
      'las Equity': ['Atlas Equity'],
      'Vega Equity': ['Vega Equity Income'],
      'equity income': ['Vega Equity Income'],
      'Equity  Income': [],
      'orion capital': ['Atlas Equity', 'Draco "Prime" Income', 'Vega Equity Income'],
      'a Equity': ['Vega Equity Income'],
    };
    // words of many rows are left out of the index lookups: the same funds are found
    const frequent: FrequentWords = { name: new Set(['equity', 'income', 'équité']), client: new Set(['orion', 'capital', 'helix']) };
    for (const [text, names] of Object.entries(cases)) {
      expect({ text, names: await onPg(text) }).toEqual({ text, names: [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) });
      expect({ text, frequent: true, names: await onPg(text, frequent) }).toEqual({ text, frequent: true, names: await onPg(text) });
      expect({ text, names: await onSqlite(text) }).toEqual({ text, names: await onPg(text) });
    }
    expect(sqlite.db.select().from(fundCodes).where(eq(fundCodes.code, 'FC-100')).all()).toHaveLength(1);
  });

  it('reads the trigram indexes instead of every row', async () => {
    const client = await pgDb.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const q = pgDb.db.select({ id: pgSchema.fundRequests.id }).from(pgSchema.fundRequests).where(fundSearchCondition('equity')).toSQL();
      const plan = (await client.query(`explain ${q.sql}`, q.params)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      // name and client from a trigram index (their own, or the search index of status, name and client)
      expect(plan).toMatch(/Bitmap Index Scan on fund_requests_(name_trgm|search)_idx[^\n]*\n\s+Index Cond: \(name ~~\* '%equity%'::text\)/);
      expect(plan).toMatch(/Bitmap Index Scan on fund_requests_(client_trgm|search)_idx[^\n]*\n\s+Index Cond: \(client ~~\* '%equity%'::text\)/);
      expect(plan).toContain('fund_codes_code_trgm_idx');
      expect(plan).not.toContain('Seq Scan');
    } finally {
      client.release();
    }
  });
});
