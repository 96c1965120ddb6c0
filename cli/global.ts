/** Global options every command shares, and opening the local install (data directory or PostgreSQL database). */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { bootstrap } from '../server/bootstrap.js';
import type { AppContext } from '../server/context.js';
import { loadConfig, type AppConfig, type ConfigInput } from '../server/config.js';
import { openContext } from '../server/open-context.js';
import { requireDataDir } from '../server/data-dir.js';
import { ValidationError } from '../server/errors.js';

export interface GlobalOptions {
  dataDir?: string;
  /** `--database-url`: the PostgreSQL database of the install (the flag only; the variable is read by `loadConfig`). */
  databaseUrl?: string;
  /** `--blob-dir`: the root of the blob store (the flag only, as given). */
  blobDir?: string;
  server?: string;
  token?: string;
  json?: boolean;
}

/**
 * The global options of a (sub)command. `--server` and `--token` fall back to `FUND_AUDIT_SERVER` and
 * `FUND_AUDIT_TOKEN`; flags win: `--token` over the variable, and an explicit `--data-dir` or
 * `--database-url` keeps the command local even when `FUND_AUDIT_SERVER` is set.
 * @throws ValidationError when both `--server` and `--database-url` are given (a server or the database, not both)
 */
export function globals(cmd: Command): GlobalOptions {
  const opts = cmd.optsWithGlobals() as GlobalOptions;
  if (opts.server && opts.databaseUrl)
    throw new ValidationError('Give either --server (work through a running server) or --database-url (work on the database directly), not both');
  const localFlag = cmd.getOptionValueSourceWithGlobals('dataDir') === 'cli' || cmd.getOptionValueSourceWithGlobals('databaseUrl') === 'cli';
  const server = opts.server ?? (localFlag ? undefined : process.env.FUND_AUDIT_SERVER || undefined);
  const token = opts.token ?? (process.env.FUND_AUDIT_TOKEN || undefined);
  return { ...opts, server, token };
}

/**
 * The configuration settings the global flags give: `--database-url` and `--blob-dir` (made
 * absolute against the working directory), each left out when not given, so that the
 * environment and the configuration file apply.
 */
export function installFlags(g: GlobalOptions): ConfigInput {
  return { databaseUrl: g.databaseUrl, blobDir: g.blobDir && resolve(g.blobDir) };
}

/**
 * The configuration of the local install of the global options: the data directory, with
 * `--database-url` / `--blob-dir` over `FUND_AUDIT_DATABASE_URL` / `FUND_AUDIT_BLOB_DIR`, and `flags`
 * (a command's own settings) over both.
 * @throws ConfigError for a bad setting
 */
export function localConfig(g: GlobalOptions, flags: ConfigInput = {}): AppConfig {
  return loadConfig({ dataDir: g.dataDir, flags: { ...installFlags(g), ...flags } });
}

/**
 * Opens the local install, migrating and bootstrapping it like `serve` does (reference data, first
 * administrator, demo data on first use); logs go to its log file only. On SQLite the data
 * directory must exist; with a database URL (`--database-url`, `FUND_AUDIT_DATABASE_URL`) the
 * database is that PostgreSQL one and the blob directory (`--blob-dir`, `FUND_AUDIT_BLOB_DIR`) is required
 * (server/open-context.ts).
 * @throws MissingDataDirError when the SQLite data directory does not exist; ConfigError for a bad
 *   setting (a database URL without a blob directory); Error when the database cannot be reached
 */
export async function openLocal(opts: GlobalOptions, flags: ConfigInput = {}): Promise<AppContext> {
  const config = localConfig(opts, flags);
  if (!config.databaseUrl) requireDataDir(opts.dataDir);
  const ctx = await openContext({ config, terminalLog: false });
  try {
    await bootstrap(ctx);
  } catch (err) {
    ctx.close();
    throw err;
  }
  return ctx;
}
