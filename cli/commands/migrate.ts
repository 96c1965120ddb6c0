/** `fund-audit migrate --from DATA_DIR --to postgres://...`: moves a SQLite install to PostgreSQL and a shared blob directory. */
import type { Command } from 'commander';
import { requireDataDir } from '../../server/data-dir.js';
import { ValidationError } from '../../server/errors.js';
import { migrateInstall } from '../../server/services/migrate/migrate.js';
import { globals } from '../global.js';
import { output } from '../output.js';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description(
      'Move an install (its SQLite database and its blobs) into an empty PostgreSQL database and a blob directory every node reaches; checks rows and hashes after',
    )
    .requiredOption('--from <dir>', 'the data directory of the install (no server or worker may be running on it)')
    .requiredOption('--to <url>', 'an empty PostgreSQL database: postgres://user:password@host:port/database')
    .addHelpText('after', "\nThe blobs go to --blob-dir (required unless the install's blobDir is already set: then they stay there).")
    .action(async (opts: { from: string; to: string }, cmd: Command) => {
      const g = globals(cmd);
      if (!/^postgres(ql)?:\/\/\S+$/.test(opts.to))
        throw new ValidationError(
          `--to must be a postgres:// or postgresql:// URL, e.g. postgres://fund_audit:secret@db.example.com:5432/fund_audit (got ${opts.to})`,
        );
      const from = requireDataDir(opts.from);
      const summary = await migrateInstall({
        from,
        to: opts.to,
        blobDir: g.blobDir,
        onProgress: g.json ? undefined : (line) => process.stderr.write(`${line}\n`),
      });
      output(summary, Boolean(g.json), () => {
        process.stdout.write(
          `Moved ${summary.from} to ${summary.to}: ${summary.tables.length} table(s), ${summary.rows} row(s); ` +
            `${summary.blobs} blob(s) (${mb(summary.bytes)}, ${summary.blobsCopied} copied) in ${summary.blobDir}. Row counts and blob hashes checked.\n`,
        );
      });
    });
}
