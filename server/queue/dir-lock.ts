/**
 * The lock a `serve` process holds on its data directory for as long as it lives: an exclusive
 * SQLite lock (the operating system's POSIX record lock, `fcntl`) on `<data dir>/serve.lock`,
 * taken at start and never let go until the process ends. The operating system releases it when
 * the process ends in any way (exit, crash, kill -9), and keeps it while the process is suspended
 * (SIGSTOP, a paused VM or container), so a second server is refused however long the first one
 * has not written its heartbeat. The `nodes` table still names the running server and notices
 * dead workers; this lock alone decides whether a server may start (docs/decisions/0018).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteOptions } from '../db/client.js';

/** The lock file's name inside the data directory. */
export const LOCK_FILE = 'serve.lock';

/** A held lock. */
export interface DataDirLock {
  /** The lock file. */
  file: string;
  /** Lets the lock go (at a clean stop; the end of the process does it too). */
  release(): void;
}

/**
 * Takes the data directory's server lock without waiting.
 * @returns the lock, or null when another process holds it
 * @throws Error when the lock file cannot be created or opened (permissions, a read-only directory)
 */
export function lockDataDir(dataDir: string): DataDirLock | null {
  const file = join(dataDir, LOCK_FILE);
  const db = new Database(file, { ...sqliteOptions, timeout: 0 });
  try {
    // a rollback journal (not WAL): the exclusive lock is then the lock on the file itself
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw err;
  }
  let held = true;
  return {
    file,
    release: () => {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}
