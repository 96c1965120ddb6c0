/** Global options every command shares, and opening the local data directory. */
import type { Command } from 'commander';
import { createContext, type AppContext } from '../server/context.js';
import type { ConfigInput } from '../server/config.js';

export interface GlobalOptions {
  dataDir?: string;
  server?: string;
  token?: string;
  json?: boolean;
}

/** The global options of a (sub)command. */
export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/** Opens the local data directory (migrating it); logs go to its log file only. */
export function openLocal(opts: GlobalOptions, flags: ConfigInput = {}): Promise<AppContext> {
  return createContext({ dataDir: opts.dataDir, flags, terminalLog: false });
}
