/**
 * Moves an install from the SQLite database of a data directory to a PostgreSQL database and a blob
 * directory every node reaches (`fund-audit migrate`; docs/cli.md, docs/decisions/0011).
 *
 * Refused while a server or worker uses the data directory, and into a database with rows in any
 * table. The blobs are copied first (each checked against its sha256; a copy already there is
 * kept), with the independent FX rate files (into `<blob dir>/reference/fx`), then the PostgreSQL
 * migrations are applied and every table is copied in one transaction, parents before children,
 * ids kept, identity sequences moved past the largest id: a failure leaves
 * the database without rows, so the command can simply be run again. Then every table's row count
 * and every blob's hash are checked on the target.
 */
import { cpSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { blobRoot, loadConfig } from '../../config.js';
import { openDb } from '../../db/client.js';
import { openPgDb, redactUrl } from '../../db/client-pg.js';
import { ConflictError, DataDirInUseError, NotFoundError, ValidationError } from '../../errors.js';
import { sharedFxDir } from '../reference-data/fx-rates.js';
import { runningProcess } from '../backup/restore.js';
import { copyBlob, listBlobKeys, verifyBlobs } from './blobs.js';
import { copyTable, resetIdentity } from './copy-rows.js';
import { NOT_MOVED, tablesInOrder } from './tables.js';

export interface MigrateSummary {
  from: string;
  /** The target database, its password hidden. */
  to: string;
  blobDir: string;
  schemaVersion: number;
  /** Rows per table as copied (and found again on the target). */
  tables: Array<{ name: string; rows: number }>;
  rows: number;
  blobs: number;
  /** Blobs copied now (the others were in the blob directory already). */
  blobsCopied: number;
  /** Bytes of all blobs. */
  bytes: number;
}

/** Tables of the target database's current schema that hold rows (besides the migrations' own). */
async function tablesWithRows(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`Cannot connect to ${redactUrl(url)}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '__drizzle_migrations' ORDER BY 1",
    );
    const full: string[] = [];
    for (const { name } of rows) {
      const res = await client.query(`SELECT 1 FROM "${name.replaceAll('"', '""')}" LIMIT 1`);
      if (res.rowCount) full.push(name);
    }
    return full;
  } finally {
    await client.end();
  }
}

/**
 * Moves the install of `opts.from` into the PostgreSQL database `opts.to`.
 * @param opts.from the data directory (its `config.json` and `FUND_AUDIT_*` settings apply: `dbName`, `blobDir`)
 * @param opts.to `postgres://user:password@host:port/database`: an empty database
 * @param opts.blobDir where the blobs go (a directory every node reaches); default the source's
 *   `blobDir` when it has one (the blobs stay there and are only checked), else required
 * @param opts.onProgress receives a line per step (for a terminal)
 * @returns tables with their rows, blobs and bytes moved
 * @throws NotFoundError without a database in `from`; DataDirInUseError while a server or worker
 *   uses it; ValidationError without a blob directory to use; ConflictError when the target has
 *   rows; Error when the target cannot be reached, a row is refused (nothing is kept then), a blob
 *   is damaged, or the check after the copy finds a difference
 */
