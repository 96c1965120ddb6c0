/**
 * Output and exit codes shared by every command: `--json` prints machine output, otherwise plain
 * tables; errors print one clear line (and the next step to take) on stderr and set the exit code.
 */
import { ConfigError } from '../server/config.js';
import { MissingDataDirError } from '../server/data-dir.js';
import { SchemaTooNewError } from '../server/db/client.js';
import { AppError, DataDirInUseError } from '../server/errors.js';
import { displayCell } from '../rules/dates.js';

/** Exit codes (docs/cli.md). */
export const EXIT = { ok: 0, failure: 1, usage: 2, invalid: 3, notFound: 4, conflict: 5, denied: 6, config: 7 } as const;

/** Maps an error to an exit code. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof ConfigError) return EXIT.config;
  if (err instanceof AppError) {
    if (err.status === 400 || err.status === 413) return EXIT.invalid;
    if (err.status === 404) return EXIT.notFound;
    if (err.status === 409) return EXIT.conflict;
    if (err.status === 401 || err.status === 403) return EXIT.denied;
  }
  return EXIT.failure;
}

/** The next step to take after an error, by its kind. */
export function nextStep(err: unknown): string {
  if (err instanceof ConfigError) return 'fix the setting (docs/configuration.md lists every setting and where to set it)';
  if (err instanceof MissingDataDirError) return 'give the right --data-dir, or create the data directory with `fund-audit init`';
  if (err instanceof SchemaTooNewError)
    return 'run the newer Fund Audit that upgraded this database, or restore a backup taken with this version (fund-audit restore)';
  if (err instanceof DataDirInUseError) return 'stop the Fund Audit named above first, or give another --data-dir';
  if (err instanceof AppError) {
    if (err.status === 401) return 'pass --token KEY (an API key or session token) or set FUND_AUDIT_TOKEN, and check it has not expired';
    if (err.status === 403) return 'ask an administrator for a role that may do this';
    if (err.status === 404) return 'check the id or code; the list commands (funds list, mappings list, users list) show them';
    if (err.status === 409) return 'the data changed or already exists: look at it with a list command, then try again';
    if (err.status === 400 || err.status === 413) return 'correct the input above and run the command again';
    if (err.status === 503) return 'check the --server URL and that the server is running';
  }
  return 'see the log in <data dir>/logs/fund-audit.log for details';
}

/** Prints an error: message, listed errors and the next step; JSON when asked. */
export function printError(err: unknown, asJson: boolean): void {
  const message = err instanceof Error ? err.message : String(err);
  const errors = err instanceof AppError ? err.errors.map((e) => (typeof e === 'string' ? e : e.message)).filter((e) => e !== message) : [];
  if (asJson) {
    process.stdout.write(JSON.stringify({ success: false, message, errors, next: nextStep(err) }) + '\n');
  } else {
    process.stderr.write(`Error: ${message}\n`);
    for (const e of errors) process.stderr.write(`  - ${e}\n`);
    process.stderr.write(`→ ${nextStep(err)}\n`);
  }
}

/** Prints rows as an aligned text table. */
export function printTable(rows: Array<Record<string, unknown>>, columns?: string[]): void {
  if (!rows.length) {
    process.stdout.write('(none)\n');
    return;
  }
  const cols = columns ?? Object.keys(rows[0]);
  const cell = displayCell;
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd() + '\n';
  process.stdout.write(line(cols));
  process.stdout.write(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) process.stdout.write(line(cols.map((c) => cell(r[c]))));
}

/** Prints data as JSON or via the given plain printer. */
export function output(data: unknown, asJson: boolean, plain: () => void): void {
  if (asJson) process.stdout.write(JSON.stringify(data, null, 2) + '\n');
  else plain();
}
