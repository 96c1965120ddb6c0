/**
 * The application context every service takes: database, configuration, logger, event bus and
 * blob store of one data directory. Created once by `serve`, by each CLI command working on a
 * local data directory, and by tests on temporary directories.
 */
import type Database from 'better-sqlite3';
import { BlobStore } from './blobs.js';
import { blobRoot, ConfigError, loadConfig, type AppConfig, type ConfigInput } from './config.js';
import { openDb, type Db } from './db/client.js';
import type { DataStore } from './db/dialect.js';
import { EventBus } from './events.js';
import { createLogger, type Logger } from './log.js';

export interface AppContext {
  config: AppConfig;
  db: Db;
  sqlite: Database.Database;
  /** The database as dialect-neutral services use it (`storeOf(ctx)`, server/db/dialect.ts); set on a PostgreSQL context, derived from `db` on SQLite. */
  store?: DataStore;
  log: Logger;
  events: EventBus;
  blobs: BlobStore;
  schemaVersion: number;
  /** Runs `fn` when the context closes, before the database closes (the request pools end with their context); createContext's contexts have it. */
  onClose?(fn: () => void): void;
  /** Runs the `onClose` functions and closes the database. */
  close(): void;
}

/**
 * Opens a data directory: loads its configuration, opens and migrates the database.
 * @param opts.dataDir data directory (created when missing)
 * @param opts.flags configuration given on the command line
 * @param opts.config a complete configuration (tests), skipping file/env loading
 * @param opts.terminalLog log to stdout, as `serve` and `worker` do (default true)
 * @param opts.rotateLog with terminalLog, rotate the log file (default true: `serve`; a `worker` beside it only appends)
 * @throws ConfigError for a bad setting; Error when the database cannot be opened or migrated
 */
export async function createContext(opts: {
  dataDir?: string;
  flags?: ConfigInput;
  config?: AppConfig;
  env?: NodeJS.ProcessEnv;
  terminalLog?: boolean;
  rotateLog?: boolean;
}): Promise<AppContext> {
  const config = opts.config ?? loadConfig({ dataDir: opts.dataDir, flags: opts.flags, env: opts.env });
  refuseDatabaseUrl(config);
  // a server (terminal logging) owns the log file and rotates it; others append
  const terminal = opts.terminalLog !== false;
  const log = createLogger({
    dataDir: config.dataDir,
    level: config.logLevel,
    terminal,
    file: config.logFile,
    rotateSize: terminal && opts.rotateLog !== false ? config.logFileMaxSize : undefined,
    keep: config.logFileKeep,
  });
  const { db, sqlite, schemaVersion, applied, backup } = await openDb(config.dataDir, config.dbName);
  if (applied) log.info({ applied, schemaVersion, backup }, 'database schema upgraded');
  const closing: Array<() => void> = [];
  return {
    config,
    db,
    sqlite,
    log,
    events: new EventBus(),
    blobs: new BlobStore(blobRoot(config)),
    schemaVersion,
    onClose: (fn) => closing.push(fn),
    close: () => {
      for (const fn of closing.splice(0)) fn();
      sqlite.close();
    },
  };
}

/**
 * Refuses a PostgreSQL database in the configuration of a SQLite data directory's context: the
 * commands that run on PostgreSQL open theirs with `openContext` (server/open-context.ts); the
 * others work on a data directory's SQLite database only.
 * @throws ConfigError naming the setting
 */
export function refuseDatabaseUrl(config: Pick<AppConfig, 'databaseUrl'>): void {
  if (!config.databaseUrl) return;
  throw new ConfigError(
    'databaseUrl (--database-url, FUND_AUDIT_DATABASE_URL): this command works on the SQLite database of a data directory only. ' +
      'Every other command runs on PostgreSQL too (`fund-audit --database-url URL --blob-dir DIR <command>`); ' +
      'remove the setting to use this one.',
  );
}