export async function migrateInstall(opts: { from: string; to: string; blobDir?: string; onProgress?: (line: string) => void }): Promise<MigrateSummary> {
  const progress = opts.onProgress ?? (() => {});
  const config = loadConfig({ dataDir: opts.from });
  const dbFile = join(config.dataDir, config.dbName);
  if (!existsSync(dbFile)) throw new NotFoundError(`No Fund Audit install to move: ${dbFile} does not exist`);
  const running = runningProcess(dbFile);
  if (running)
    throw new DataDirInUseError(
      `A Fund Audit ${running.kind} is using ${config.dataDir}${running.url ? ` at ${running.url}` : ''} (pid ${running.pid} on ${running.host}). Stop it before moving the install.`,
    );
  const sourceBlobs = blobRoot(config);
  if (!opts.blobDir && !config.blobDir)
    throw new ValidationError(
      `Name the blob directory the nodes will share with --blob-dir DIR: the blobs of ${config.dataDir} are in ${sourceBlobs}, inside the data directory`,
    );
  const targetBlobs = opts.blobDir ? resolve(opts.blobDir) : sourceBlobs;
  const full = await tablesWithRows(opts.to);
  if (full.length)
    throw new ConflictError(
      `The database ${redactUrl(opts.to)} is not empty: ${full.length} table(s) hold rows (${full.slice(0, 5).join(', ')}${full.length > 5 ? ', ...' : ''}). Move an install into a new, empty database.`,
    );

  // 1. the blobs: copied (or checked, when they stay where they are) before any row is written
  const keys = listBlobKeys(sourceBlobs);
  let bytes = 0;
  let blobsCopied = 0;
  if (targetBlobs !== sourceBlobs) {
    progress(`Copying ${keys.length} blob(s) to ${targetBlobs}`);
    for (const key of keys) {
      const got = await copyBlob(sourceBlobs, targetBlobs, key);
      bytes += got.size;
      if (got.copied) blobsCopied++;
    }
  } else {
    progress(`The ${keys.length} blob(s) stay in ${sourceBlobs}`);
    for (const key of keys) bytes += statSync(join(sourceBlobs, key.slice(0, 2), key)).size;
  }

  // the independent FX rates go beside the blobs, where every node of a PostgreSQL install reads them
  const fx = join(config.dataDir, 'reference', 'fx');
  if (existsSync(fx)) cpSync(fx, sharedFxDir(targetBlobs), { recursive: true, force: false });

  // 2. the rows, in one transaction
  const source = await openDb(config.dataDir, config.dbName);
  const target = await openPgDb(opts.to, { max: 2 });
  const tables = tablesInOrder().filter((t) => !NOT_MOVED.has(t.name));
  const copied: Array<{ name: string; rows: number }> = [];
  try {
    progress(`Copying ${tables.length} table(s) to ${redactUrl(opts.to)}`);
    await target.db.transaction(async (tx) => {
      for (const table of tables) {
        const rows = await copyTable(source.sqlite, tx, table);
        if (table.identity) await resetIdentity(tx, table);
        copied.push({ name: table.name, rows });
        if (rows) progress(`  ${table.name}: ${rows} row(s)`);
      }
      // jobs that were running when the source stopped are taken over at once by the first node
      await tx.execute("UPDATE processes SET lease_expires_at = 0 WHERE status = 'running'");
    });

    // 3. the check: every table's rows, every blob's hash
    progress('Checking row counts and blob hashes');
    const problems: string[] = [];
    for (const { name, rows } of copied) {
      const inSource = (source.sqlite.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
      const { rows: r } = await target.pool.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`);
      const inTarget = Number(r[0]!.n);
      if (inSource !== rows || inTarget !== rows) problems.push(`${name}: ${inSource} row(s) in SQLite, ${inTarget} in PostgreSQL`);
    }
    const bad = await verifyBlobs(targetBlobs, keys);
    for (const key of bad.slice(0, 10)) problems.push(`blob ${key}: missing or damaged in ${targetBlobs}`);
    if (bad.length > 10) problems.push(`... and ${bad.length - 10} more blob(s)`);
    if (problems.length) throw new Error(`The moved install differs from its source:\n  ${problems.join('\n  ')}`);
    return {
      from: config.dataDir,
      to: redactUrl(opts.to),
      blobDir: targetBlobs,
      schemaVersion: target.schemaVersion,
      tables: copied,
      rows: copied.reduce((n, t) => n + t.rows, 0),
      blobs: keys.length,
      blobsCopied,
      bytes,
    };
  } finally {
    source.sqlite.close();
    await target.pool.end();
  }
}
