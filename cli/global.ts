/** Global options every command shares, and opening the local data directory. */
import type { Command } from 'commander';
import { bootstrap } from '../server/bootstrap.js';
import type { AppContext } from '../server/context.js';
import { loadConfig, type ConfigInput } from '../server/config.js';
import { openContext } from '../server/open-context.js';
import { requireDataDir } from '../server/data-dir.js';

export interface GlobalOptions {
  dataDir?: string;
  server?: string;
  token?: string;
  json?: boolean;
}

/**
 * The global options of a (sub)command. `--server` and `--token` fall back to `FUND_AUDIT_SERVER` and
 * `FUND_AUDIT_TOKEN`; flags win: `--token` over the variable, and an explicit `--data-dir` keeps the
 * command local even when `FUND_AUDIT_SERVER` is set.
 */
export function globals(cmd: Command): GlobalOptions {
  const opts = cmd.optsWithGlobals() as GlobalOptions;
  const dataDirFlag = cmd.getOptionValueSourceWithGlobals('dataDir') === 'cli';
  const server = opts.server ?? (dataDirFlag ? undefined : process.env.FUND_AUDIT_SERVER || undefined);
  const token = opts.token ?? (process.env.FUND_AUDIT_TOKEN || undefined);
  return { ...opts, server, token };
}

/**
 * Opens the local data directory, which must exist (migrating and bootstrapping it like `serve` does: reference data,
 * first administrator, demo data on first use); logs go to its log file only. With `databaseUrl`
 * (`FUND_AUDIT_DATABASE_URL`) the database is that PostgreSQL one (server/open-context.ts).
 */
export async function openLocal(opts: GlobalOptions, flags: ConfigInput = {}): Promise<AppContext> {
  const config = loadConfig({ dataDir: opts.dataDir, flags });
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
