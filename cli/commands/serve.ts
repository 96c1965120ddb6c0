/** `fund-audit serve`: the server with the UI on the data directory's SQLite database. */
import type { Command } from 'commander';
import { bootstrap } from '../../server/bootstrap.js';
import { createContext } from '../../server/context.js';
import { startServer } from '../../server/http/server.js';
import { registerNode } from '../../server/jobs/nodes.js';
import { tailEventsFromDb } from '../../server/jobs/relay.js';
import { startRuntime } from '../../server/runtime.js';
import { recoverInterruptedRuns } from '../../server/services/test-runner/test-runner.js';
import { appVersion } from '../../server/paths.js';
import { signinLink } from '../../server/services/auth/session.js';
import { globals } from '../global.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Start the server (API, live socket and web UI) on the data directory')
    .option('-p, --port <port>', 'port to listen on (0 picks a free port; default 8080)')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--public-url <url>', 'base URL printed in sign-in links (default http://<host>:<port>)')
    .option('--no-demo-data', 'do not load demo data on first start')
    .option('--no-signin-link', 'do not print a sign-in link for the administrator')
    .option('--demo', 'enable demo mode')
    .option('--dev-tools', 'enable developer tools')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
    .option('-w, --workers <n>', 'job worker threads (default FUND_AUDIT_WORKERS, else cores - 1, at least 1; 0 runs no jobs here)')
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await createContext({
        dataDir: g.dataDir,
        flags: {
          port: opts.port,
          host: opts.host,
          publicUrl: opts.publicUrl,
          logLevel: opts.logLevel,
          seedDemoData: opts.demoData === false ? false : undefined,
          demo: opts.demo,
          devToolsEnabled: opts.devTools,
          workers: opts.workers,
        },
      });
      // refuses at once when another server uses the data directory, before anything is changed
      const node = registerNode(ctx, 'serve', { workers: ctx.config.workers });
      const boot = bootstrap(ctx);
      recoverInterruptedRuns(ctx);
      const runtime = startRuntime(ctx, { nodeId: node.id });
      const untail = tailEventsFromDb(ctx, node.id);
      const server = await startServer(ctx, { host: ctx.config.host, port: ctx.config.port });
      node.setUrl(server.url);
      const base = ctx.config.publicUrl ?? server.url;
      const lines = [`Fund Audit ${appVersion()} listening on ${server.url}`, `Data directory: ${ctx.config.dataDir}`];
      if (opts.signinLink !== false) {
        const link = signinLink(ctx, boot.admin, base);
        lines.push(`Sign in as ${boot.admin.email} with this one-time link (valid until ${link.expiresAt}):`, `  ${link.url}`);
      }
      if (boot.demoSeeded) lines.push('Demo data loaded.');
      process.stdout.write(lines.join('\n') + '\n');
      ctx.log.info({ url: server.url, dataDir: ctx.config.dataDir, workers: ctx.config.workers, node: node.id }, 'server started');
      const stop = async (signal: string) => {
        ctx.log.info({ signal }, 'server stopping');
        await server.close();
        untail();
        await runtime.stop();
        node.unregister();
        ctx.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
    });
}
