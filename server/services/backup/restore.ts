/**
 * `fund-audit restore`: puts a backup archive (backup.ts) into a data directory. Refused while a
 * server or worker uses the directory, and over an existing install unless asked to replace it.
 * Every file is unpacked into a staging folder inside the data directory and checked against the
 * manifest (size and sha256), the database passes SQLite's integrity check and must not be newer
 * than this program; only then are the files moved into place. The restored database forgets the
 * processes that were running when the backup was taken, so their jobs are taken over by the next
 * start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { refuseNewerSchema, sqliteOptions } from '../../db/client.js';
import { ConflictError, DataDirInUseError, NotFoundError, ValidationError } from '../../errors.js';
import { HEARTBEAT_MS, pidAlive } from '../../queue/nodes.js';
import { migrationsDir } from '../../paths.js';
import { assertSqliteInstall, BACKUP_FORMAT, MANIFEST, type Manifest } from './backup.js';
import { BadZipError, listZip, openEntry, type ZipEntry } from './zip-reader.js';
import { hashingStream } from '../../lib/hashing-stream.js';

export interface RestoreSummary {
  dataDir: string;
  createdAt: string;
  appVersion: string;
  schemaVersion: number;
  files: number;
  blobs: number;
  bytes: number;
  /** Blob keys the restored database refers to that the backup did not hold (empty for a consistent backup). */
  missingBlobs: string[];
}

/** A running `serve` or `worker` on the data directory's database, if any. */
export function runningProcess(dbFile: string): { kind: string; pid: number; host: string; url: string | null } | undefined {
  if (!existsSync(dbFile)) return undefined;
  const db = new Database(dbFile, { ...sqliteOptions, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const hasNodes = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'nodes'").get();
    if (!hasNodes) return undefined;
    const rows = db.prepare('SELECT kind, pid, hostname AS host, url, heartbeat_at AS beat FROM nodes').all() as Array<{
      kind: string;
      pid: number;
      host: string;
      url: string | null;
      beat: number;
    }>;
    return rows.find((n) => (n.host === hostname() ? pidAlive(n.pid) : n.beat > Date.now() - 3 * HEARTBEAT_MS));
  } finally {
    db.close();
  }
}

/** Reads and checks the manifest of an archive. @throws ValidationError when it is not a Fund Audit backup */
async function readManifest(file: string, entries: ZipEntry[]): Promise<Manifest> {
  const entry = entries.find((e) => e.name === MANIFEST);
  if (!entry) throw new ValidationError(`${file} is not a Fund Audit backup: it has no ${MANIFEST}`);
  const chunks: Buffer[] = [];
  for await (const chunk of await openEntry(file, entry)) chunks.push(chunk as Buffer);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ValidationError(`${file}: its ${MANIFEST} is not valid JSON`);
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.files))
    throw new ValidationError(`${file} is not a Fund Audit backup (format ${manifest.format})`);
  return manifest;
}

/** Unpacks one entry to `dest`, hashing it; @returns its size and sha256. */
async function unpack(file: string, entry: ZipEntry, dest: string): Promise<{ size: number; sha256: string }> {
  mkdirSync(dirname(dest), { recursive: true });
  const meter = hashingStream();
  await pipeline(await openEntry(file, entry), meter, createWriteStream(dest));
  return meter.digest();
}

/**
 * Moves a staged file into place; on another file system (a shared blob directory) it is copied
 * into `root`'s tmp folder first and renamed from there, so a half-copied blob is never seen.
 */
