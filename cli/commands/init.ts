/** `fund-audit init`: sets up a new data directory (database, administrator, demo data unless refused). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { bootstrap } from '../../server/bootstrap.js';
import { loadConfig } from '../../server/config.js';
import { createContext } from '../../server/context.js';
import { output } from '../output.js';
import { globals } from '../global.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Create a data directory: its database, the administrator and (unless --no-demo-data) the demo data')
    .option('--no-demo-data', 'do not load demo data')
    .addHelpText('after', '\nExample:\n  fund-audit init -d /srv/fund-audit --no-demo-data')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const config = loadConfig({ dataDir: g.dataDir, flags: { seedDemoData: opts.demoData === false ? false : undefined } });
      const existed = existsSync(join(config.dataDir, config.dbName));
      const ctx = await createContext({ config, terminalLog: false });
      try {
        const boot = await bootstrap(ctx);
        const result = { dataDir: config.dataDir, created: !existed, schemaVersion: ctx.schemaVersion, admin: boot.admin.email, demoData: boot.demoSeeded };
        output(result, Boolean(g.json), () => {
          process.stdout.write(
            existed
              ? `${config.dataDir} is already a Fund Audit data directory (schema version ${ctx.schemaVersion}); nothing changed.\n`
              : `Created the data directory ${config.dataDir} (schema version ${ctx.schemaVersion}, administrator ${boot.admin.email}${boot.demoSeeded ? ', demo data loaded' : ''}).\n` +
                  `Start it with: fund-audit serve -d ${config.dataDir}\n`,
          );
        });
      } finally {
        ctx.close();
      }
    });
}
