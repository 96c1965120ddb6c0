/** `fund-audit restore FILE --data-dir D`: puts a backup back, after checking it. */
import type { Command } from 'commander';
import { blobRoot } from '../../server/config.js';
import { ValidationError } from '../../server/errors.js';
import { restoreBackup } from '../../server/services/backup/restore.js';
import { globals, localConfig } from '../global.js';
import { output } from '../output.js';

export function registerRestore(program: Command): void {
  program
    .command('restore')
    .description('Restore a backup into a data directory (refused while a server uses it); checks every hash and the database first')
    .argument('<file>', 'a backup written by `fund-audit backup`')
    .option('--force', 'replace the install already in the data directory')
    .addHelpText('after', '\nThe blobs go to --blob-dir (default FUND_AUDIT_BLOB_DIR, the blobDir of config.json, else <data dir>/blobs).')
    .action(async (file: string, opts: { force?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      if (!g.dataDir && !process.env.FUND_AUDIT_DATA_DIR) throw new ValidationError('restore needs the data directory to restore into: pass --data-dir DIR');
      const config = localConfig(g);
      const summary = await restoreBackup(file, config.dataDir, {
        dbName: config.dbName,
        force: opts.force,
        blobDir: blobRoot(config),
        databaseUrl: config.databaseUrl,
      });
      output(summary, Boolean(g.json), () => {
        process.stdout.write(
          `Restored the backup of ${summary.createdAt} (Fund Audit ${summary.appVersion}, schema version ${summary.schemaVersion}) into ${summary.dataDir}: ` +
            `${summary.files} file(s) checked, ${summary.blobs} blob(s).\nStart it with: fund-audit serve -d ${summary.dataDir}\n`,
        );
        if (summary.missingBlobs.length)
          process.stderr.write(
            `Warning: the database refers to ${summary.missingBlobs.length} file(s) the backup did not hold: ${summary.missingBlobs.slice(0, 5).join(', ')}\n`,
          );
      });
    });
}
