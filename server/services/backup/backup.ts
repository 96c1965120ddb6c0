/**
 * `fund-audit backup`: a consistent backup of an install, taken while it runs. The database is
 * copied with SQLite's online backup API (a snapshot of one moment; writers are not stopped), then
 * the blob store and the settings files are added; everything goes into one zip with a manifest
 * listing every file's size and sha256. The zip is written beside its destination and renamed
 * into place when complete, so a half-written backup never has the final name.
 * Backup and restore are of a SQLite data directory: an install on PostgreSQL is refused with the
 * way there (`pg_dump` / `pg_restore` and a copy of the blob directory; docs/operations.md).
 */
import { createReadStream, createWriteStream, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ZipArchive, type Archiver } from 'archiver';
import Database from 'better-sqlite3';
import { sqliteOptions } from '../../db/client.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { hashingStream } from '../../lib/hashing-stream.js';
import { appVersion } from '../../paths.js';
import { listBlobKeys } from '../migrate/blobs.js';

/** Format of the archive (`manifest.json`'s `format`). */
export const BACKUP_FORMAT = 'fund-audit-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';
/** Settings files and folders of the data directory that go into a backup besides the database and blobs. */
export const EXTRA_PATHS = ['config.json', 'wiki.json', 'reference'];

/**
 * Refuses a backup or restore of an install whose database is PostgreSQL.
 * @param databaseUrl the install's `databaseUrl` (unset: the data directory's SQLite database)
 * @throws ValidationError naming pg_dump and pg_restore
 */
export function assertSqliteInstall(databaseUrl: string | null | undefined, action: 'back up' | 'restore'): void {
  if (!databaseUrl) return;
  throw new ValidationError(`Cannot ${action} this install: backup and restore are of a SQLite data directory, and its database is PostgreSQL (databaseUrl)`, [
    'Back up a PostgreSQL database with pg_dump (pg_dump --format=custom --file=fund-audit.dump <database URL>) and restore it with pg_restore',
    'Copy the blob directory (blobDir) beside the dump: the database refers to its files',
  ]);
}

export interface ManifestFile {
  /** Path inside the archive: `database/<db>`, `blobs/<xx>/<sha256>`, `files/<path>`. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  appVersion: string;
  schemaVersion: number;
  dbName: string;
  files: ManifestFile[];
}

export interface BackupSummary {
  file: string;
  bytes: number;
  createdAt: string;
  schemaVersion: number;
  databaseBytes: number;
  blobs: number;
  blobBytes: number;
  /** Blobs whose content no longer matched their key; left out (the database still names them). */
  damagedBlobs: string[];
}

/** Appends a file to the archive, hashing it on the way; resolves once the archive took it. */
function appendFile(archive: Archiver, file: string, name: string, store: boolean): Promise<{ sha256: string; size: number }> {
  return new Promise((resolvePromise, reject) => {
    const meter = hashingStream();
    const source = createReadStream(file);
    const onEntry = () => {
      cleanup();
      resolvePromise(meter.digest());
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      archive.off('entry', onEntry);
      archive.off('error', onError);
    };
    source.on('error', onError);
    archive.on('entry', onEntry);
    archive.on('error', onError);
    // `store` (no compression) is a zip entry option the shared type declaration leaves out
    const data = { name, store, date: statSync(file).mtime };
    archive.append(source.pipe(meter), data);
  });
}

