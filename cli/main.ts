/**
 * The `fund-audit` command line: global flags, the commands, and error -> exit code.
 * Commands parse flags and call services (the local install: a data directory, or a PostgreSQL
 * database with `--database-url` and `--blob-dir`) or the API (`--server`).
 */
import { Command, CommanderError } from 'commander';
import { appVersion } from '../server/paths.js';
import { registerAdjustments } from './commands/adjustments.js';
import { registerAudit } from './commands/audit.js';
import { registerBackup } from './commands/backup.js';
import { registerBulkUpload } from './commands/bulk-upload.js';
import { registerCompletion } from './commands/completion.js';
import { registerExport } from './commands/export.js';
import { registerFunds } from './commands/funds.js';
import { registerImport } from './commands/import.js';
import { registerInit } from './commands/init.js';
import { registerMappings } from './commands/mappings.js';
import { registerMigrate } from './commands/migrate.js';
import { registerOpenApi } from './commands/openapi.js';
import { registerReference } from './commands/reference.js';
import { registerRestore } from './commands/restore.js';
import { registerServe } from './commands/serve.js';
import { registerTest } from './commands/test.js';
import { registerTpa } from './commands/tpa.js';
import { registerChasing } from './commands/chasing.js';
import { registerScorecard } from './commands/scorecard.js';
import { registerUsers } from './commands/users.js';
import { registerWorker } from './commands/worker.js';
import { addExamples } from './examples.js';
import { EXIT, exitCodeOf, printError } from './output.js';

/** Builds the program (exported for tests). */
export function buildProgram(): Command {
  const program = new Command('fund-audit')
    .description('Fund Audit: fund audit requests, TPA data pipeline and work papers')
    .version(appVersion())
    .option('-d, --data-dir <dir>', 'data directory (default FUND_AUDIT_DATA_DIR or ./.data)')
    .option(
      '--database-url <url>',
      "a PostgreSQL database (postgres://...) instead of the data directory's SQLite; needs --blob-dir (or FUND_AUDIT_DATABASE_URL)",
    )
    .option('--blob-dir <dir>', 'root of the blob store, on PostgreSQL the directory every node shares (or FUND_AUDIT_BLOB_DIR; default <data dir>/blobs)')
    .option('--server <url>', 'work on a running server instead of the local data directory (or FUND_AUDIT_SERVER)')
    .option('--token <key>', 'API key or session token for --server (or FUND_AUDIT_TOKEN)')
    .option('--json', 'machine-readable output')
    .showHelpAfterError()
    // each command's help lists the global options too (--data-dir, --database-url, --blob-dir, ...)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();
  registerServe(program);
  registerInit(program);
  registerUsers(program);
  registerOpenApi(program);
  registerBulkUpload(program);
  registerImport(program);
  registerMappings(program);
  registerTpa(program);
  registerFunds(program);
  registerAdjustments(program);
  registerExport(program);
  registerTest(program);
  registerWorker(program);
  registerBackup(program);
  registerRestore(program);
  registerMigrate(program);
  registerAudit(program);
  registerReference(program);
  registerChasing(program);
  registerScorecard(program);
  registerCompletion(program);
  addExamples(program);
  return program;
}

/** Runs the CLI with argv; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  // `fund-audit ... | head` closes the pipe early: stop quietly instead of crashing
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return EXIT.usage;
    }
    printError(err, argv.includes('--json'));
    return exitCodeOf(err);
  }
}
