/**
 * The data directory a command works on must already exist: only `serve` and `init` create one,
 * so a mistyped `--data-dir` is refused instead of becoming a fresh install with demo data.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { NotFoundError } from './errors.js';

/** Thrown when a command is pointed at a data directory that does not exist. */
export class MissingDataDirError extends NotFoundError {}

/** The data directory a command would use: `--data-dir`, else `FUND_AUDIT_DATA_DIR`, else `./.data` (absolute). */
export function resolveDataDir(dataDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(dataDir ?? env.FUND_AUDIT_DATA_DIR ?? '.data');
}

/**
 * Checks that a data directory exists (it may still be empty: the first command sets it up).
 * @returns its absolute path
 * @throws MissingDataDirError when it does not exist or is not a directory, naming the path and how to create one
 */
export function requireDataDir(dataDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const dir = resolveDataDir(dataDir, env);
  if (!existsSync(dir)) {
    throw new MissingDataDirError(
      `The data directory ${dir} does not exist. Check --data-dir (or FUND_AUDIT_DATA_DIR); to set up a new one run \`fund-audit init -d ${dir}\` or \`fund-audit serve -d ${dir}\``,
    );
  }
  if (!statSync(dir).isDirectory())
    throw new MissingDataDirError(`The data directory ${dir} is a file, not a directory: check --data-dir (or FUND_AUDIT_DATA_DIR)`);
  return dir;
}