/** Files below a folder, relative to it, with `/` separators. */
function filesBelow(root: string): string[] {
  if (!existsSync(root)) return [];
  if (statSync(root).isFile()) return [''];
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/**
 * Takes a backup of a data directory, while a server may be running on it.
 * @param source.dataDir the data directory; source.dbName its database file name; source.blobDir
 *   the blob store root (default `<dataDir>/blobs`: `blobRoot(config)`), archived as `blobs/`
 * @param to the archive to write (a zip; an existing file is replaced only once the new one is complete)
 * @returns what went in, sizes in bytes
 * @throws NotFoundError when the data directory has no database; ValidationError when the snapshot
 *   fails SQLite's integrity check, or for an install on PostgreSQL (`source.databaseUrl`); Error when writing fails (the partial file is removed)
 */
export async function createBackup(
  source: { dataDir: string; dbName: string; blobDir?: string; databaseUrl?: string | null },
  to: string,
): Promise<BackupSummary> {
  assertSqliteInstall(source.databaseUrl, 'back up');
  const dataDir = resolve(source.dataDir);
  const dbFile = join(dataDir, source.dbName);
  if (!existsSync(dbFile)) throw new NotFoundError(`No database to back up: ${dbFile} does not exist`);
  const target = resolve(to);
  if (!existsSync(dirname(target))) throw new NotFoundError(`The folder of the backup file does not exist: ${dirname(target)}`);
  const part = `${target}.part`;
  const snapshot = `${target}.db.part`;
  try {
    // 1. the database, as of one moment: the first step copies 100 pages, the next the rest at once
    //    (a copy in many steps would restart each time another connection writes)
    const live = new Database(dbFile, { ...sqliteOptions, fileMustExist: true });
    try {
      live.pragma('busy_timeout = 5000');
      await live.backup(snapshot, { progress: () => 1 << 30 });
    } finally {
      live.close();
    }
    const snap = new Database(snapshot, sqliteOptions);
    let schemaVersion: number;
    try {
      const check = snap.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new ValidationError(`The database copy failed SQLite's integrity check: ${check}`);
      schemaVersion = (snap.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
      snap.pragma('journal_mode = DELETE');
    } finally {
      snap.close();
    }

    // 2. the archive: database, blobs (stored: mostly compressed formats already), settings files
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const out = createWriteStream(part);
    const written = new Promise<void>((ok, fail) => {
      out.on('close', ok);
      out.on('error', fail);
      archive.on('error', fail);
    });
    archive.pipe(out);
    const files: ManifestFile[] = [];
    const createdAt = new Date().toISOString();
    const db = await appendFile(archive, snapshot, `database/${source.dbName}`, false);
    files.push({ path: `database/${source.dbName}`, ...db });
    const blobRoot = source.blobDir ? resolve(source.blobDir) : join(dataDir, 'blobs');
    const damagedBlobs: string[] = [];
    let blobBytes = 0;
    for (const key of listBlobKeys(blobRoot)) {
      const file = join(blobRoot, key.slice(0, 2), key);
      if (!existsSync(file)) continue; // removed since it was listed
      const name = `blobs/${key.slice(0, 2)}/${key}`;
      const got = await appendFile(archive, file, name, true);
      if (got.sha256 !== key) damagedBlobs.push(key);
      files.push({ path: name, ...got });
      blobBytes += got.size;
    }
    for (const extra of EXTRA_PATHS) {
      for (const rel of filesBelow(join(dataDir, extra))) {
        const path = rel ? `${extra}/${rel}` : extra;
        const got = await appendFile(archive, join(dataDir, path), `files/${path}`, false);
        files.push({ path: `files/${path}`, ...got });
      }
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt,
      appVersion: appVersion(),
      schemaVersion,
      dbName: source.dbName,
      files,
    };
    archive.append(JSON.stringify(manifest, null, 1), { name: MANIFEST, date: new Date(createdAt) });
    await archive.finalize();
    await written;
    renameSync(part, target);
    return {
      file: target,
      bytes: statSync(target).size,
      createdAt,
      schemaVersion,
      databaseBytes: db.size,
      blobs: files.filter((f) => f.path.startsWith('blobs/')).length,
      blobBytes,
      damagedBlobs,
    };
  } catch (err) {
    rmSync(part, { force: true });
    throw err;
  } finally {
    rmSync(snapshot, { force: true });
  }
}
