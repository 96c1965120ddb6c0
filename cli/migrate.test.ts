/**
 * Moving an install to PostgreSQL (`fund-audit migrate`), on a real PostgreSQL: a data directory
 * with the demo data and the demo deliveries processed by the pipeline moves with every row
 * (same values: JSON, booleans, ids), identity sequences past the copied ids, and every blob with
 * its hash; a server on the source and a target with rows are refused.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { asc } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgTestDatabase, describePg } from '../server/testing/dialects.js';
import * as pgSchema from '../server/db/schema-pg/index.js';
import * as sqliteSchema from '../server/db/schema/index.js';
import { listBlobKeys } from '../server/services/migrate/blobs.js';
import { runCli, runCliAsync, startServe, until } from './testing/cli.js';

describePg('fund-audit migrate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fa-migrate-'));
  const shared = mkdtempSync(join(tmpdir(), 'fa-migrate-blobs-'));
  const databases: Array<Awaited<ReturnType<typeof createPgTestDatabase>>> = [];
  const pools: pg.Pool[] = [];

  beforeAll(async () => {
    // an install with the demo data, whose demo deliveries the server's job threads process
    const serve = await startServe(dir, ['--no-signin-link'], { FUND_AUDIT_WORKERS: '1', FUND_AUDIT_DEMO_DELIVERIES: 'true' });
    try {
      const live = new Database(join(dir, 'fund-audit.sqlite'), { readonly: true });
      await until(
        'the demo deliveries to be processed',
        () =>
          (live.prepare("select count(*) n from processes where status in ('pending', 'running')").get() as { n: number }).n === 0 &&
          live.prepare("select 1 from fund_files where kind = 'work_paper' and blob_key is not null").get(),
        120_000,
      );
      live.close();
      // refused while the server uses the data directory
      const target = await createPgTestDatabase();
      databases.push(target);
      const refused = await runCliAsync(['migrate', '--from', dir, '--to', target.url, '--blob-dir', shared]);
      expect(refused.status).toBe(5);
      expect(refused.stderr).toMatch(/A Fund Audit serve is using .* Stop it before moving the install/);
    } finally {
      await serve.stop();
    }
  }, 180_000);

  afterAll(async () => {
    for (const p of pools) await p.end();
    for (const d of databases) await d.drop();
  });

  it('moves every row and blob, checked, and refuses to move into a database with rows', async () => {
    const target = await createPgTestDatabase();
    databases.push(target);
    const moved = await runCliAsync(['--json', 'migrate', '--from', dir, '--to', target.url, '--blob-dir', shared]);
    expect(moved.status, moved.stderr).toBe(0);
    const summary = JSON.parse(moved.stdout);

    const sqlite = new Database(join(dir, 'fund-audit.sqlite'), { readonly: true });
    const pool = new pg.Pool({ connectionString: target.url, max: 2 });
    pools.push(pool);
    try {
      // every table's rows, as counted on both sides
      for (const { name, rows } of summary.tables as Array<{ name: string; rows: number }>) {
        expect((sqlite.prepare(`select count(*) n from "${name}"`).get() as { n: number }).n, name).toBe(rows);
        expect(Number((await pool.query(`select count(*) n from "${name}"`)).rows[0].n), name).toBe(rows);
      }
      const counts = Object.fromEntries((summary.tables as Array<{ name: string; rows: number }>).map((t) => [t.name, t.rows]));
      expect(counts.fund_requests).toBeGreaterThan(0);
      expect(counts.mapping_versions).toBeGreaterThan(0);
      expect(counts.sdm_chunks).toBeGreaterThan(0);
      expect(counts.audit_log).toBeGreaterThan(0);

      // the same values read through each schema: JSON fields, booleans, numbers, ids
      const a = drizzleSqlite(sqlite, { schema: sqliteSchema });
      const b = drizzlePg(pool, { schema: pgSchema });
      const funds = a.select().from(sqliteSchema.fundRequests).orderBy(asc(sqliteSchema.fundRequests.id)).all();
      expect(await b.select().from(pgSchema.fundRequests).orderBy(asc(pgSchema.fundRequests.id))).toEqual(funds);
      expect(funds.every((f) => typeof f.connectedAudit === 'boolean' && typeof f.isParent === 'boolean')).toBe(true);
      // fund files: JSON validation results and the reviewed / released flags
      const files = a.select().from(sqliteSchema.fundFiles).orderBy(asc(sqliteSchema.fundFiles.id)).all();
      expect(await b.select().from(pgSchema.fundFiles).orderBy(asc(pgSchema.fundFiles.id))).toEqual(files);
      expect(files.some((f) => f.validation !== null && typeof f.validation === 'object')).toBe(true);
      const versions = a.select().from(sqliteSchema.mappingVersions).orderBy(asc(sqliteSchema.mappingVersions.id)).all();
      expect(await b.select().from(pgSchema.mappingVersions).orderBy(asc(pgSchema.mappingVersions.id))).toEqual(versions);
      const [chunk] = a.select().from(sqliteSchema.sdmChunks).orderBy(asc(sqliteSchema.sdmChunks.id)).limit(1).all();
      const [chunkPg] = await b.select().from(pgSchema.sdmChunks).orderBy(asc(pgSchema.sdmChunks.id)).limit(1);
      expect(chunkPg).toEqual(chunk);

      // a new row gets the next id
      const maxId = Math.max(...funds.map((f) => f.id));
      expect(Number((await pool.query("select nextval(pg_get_serial_sequence('fund_requests', 'id')) n")).rows[0].n)).toBe(maxId + 1);
      // the jobs of the source are there, none left running
      expect((await pool.query("select count(*)::int n from processes where status = 'running' and lease_expires_at > 0")).rows[0].n).toBe(0);
    } finally {
      sqlite.close();
    }

    // every blob of the source, under its hash
    const keys = listBlobKeys(join(dir, 'blobs'));
    expect(keys.length).toBeGreaterThan(3);
    expect(summary).toMatchObject({ blobs: keys.length, blobsCopied: keys.length, blobDir: shared });
    expect(listBlobKeys(shared)).toEqual(keys);
    // the independent FX rates the server seeded, beside them, where every node reads them
    expect(readdirSync(join(shared, 'reference', 'fx'))).toEqual(readdirSync(join(dir, 'reference', 'fx')));
    expect(readdirSync(join(shared, 'reference', 'fx')).length).toBeGreaterThan(0);
    for (const k of keys)
      expect(
        createHash('sha256')
          .update(readFileSync(join(shared, k.slice(0, 2), k)))
          .digest('hex'),
      ).toBe(k);
    expect(summary.bytes).toBeGreaterThan(0);

    // a second run finds rows in the target and changes nothing
    const again = runCli(['migrate', '--from', dir, '--to', target.url, '--blob-dir', shared]);
    expect(again.status).toBe(5);
    expect(again.stderr).toMatch(/is not empty: \d+ table\(s\) hold rows \(administrators, /);
  }, 180_000);

  it('asks where the blobs go when they are inside the data directory', () => {
    const refused = runCli(['migrate', '--from', dir, '--to', 'postgres://fund_audit@127.0.0.1:1/none']);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('Name the blob directory the nodes will share with --blob-dir DIR');
  });
});
