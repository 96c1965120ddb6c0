/**
 * `fund-audit worker`: job worker threads on a data directory, without HTTP. Run it beside a
 * `serve` on the same data directory (or on the same PostgreSQL database, `--database-url`, from
 * any machine sharing the blob directory) for more pipeline throughput; its events reach the
 * servers' sockets through the database (server/queue/node-events.ts). Stops on SIGINT / SIGTERM after
 * the running jobs finish.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { AppContext } from '../../server/context.js';
import { requireDataDir } from '../../server/data-dir.js';
import { redactUrl } from '../../server/db/client-pg.js';
import { baseStoreOf, storeOf } from '../../server/db/dialect.js';
import { NotFoundError } from '../../server/errors.js';
import { registerNode } from '../../server/queue/nodes.js';
import { startNodeEvents } from '../../server/queue/node-events.js';
import { openContext } from '../../server/open-context.js';
import { startRuntime } from '../../server/runtime.js';
import { globals, localConfig } from '../global.js';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('Run pipeline job workers (no HTTP) beside a running server, on its data directory or its PostgreSQL database (--database-url, --blob-dir)')
    .option('-w, --workers <n>', 'job worker threads (default FUND_AUDIT_WORKERS, else cores - 1, at least 1)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
    .addHelpText('after', '\nBeside a server:\n  fund-audit serve -d /srv/fund-audit &\n  fund-audit worker -d /srv/fund-audit --workers 4')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const config = localConfig(g, { workers: opts.workers, logLevel: opts.logLevel });
      if (!config.databaseUrl) requireDataDir(g.dataDir);
      const ctx = await openContext({ config, rotateLog: false });
      if (!(await hasAdministrators(ctx))) {
        ctx.close();
        throw new NotFoundError(
          config.databaseUrl
            ? `The database ${redactUrl(config.databaseUrl)} is not set up yet: prepare it with \`fund-audit --database-url ... --blob-dir ... init\` (or start a \`serve\` on it) first`
            : `${ctx.config.dataDir} is not a Fund Audit data directory yet: start \`fund-audit serve -d ${ctx.config.dataDir}\` there first`,
        );
      }
      const workers = Math.max(1, ctx.config.workers);
      ctx.config.workers = workers;
      const node = await registerNode(ctx, 'worker', { workers });
      const events = await startNodeEvents(ctx, node.id, 'worker');
      const runtime = startRuntime(ctx, { nodeId: node.id, sweeper: false });
      const where = config.databaseUrl ? redactUrl(config.databaseUrl) : ctx.config.dataDir;
      process.stdout.write(`Fund Audit worker: ${workers} job thread(s) on ${where}\n`);
      ctx.log.info({ dataDir: ctx.config.dataDir, workers, node: node.id }, 'worker started');
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          ctx.log.info({ signal }, 'worker stopping');
          void runtime
            .stop()
            .then(() => events.stop())
            .then(() => node.unregister())
            .catch((err: unknown) => ctx.log.error({ err }, 'worker stop failed'))
            .finally(() => {
              ctx.close();
              resolve();
            });
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
    });
}

/** Whether the database was set up by a `serve` (it has its administrators). */
async function hasAdministrators(ctx: AppContext): Promise<boolean> {
  if (baseStoreOf(ctx).dialect === 'sqlite' && !existsSync(join(ctx.config.dataDir, ctx.config.dbName))) return false;
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select({ id: t.administrators.id }).from(t.administrators).limit(1);
  return row !== undefined;
}
