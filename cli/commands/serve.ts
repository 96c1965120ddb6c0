/**
 * `fund-audit serve`: the server with the UI on the data directory's SQLite database, or with
 * `--database-url` one node of an install on PostgreSQL (any number of `serve` and `worker` nodes
 * on one database and one shared blob directory; events reach every node through LISTEN/NOTIFY).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError, type AppConfig } from '../../server/config.js';
import { bootstrap } from '../../server/bootstrap.js';
import { openContext } from '../../server/open-context.js';
import { startNodeEvents } from '../../server/queue/node-events.js';
import { startServer } from '../../server/http/server.js';
import { publicBaseUrl } from '../../server/public-url.js';
import { startBackupSchedule } from '../../server/services/backup/schedule.js';
import { startChaseSchedule } from '../../server/services/chasing/jobs.js';
import { setWorkerProbe } from '../../server/services/health/health.js';
import { registerNode } from '../../server/queue/nodes.js';
import { startRuntime } from '../../server/runtime.js';
import { recoverInterruptedRuns } from '../../server/services/test-runner/test-runner.js';
import { queueDueDemoDeliveries } from '../../server/services/demo/deliveries.js';
import { appVersion } from '../../server/paths.js';
import { redactUrl } from '../../server/db/client-pg.js';
import { signinLink } from '../../server/services/auth/session.js';
import { warmReadPool } from '../../server/threads/pools.js';
import { globals, installFlags } from '../global.js';

/** The TLS files of the configuration, checked. @throws ConfigError when only one is set or a file is missing */
function tlsFiles(config: AppConfig): { cert: string; key: string } | undefined {
  const { tlsCert, tlsKey } = config;
  if (!tlsCert && !tlsKey) return undefined;
  if (!tlsCert || !tlsKey) throw new ConfigError(`TLS needs both tlsCert and tlsKey (--tls-cert and --tls-key); only ${tlsCert ? 'tlsCert' : 'tlsKey'} is set`);
  for (const [name, file] of [
    ['tlsCert', tlsCert],
    ['tlsKey', tlsKey],
  ]) {
    if (!existsSync(file)) throw new ConfigError(`${name}: the file ${file} does not exist`);
  }
  return { cert: resolve(tlsCert), key: resolve(tlsKey) };
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Start the server (API, live socket and web UI) on the data directory, or as one node of a PostgreSQL install (--database-url, --blob-dir)')
    .option('-p, --port <port>', 'port to listen on (0 picks a free port; default 8080)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--public-url <url>', 'base URL printed in sign-in links (default http://<host>:<port>)')
    .option('--base-path <path>', 'serve everything under this path behind a reverse proxy, e.g. /fund-audit (default: the root)')
    .option('--no-demo-data', 'do not load demo data on first start')
    .option('--no-signin-link', 'do not print a sign-in link for the administrator')
    .option('--demo', 'enable demo mode')
    .option('--dev-tools', 'enable developer tools')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
    .option('--tls-cert <file>', 'TLS certificate (PEM) to serve HTTPS; with --tls-key')
    .option('--tls-key <file>', 'TLS private key (PEM) to serve HTTPS; with --tls-cert')
    .option('-w, --workers <n>', 'job worker threads (default FUND_AUDIT_WORKERS, else cores - 1, at least 1; 0 runs no jobs here)')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openContext({
        dataDir: g.dataDir,
        flags: {
          port: opts.port,
          host: opts.host,
          publicUrl: opts.publicUrl,
          basePath: opts.basePath,
          logLevel: opts.logLevel,
          seedDemoData: opts.demoData === false ? false : undefined,
          demo: opts.demo,
          devToolsEnabled: opts.devTools,
          workers: opts.workers,
          tlsCert: opts.tlsCert,
          tlsKey: opts.tlsKey,
          ...installFlags(g),
        },
      });
      const tls = tlsFiles(ctx.config);
      // refuses at once when another server uses the data directory, before anything is changed
      const node = await registerNode(ctx, 'serve', { workers: ctx.config.workers });
      const boot = await bootstrap(ctx);
      // the demo deliveries of a first start are queued here, run by the job threads started below
      const demoFiles = await queueDueDemoDeliveries(ctx, boot.admin.id);
      await recoverInterruptedRuns(ctx);
      const runtime = startRuntime(ctx, { nodeId: node.id });
      setWorkerProbe(ctx, { expected: ctx.config.workers, running: () => runtime.threads.threadIds().length });
      const stopBackups = startBackupSchedule(ctx);
      const stopChasing = startChaseSchedule(ctx);
      const events = await startNodeEvents(ctx, node.id, 'serve');
      const server = await startServer(ctx, { host: ctx.config.host, port: ctx.config.port, tls });
      await node.setUrl(server.url);
      // the readers load and open their connections while the first users sign in
      void warmReadPool(ctx);
      const { url: base, note } = publicBaseUrl(ctx.config, server);
      const lines = [`Fund Audit ${appVersion()} listening on ${server.url}`, `Data directory: ${ctx.config.dataDir}`];
      if (ctx.config.databaseUrl) lines.push(`Database: ${redactUrl(ctx.config.databaseUrl)}`, `Blob directory: ${ctx.blobs.root}`);
      if (note) lines.push(note);
      if (opts.signinLink !== false) {
        const link = await signinLink(ctx, boot.admin, base);
        lines.push(`Sign in as ${boot.admin.email} with this one-time link (valid until ${link.expiresAt}):`, `  ${link.url}`);
      }
      if (boot.demoSeeded) lines.push('Demo data loaded.');
      if (demoFiles) lines.push(`${demoFiles} demo files are going through the pipeline: open a fund for its work papers.`);
      process.stdout.write(lines.join('\n') + '\n');
      ctx.log.info({ url: server.url, dataDir: ctx.config.dataDir, workers: ctx.config.workers, node: node.id }, 'server started');
      const stop = async (signal: string) => {
        ctx.log.info({ signal }, 'server stopping');
        stopBackups?.();
        stopChasing();
        await server.close();
        await runtime.stop();
        await events.stop();
        await node.unregister();
        ctx.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
    });
}
