/** `fund-audit restore FILE --data-dir D`: puts a backup back, after checking it. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { blobRoot, loadConfig } from '../../server/config.js';
import { ValidationError } from '../../server/errors.js';
import { restoreBackup } from '../../server/services/backup/restore.js';
import { globals } from '../global.js';
import { output } from '../output.js';

export function registerRestore(program: Command): void {
  program
    .command('restore')
    .description('Restore a backup into a data directory (refused while a server uses it); checks every hash and the database first')
    .argument('<file>', 'a backup written by `fund-audit backup`')
    .option('--force', 'replace the install already in the data directory')
    .option('--blob-dir <dir>', 'put the blobs here (default FUND_AUDIT_BLOB_DIR, the blobDir of config.json, else <data dir>/blobs)')
    .addHelpText('after', '\nExample:\n  fund-audit restore /backups/fund-audit-2026-01-31.zip --data-dir /srv/fund-audit-restored')
    .action(async (file: string, opts: { force?: boolean; blobDir?: string }, cmd: Command) => {
      const g = globals(cmd);
      if (!g.dataDir && !process.env.FUND_AUDIT_DATA_DIR) throw new ValidationError('restore needs the data directory to restore into: pass --data-dir DIR');
      const config = loadConfig({ dataDir: g.dataDir, flags: { blobDir: opts.blobDir && resolve(opts.blobDir) } });
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