function moveInto(from: string, dest: string, root: string): void {
  try {
    renameSync(from, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    mkdirSync(join(root, 'tmp'), { recursive: true });
    const tmp = join(root, 'tmp', `restore-${randomBytes(8).toString('hex')}`);
    copyFileSync(from, tmp);
    renameSync(tmp, dest);
  }
}

/** Blob keys the database refers to (imported files, fund files, exports, PowerBI inputs). */
function referencedBlobs(db: Database.Database): Set<string> {
  const keys = new Set<string>();
  const columns: Array<[string, string]> = [
    ['import_files', 'sha256'],
    ['fund_files', 'blob_key'],
    ['export_files', 'blob_key'],
    ['pbi_input_files', 'blob_key'],
  ];
  for (const [table, column] of columns) {
    try {
      for (const row of db.prepare(`SELECT DISTINCT ${column} AS k FROM ${table} WHERE ${column} IS NOT NULL`).all() as Array<{ k: string }>) keys.add(row.k);
    } catch {
      // a table or column this schema does not have
    }
  }
  return keys;
}

/**
 * Restores a backup archive into a data directory (created when missing).
 * @param opts.force replace an existing install's database and settings files (blobs are merged)
 * @param opts.blobDir where the blobs go: the blob store root of the restored install (default
 *   `<dataDir>/blobs`; a shared `blobDir` gets the blobs it lacks)
 * @returns what was restored
 * @throws NotFoundError for a missing archive; ConflictError while a server uses the directory or
 *   over an install without `force`; ValidationError for an archive that is not a backup, a file
 *   whose size or hash differs from the manifest, or a database that fails the integrity check;
 *   SchemaTooNewError for a backup of a newer Fund Audit; ValidationError for an install on PostgreSQL
 *   (`opts.databaseUrl`: pg_restore is the way there). Nothing in the directory changes then.
 */
export async function restoreBackup(
  archive: string,
  dataDirIn: string,
  opts: { dbName?: string; force?: boolean; blobDir?: string; databaseUrl?: string | null } = {},
): Promise<RestoreSummary> {
  assertSqliteInstall(opts.databaseUrl, 'restore');
  const file = resolve(archive);
  if (!existsSync(file)) throw new NotFoundError(`No backup file ${file}`);
  const dataDir = resolve(dataDirIn);
  let entries: ZipEntry[];
  try {
    entries = await listZip(file);
  } catch (err) {
    if (err instanceof BadZipError) throw new ValidationError(`${file} is not a Fund Audit backup: ${err.message}`);
    throw err;
  }
  const manifest = await readManifest(file, entries);
  const dbName = opts.dbName ?? manifest.dbName;
  const dbFile = join(dataDir, dbName);
  const blobRoot = opts.blobDir ? resolve(opts.blobDir) : join(dataDir, 'blobs');
  const running = runningProcess(dbFile);
  if (running) {
    throw new DataDirInUseError(
      `A Fund Audit ${running.kind} is using ${dataDir}${running.url ? ` at ${running.url}` : ''} (pid ${running.pid} on ${running.host}). Stop it before restoring into this directory.`,
    );
  }
  if (existsSync(dbFile) && !opts.force) {
    throw new ConflictError(`${dataDir} already holds an install (${dbName}). Restore into a new or empty directory, or pass --force to replace it.`);
  }

  mkdirSync(dataDir, { recursive: true });
  const staging = join(dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  try {
    // 1. unpack and check every file against the manifest
    const byName = new Map(entries.map((e) => [e.name, e]));
    const problems: string[] = [];
    for (const expected of manifest.files) {
      const entry = byName.get(expected.path);
      if (!entry || expected.path.includes('..') || expected.path.startsWith('/')) {
        problems.push(`${expected.path}: missing from the archive`);
        continue;
      }
      const got = await unpack(file, entry, join(staging, expected.path));
      if (got.size !== expected.size || got.sha256 !== expected.sha256)
        problems.push(`${expected.path}: ${got.size} bytes, sha256 ${got.sha256}; the manifest says ${expected.size} bytes, sha256 ${expected.sha256}`);
    }
    if (problems.length) throw new ValidationError(`The backup ${file} is damaged: ${problems.length} file(s) differ from its manifest`, problems.slice(0, 20));

    // 2. the database: intact, not newer than this program, forgetting the processes of the old install
    const stagedDb = join(staging, 'database', manifest.dbName);
    if (!existsSync(stagedDb)) throw new ValidationError(`The backup ${file} holds no database`);
    const db = new Database(stagedDb, sqliteOptions);
    let missingBlobs: string[];
    let schemaVersion: number;
    try {
      const check = db.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new ValidationError(`The database in ${file} fails SQLite's integrity check: ${check}`);
      refuseNewerSchema(db, readMigrationFiles({ migrationsFolder: migrationsDir() }), `in ${file}`);
      schemaVersion = (db.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
      const hasNodes = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'nodes'").get();
      if (hasNodes) {
        db.exec("DELETE FROM nodes; DELETE FROM node_events; UPDATE processes SET lease_expires_at = 0 WHERE status = 'running'");
      }
      const inArchive = new Set(manifest.files.filter((f) => f.path.startsWith('blobs/')).map((f) => f.path.slice(-64)));
      missingBlobs = [...referencedBlobs(db)].filter((k) => !inArchive.has(k) && !existsSync(join(blobRoot, k.slice(0, 2), k)));
    } finally {
      db.close();
    }

    // 3. move into place: the database last but one, then the settings files
    const blobs = manifest.files.filter((f) => f.path.startsWith('blobs/'));
    for (const blob of blobs) {
      const dest = join(blobRoot, blob.path.slice('blobs/'.length));
      if (existsSync(dest)) continue;
      mkdirSync(dirname(dest), { recursive: true });
      moveInto(join(staging, blob.path), dest, blobRoot);
    }
    mkdirSync(join(blobRoot, 'tmp'), { recursive: true });
    for (const suffix of ['-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
    renameSync(stagedDb, dbFile);
    for (const extra of manifest.files.filter((f) => f.path.startsWith('files/'))) {
      const dest = join(dataDir, extra.path.slice('files/'.length));
      mkdirSync(dirname(dest), { recursive: true });
      renameSync(join(staging, extra.path), dest);
    }
    return {
      dataDir,
      createdAt: manifest.createdAt,
      appVersion: manifest.appVersion,
      schemaVersion,
      files: manifest.files.length,
      blobs: blobs.length,
      bytes: manifest.files.reduce((n, f) => n + f.size, 0),
      missingBlobs,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
