/**
 * The context of a request pool thread: the data directory's database opened read-only (the
 * writer keeps it in WAL mode, so a reader never blocks a write and each query reads the latest
 * committed data), with `query_only` on as a second guard, and the same configuration, log and
 * blob store as the server. The services run on it unchanged; any write they tried would fail.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { BlobStore } from '../blobs.js';
import { blobRoot, type AppConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { sqliteOptions, type Db } from '../db/client.js';
import * as schema from '../db/schema/index.js';
import { EventBus } from '../events.js';
import { createLogger } from '../log.js';

/**
 * Opens the read-only context of a pool thread.
 * @throws Error when the database cannot be opened (the server creates and migrates it first)
 */
export function openReadContext(config: AppConfig): AppContext {
  const sqlite = new Database(join(config.dataDir, config.dbName), { ...sqliteOptions, readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('query_only = ON');
  if (String(sqlite.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') {
    sqlite.close();
    throw new Error(`${config.dbName} is not in WAL mode: pool threads read it only next to a server that opened it`);
  }
  const db = drizzle(sqlite, { schema }) as Db;
  const schemaVersion = (sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
  return {
    config,
    db,
    sqlite,
    log: createLogger({ dataDir: config.dataDir, level: config.logLevel, terminal: false, file: config.logFile }),
    events: new EventBus(),
    blobs: new BlobStore(blobRoot(config)),
    schemaVersion,
    close: () => sqlite.close(),
  };
}
