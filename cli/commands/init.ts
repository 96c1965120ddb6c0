/**
 * `fund-audit init`: sets up a new install: a data directory (its SQLite database) or, with
 * `--database-url` and `--blob-dir`, a PostgreSQL database and its shared blob directory; then the
 * reference data, the first administrator and the demo data unless refused. Running it again
 * changes nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { bootstrap } from '../../server/bootstrap.js';
import { redactUrl } from '../../server/db/client-pg.js';
import { openContext } from '../../server/open-context.js';
import { output } from '../output.js';
import { globals, localConfig } from '../global.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'Create a data directory, or prepare a PostgreSQL database (--database-url, --blob-dir): its schema, the administrator and (unless --no-demo-data) the demo data',
    )
    .option('--no-demo-data', 'do not load demo data')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const config = localConfig(g, { seedDemoData: opts.demoData === false ? false : undefined });
      const sqliteExisted = !config.databaseUrl && existsSync(join(config.dataDir, config.dbName));
      // migrates the database on opening (on PostgreSQL under an advisory lock, as every node does)
      const ctx = await openContext({ config, terminalLog: false });
      try {
        const boot = await bootstrap(ctx);
        const existed = config.databaseUrl ? !boot.adminCreated : sqliteExisted;
        const database = config.databaseUrl ? redactUrl(config.databaseUrl) : undefined;
        const result = {
          dataDir: config.dataDir,
          ...(database ? { database, blobDir: ctx.blobs.root } : {}),
          created: !existed,
          schemaVersion: ctx.schemaVersion,
          admin: boot.admin.email,
          demoData: boot.demoSeeded,
        };
        output(result, Boolean(g.json), () => process.stdout.write(initText(result)));
      } finally {
        ctx.close();
      }
    });
}

/** What `init` did, as printed: created or already there, the schema version, the administrator and how to start. */
function initText(r: {
  dataDir: string;
  database?: string;
  blobDir?: string;
  created: boolean;
  schemaVersion: number;
  admin: string;
  demoData: boolean;
}): string {
  const done = `schema version ${r.schemaVersion}, administrator ${r.admin}${r.demoData ? ', demo data loaded' : ''}`;
  if (!r.database)
    return r.created
      ? `Created the data directory ${r.dataDir} (${done}).\nStart it with: fund-audit serve -d ${r.dataDir}\n`
      : `${r.dataDir} is already a Fund Audit data directory (schema version ${r.schemaVersion}); nothing changed.\n`;
  if (!r.created) return `${r.database} is already a Fund Audit database (schema version ${r.schemaVersion}); nothing changed.\n`;
  return (
    `Prepared the PostgreSQL database ${r.database} (${done}); blobs in ${r.blobDir}.\n` +
    `Start each node with: fund-audit --database-url <url> --blob-dir ${r.blobDir} serve (or worker)\n`
  );
}
