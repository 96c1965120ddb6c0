/**
 * The local commands on PostgreSQL, from the built CLI with the `--database-url` and `--blob-dir`
 * flags: `init` prepares a fresh database, then a command of each family (bulk upload, import of a
 * real delivery processed to its work paper, funds, export, mappings, reference data, users, the
 * audit log, a regression test run) gives the same output as the same commands on a SQLite data
 * directory. The flags win over the environment variables; a database without a blob directory, or
 * with `--server`, is refused, and backup names pg_dump.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgTestDatabase, describePg } from '../server/testing/dialects.js';
import { fixturesDir } from '../server/paths.js';
import { runCli, runCliAsync, type CliResult } from './testing/cli.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/;
/** Fields that differ between any two runs (times, durations, secrets, where the install is). */
const VOLATILE = new Set(['time', 'totalTime', 'seconds', 'token', 'hash', 'prevHash']);

/** A command's JSON output without what differs between two runs (times, durations, hashes). */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VOLATILE.has(k) ? '<volatile>' : stable(v)]));
  return typeof value === 'string' && ISO_TIME.test(value) ? '<time>' : value;
}

const zipNames = (file: string) => execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
const zipEntry = (file: string, name: string) => execFileSync('unzip', ['-p', file, name], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8');

describePg('the local commands on PostgreSQL (--database-url, --blob-dir)', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  let root: string;
  /** The global flags of each install: a PostgreSQL database with its blob directory, a SQLite data directory. */
  let pgArgs: string[];
  let sqliteArgs: string[];
  // the flags win over the variables: these point nowhere
  const pgEnv = { FUND_AUDIT_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nothing', FUND_AUDIT_BLOB_DIR: '/nonexistent/blobs', FUND_AUDIT_LOG_LEVEL: 'warn' };
  const sqliteEnv = { FUND_AUDIT_DATABASE_URL: '', FUND_AUDIT_BLOB_DIR: '', FUND_AUDIT_LOG_LEVEL: 'warn' };

  beforeAll(async () => {
    database = await createPgTestDatabase();
    root = mkdtempSync(join(tmpdir(), 'fund-audit-pg-commands-'));
    for (const d of ['pg-node', 'sqlite']) mkdirSync(join(root, d));
    pgArgs = ['-d', join(root, 'pg-node'), '--database-url', database.url, '--blob-dir', join(root, 'shared-blobs')];
    sqliteArgs = ['-d', join(root, 'sqlite')];
  });
  afterAll(async () => {
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  /** Runs one command on both installs at once. */
  async function onBoth(args: string[]): Promise<{ pg: CliResult; sqlite: CliResult }> {
    const [pg, sqlite] = await Promise.all([runCliAsync([...pgArgs, ...args], pgEnv), runCliAsync([...sqliteArgs, ...args], sqliteEnv)]);
    expect(pg.status, `${args.join(' ')} on PostgreSQL: ${pg.stderr}`).toBe(0);
    expect(sqlite.status, `${args.join(' ')} on SQLite: ${sqlite.stderr}`).toBe(0);
    return { pg, sqlite };
  }

  /** Runs a command with --json on both installs and checks both print the same (times and hashes aside). */
  async function sameJson(args: string[]): Promise<unknown> {
    const { pg, sqlite } = await onBoth(['--json', ...args]);
    const fromPg = stable(JSON.parse(pg.stdout));
    expect(fromPg, args.join(' ')).toEqual(stable(JSON.parse(sqlite.stdout)));
    return fromPg;
  }

  it('refuses a database without a blob directory or with --server, and backup names pg_dump', () => {
    const noBlobs = runCli(['-d', join(root, 'pg-node'), '--database-url', database.url, 'users', 'list'], { ...pgEnv, FUND_AUDIT_BLOB_DIR: '' });
    expect(noBlobs.status).toBe(7);
    expect(noBlobs.stderr).toContain('blobDir (--blob-dir, FUND_AUDIT_BLOB_DIR) is required with databaseUrl');
    const backup = runCli([...pgArgs, 'backup', '--to', join(root, 'backup.zip')], pgEnv);
    expect(backup.status).not.toBe(0);
    expect(backup.stderr).toContain('pg_dump');
    const both = runCli([...pgArgs, '--server', 'http://127.0.0.1:9', 'users', 'list'], pgEnv);
    expect(both.status).toBe(3);
    expect(both.stderr).toContain('Give either --server (work through a running server) or --database-url');
    // the options are the program's, listed once in a command's help
    const help = runCli(['serve', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout.match(/--database-url <url>/g)).toHaveLength(1);
    expect(help.stdout.match(/--blob-dir <dir>/g)).toHaveLength(1);
  });

  it('init prepares the database, says so, and changes nothing the second time', async () => {
    const { pg, sqlite } = await onBoth(['--json', 'init']);
    const { database: db, blobDir, schemaVersion, dataDir, ...prepared } = JSON.parse(pg.stdout);
    expect({ db, blobDir, dataDir }).toEqual({ db: database.url.replace(/\/$/, ''), blobDir: join(root, 'shared-blobs'), dataDir: join(root, 'pg-node') });
    expect(schemaVersion).toBeGreaterThan(0);
    expect(prepared).toEqual({ created: true, admin: 'admin@fund-audit.local', demoData: true });
    expect(JSON.parse(sqlite.stdout)).toMatchObject(prepared);
    const again = runCli([...pgArgs, 'init'], pgEnv);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(
      /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/fund_audit_test_\w+ is already a Fund Audit database \(schema version \d+\); nothing changed\./,
    );
    expect(JSON.parse(runCli([...pgArgs, '--json', 'init'], pgEnv).stdout)).toMatchObject({ created: false, demoData: false });
  }, 90_000);

  it('bulk uploads fund requests and imports a delivery through the pipeline to its work paper, as on SQLite', async () => {
    const bulk = await sameJson(['bulk-upload', join(fixturesDir(), 'fund-requests', 'real-funds.csv'), '--overwrite', '--request-date', '2023-04-03']);
    expect(bulk).toMatchObject({ totalRows: 4, declined: 0 });
    expect((bulk as { saved: unknown[] }).saved).toHaveLength(4);
    await sameJson(['funds', 'approve', '1']);

    // the delivery runs through the pipeline in the command, as on SQLite
    const inputs = join(fixturesDir(), 'tpas/meridian_fund_services/inputs');
    const imported = await sameJson(['import', '--tpa', 'meridian_fund_services', ...readdirSync(inputs).map((f) => join(inputs, f))]);
    expect(JSON.stringify(imported)).toContain('"status":"Success"');
    const funds = (await sameJson(['funds', 'list'])) as { rows: Array<{ id: number; workPaperStatusCounts: { total: number } }> };
    expect(funds.rows.find((f) => f.id === 1)?.workPaperStatusCounts.total).toBe(1); // its work paper
  }, 90_000);

  it('exports the same outputs of the fund', async () => {
    // the export: the same entries; the data (raw, identified, standardized) byte for byte
    const zip = (where: string) => join(root, `export-${where}.zip`);
    const [pgExport, sqliteExport] = await Promise.all([
      runCliAsync([...pgArgs, 'export', '--funds', '1', '--stages', 'all', '-o', zip('pg')], pgEnv),
      runCliAsync([...sqliteArgs, 'export', '--funds', '1', '--stages', 'all', '-o', zip('sqlite')], sqliteEnv),
    ]);
    expect([pgExport.status, sqliteExport.status], pgExport.stderr + sqliteExport.stderr).toEqual([0, 0]);
    const names = zipNames(zip('pg'));
    expect(names).toEqual(zipNames(zip('sqlite')));
    expect(names).toContain('fund_S000013795_dd_2023-04-30_work_papers.xlsx');
    const data = names.filter((n) => /_(standardization|identification)_\w+\.csv$|_input_files\/.+\.csv$/.test(n));
    expect(data.length).toBe(12);
    for (const name of data) expect(zipEntry(zip('pg'), name), name).toBe(zipEntry(zip('sqlite'), name));
    // the checks and their results (the JSON details column aside: PostgreSQL's jsonb orders keys its own way)
    const checks = (file: string) =>
      zipEntry(file, 'fund_S000013795_dd_2023-04-30_calculations.csv')
        .split('\n')
        .map((line) => line.split(',').slice(0, 5).join(','));
    expect(checks(zip('pg'))).toEqual(checks(zip('sqlite')));
  }, 90_000);

  it('lists mappings, imports FX rates into the shared blob directory, adds users and keeps the audit log, as on SQLite', async () => {
    await sameJson(['mappings', 'list']);
    await sameJson(['reference', 'fx', 'import', join(fixturesDir(), 'ecb', 'eurofxref-hist_2022-12_2024-02.csv')]);
    await sameJson(['reference', 'fx', 'list']);
    // where every node of the install reads them, not in this node's data directory
    expect(existsSync(join(root, 'shared-blobs', 'reference', 'fx', 'eurofxref-hist_2022-12_2024-02.csv'))).toBe(true);
    expect(existsSync(join(root, 'pg-node', 'reference'))).toBe(false);
    await sameJson(['users', 'add', '--email', 'ada@example.com', '--name', 'Ada Lovelace', '--role', 'Auditor']);
    const users = (await sameJson(['users', 'list'])) as Array<{ email: string }>;
    expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(['admin@fund-audit.local', 'ada@example.com']));
    await sameJson(['audit', 'list', '-n', '50']);
    const verified = await onBoth(['audit', 'verify']);
    expect(verified.pg.stdout).toBe(verified.sqlite.stdout);
    expect(verified.pg.stdout).toMatch(/The audit log is intact/);
  }, 90_000);

  it('runs a regression case with the master mappings of the install, as on SQLite', async () => {
    // a regression case with the install's master mappings
    const run = (await sameJson(['test', 'run', '--admin', 'meridian_fund_services', '--tests', '1', '--mappings', 'production'])) as {
      reports: Record<string, { tests: Array<{ success: boolean }> }>;
    };
    expect(run.reports.meridian_fund_services.tests.map((t) => t.success)).toEqual([true]);
  }, 90_000);
});
