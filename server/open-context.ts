/**
 * The context of a command from its configuration: the data directory's SQLite database, or the
 * PostgreSQL database of `databaseUrl` (`--database-url`, `FUND_AUDIT_DATABASE_URL`;
 * docs/decisions/0011-postgresql-beside-sqlite.md). On PostgreSQL the data directory holds the
 * configuration file and the logs; the blobs are in `blobDir`.
 */
import { blobRoot, ConfigError, loadConfig, type AppConfig, type ConfigInput } from './config.js';
import { createContext, type AppContext } from './context.js';
import { createPgContext } from './context-pg.js';

/**
 * Refuses a PostgreSQL install without `blobDir`: every node and command of a PostgreSQL install
 * reads and writes the same files, so the blob directory must be one they share, named explicitly
 * (not the default inside each machine's data directory).
 * @throws ConfigError naming the setting
 */
export function requireSharedBlobDir(config: Pick<AppConfig, 'databaseUrl' | 'blobDir'>): void {
  if (!config.databaseUrl || config.blobDir) return;
  throw new ConfigError(
    'blobDir (--blob-dir, FUND_AUDIT_BLOB_DIR) is required with databaseUrl: every node and command on the PostgreSQL database reads and writes the same files, ' +
      'so point each one at the same shared directory (NFS, EFS, a CIFS share), e.g. --blob-dir /mnt/fund-audit-blobs',
  );
}

/**
 * Opens the context of a command: on PostgreSQL when the configuration has `databaseUrl`, else on
 * the data directory's SQLite database (`createContext`).
 * @throws ConfigError for a bad setting (on PostgreSQL a missing `blobDir`: every node and command
 *   of the install stores its files in that one shared directory);
 *   Error when the database cannot be reached, opened or migrated
 */
export async function openContext(opts: {
  dataDir?: string;
  flags?: ConfigInput;
  config?: AppConfig;
  terminalLog?: boolean;
  rotateLog?: boolean;
}): Promise<AppContext> {
  const config = opts.config ?? loadConfig({ dataDir: opts.dataDir, flags: opts.flags });
  if (!config.databaseUrl) return createContext({ config, terminalLog: opts.terminalLog, rotateLog: opts.rotateLog });
  requireSharedBlobDir(config);
  return createPgContext({ config, url: config.databaseUrl, blobDir: blobRoot(config), terminalLog: opts.terminalLog, rotateLog: opts.rotateLog });
}
