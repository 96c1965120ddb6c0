/**
 * `fund-audit worker`: job worker threads on a data directory, without HTTP. Run it beside a
 * `serve` on the same data directory for more pipeline throughput; its events reach the server's
 * sockets through the database (server/jobs/relay.ts). Stops on SIGINT / SIGTERM after the
 * running jobs finish.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { createContext } from '../../server/context.js';
import { requireDataDir } from '../../server/data-dir.js';
import { NotFoundError } from '../../server/errors.js';
import { registerNode } from '../../server/jobs/nodes.js';
import { relayEventsToDb } from '../../server/jobs/relay.js';
import { startRuntime } from '../../server/runtime.js';
import { globals } from '../global.js';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('Run pipeline job workers on the data directory (no HTTP), beside a running server')
    .option('-w, --workers <n>', 'job worker threads (default FUND_AUDIT_WORKERS, else cores - 1, at least 1)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
    .option('--blob-dir <dir>', "root of the blob store: the same as the server's (default <data dir>/blobs)")
    .addHelpText('after', '\nExample:\n  fund-audit serve -d /srv/fund-audit &\n  fund-audit worker -d /srv/fund-audit --workers 4')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      requireDataDir(g.dataDir);
      const ctx = await createContext({
        dataDir: g.dataDir,
        flags: { workers: opts.workers, logLevel: opts.logLevel, blobDir: opts.blobDir && resolve(opts.blobDir) },
        rotateLog: false,
      });
      if (!existsSync(join(ctx.config.dataDir, ctx.config.dbName)) || !ctx.db.$client.prepare('SELECT 1 FROM administrators LIMIT 1').get()) {
        ctx.close();
        throw new NotFoundError(
          `${ctx.config.dataDir} is not a Fund Audit data directory yet: start \`fund-audit serve -d ${ctx.config.dataDir}\` there first`,
        );
      }
      const workers = Math.max(1, ctx.config.workers);
      ctx.config.workers = workers;
      const node = registerNode(ctx, 'worker', { workers });
      const unrelay = relayEventsToDb(ctx, node.id);
      const runtime = startRuntime(ctx, { nodeId: node.id, sweeper: false });
      process.stdout.write(`Fund Audit worker: ${workers} job thread(s) on ${ctx.config.dataDir}\n`);
      ctx.log.info({ dataDir: ctx.config.dataDir, workers, node: node.id }, 'worker started');
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          ctx.log.info({ signal }, 'worker stopping');
          void runtime.stop().then(() => {
            unrelay();
            node.unregister();
            ctx.close();
            resolve();
          });
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
    });
}
