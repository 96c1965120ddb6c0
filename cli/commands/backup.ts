/** `fund-audit backup --to FILE`: a consistent backup of the data directory, also while a server runs on it. */
import type { Command } from 'commander';
import { blobRoot } from '../../server/config.js';
import { requireDataDir } from '../../server/data-dir.js';
import { createBackup } from '../../server/services/backup/backup.js';
import { globals, localConfig } from '../global.js';
import { output } from '../output.js';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('Back up the data directory (database, blob store, settings) into one zip with a manifest of hashes; the server may keep running')
    .requiredOption('--to <file>', 'the backup file to write (.zip)')
    .addHelpText('after', '\nExample:\n  fund-audit backup -d /srv/fund-audit --to /backups/fund-audit-$(date +%F).zip')
    .action(async (opts: { to: string }, cmd: Command) => {
      const g = globals(cmd);
      const config = localConfig(g);
      // on PostgreSQL createBackup refuses, naming pg_dump
      if (!config.databaseUrl) requireDataDir(g.dataDir);
      const summary = await createBackup(
        { dataDir: config.dataDir, dbName: config.dbName, blobDir: blobRoot(config), databaseUrl: config.databaseUrl },
        opts.to,
      );
      output(summary, Boolean(g.json), () => {
        process.stdout.write(
          `Backup written to ${summary.file} (${mb(summary.bytes)}): database ${mb(summary.databaseBytes)} at schema version ${summary.schemaVersion}, ` +
            `${summary.blobs} blob(s) ${mb(summary.blobBytes)}.\n`,
        );
        if (summary.damagedBlobs.length)
          process.stderr.write(`Warning: ${summary.damagedBlobs.length} blob(s) no longer match their hash: ${summary.damagedBlobs.slice(0, 5).join(', ')}\n`);
      });
    });
}
