/**
 * A context on a PostgreSQL database (`--database-url`): the same configuration, logger, event
 * bus and blob store as a data directory's context, with the database as `store`
 * (`server/db/dialect.ts`). Services converted to the dialect-neutral form run on it; `ctx.db`
 * and `ctx.sqlite` are the SQLite handles of services not converted yet and throw here, naming
 * the call, rather than reaching a database that is not there. Opened by `serve`, `worker`, the
 * commands of `cli/global.ts` and the job threads when the configuration has `databaseUrl`.
 */
import { BlobStore } from './blobs.js';
import { blobRoot, type AppConfig } from './config.js';
import type { AppContext } from './context.js';
import { openPgDb, redactUrl } from './db/client-pg.js';
import { EventBus } from './events.js';
import { createLogger } from './log.js';

/** A stand-in for a SQLite handle that throws on every use. */
function noSqlite<T>(name: string): T {
  return new Proxy(
    {},
    {
      get(_t, prop) {
        if (prop === 'then') return undefined;
        throw new Error(
          `ctx.${name}.${String(prop)} is SQLite only and this context is on PostgreSQL: the calling service is not dialect-neutral yet (storeOf(ctx))`,
        );
      },
    },
  ) as T;
}

/**
 * Opens a context on a PostgreSQL database, migrating it.
 * @param opts.config the configuration (its `dataDir` holds logs; blobs in `blobDir`, default `<dataDir>/blobs`)
 * @param opts.url `postgres://user:password@host:port/database`
 * @param opts.terminalLog log to stdout, as `serve` and `worker` do (default true; with it the log file is rotated unless `rotateLog` is false)
 * @param opts.poolSize most connections of its pool (default 10; a job thread takes 2)
 * @throws Error when the database cannot be reached or migrated
 */
export async function createPgContext(opts: {
  config: AppConfig;
  url: string;
  blobDir?: string;
  terminalLog?: boolean;
  rotateLog?: boolean;
  poolSize?: number;
}): Promise<AppContext> {
  const { config } = opts;
  const log = createLogger({
    dataDir: config.dataDir,
    level: config.logLevel,
    terminal: opts.terminalLog !== false,
    file: config.logFile,
    rotateSize: opts.terminalLog !== false && opts.rotateLog !== false ? config.logFileMaxSize : undefined,
    keep: config.logFileKeep,
  });
  const { pool, store, schemaVersion, applied } = await openPgDb(opts.url, { max: opts.poolSize });
  if (applied) log.info({ applied, schemaVersion, database: redactUrl(opts.url) }, 'database schema upgraded');
  const closing: Array<() => void> = [];
  return {
    config,
    db: noSqlite('db'),
    sqlite: noSqlite('sqlite'),
    store,
    log,
    events: new EventBus(),
    blobs: new BlobStore(opts.blobDir ?? blobRoot(config)),
    schemaVersion,
    onClose: (fn) => closing.push(fn),
    close: () => {
      for (const fn of closing.splice(0)) fn();
      void pool.end();
    },
  };
}
