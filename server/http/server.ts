/**
 * Starts the HTTP(S) + WebSocket server of a context on a host and port (0 picks a free port), and
 * the separate metrics listener when `metricsPort` is set.
 */
import { serve } from 'crossws/server/node';
import type { AppContext } from '../context.js';
import { createApp } from './app.js';
import { underBasePath } from './base-path.js';
import { startMetricsServer } from './metrics.js';
import { proxyWarning } from './rate-limit.js';
import { createSocketHooks } from './ws.js';

export interface RunningServer {
  /** Base URL with the base path, e.g. http://127.0.0.1:8080 or http://127.0.0.1:8080/fund-audit */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens and resolves once the port is bound. */
export async function startServer(
  ctx: AppContext,
  opts: { host: string; port: number; heartbeatMs?: number; tls?: { cert: string; key: string } },
): Promise<RunningServer> {
  const warning = proxyWarning(ctx.config);
  if (warning) ctx.log.warn(warning);
  const app = createApp(ctx);
  const socket = createSocketHooks(ctx, opts.heartbeatMs);
  const fetch = underBasePath(ctx.config.basePath ?? '', (request) => app.fetch(request));
  const server = serve({
    fetch,
    websocket: socket.hooks,
    hostname: opts.host,
    port: opts.port,
    silent: true,
    gracefulShutdown: false,
    tls: opts.tls,
  });
  await server.ready();
  // a metrics port that cannot be taken (in use) fails the start: the main listener closes first
  const metrics = await startMetricsServer(ctx).catch(async (err: unknown) => {
    await server.close(true);
    throw err;
  });
  const address = server.node?.server?.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${host}:${port}${ctx.config.basePath ?? ''}`,
    port,
    close: async () => {
      socket.close();
      for (const peer of socket.peers) peer.close();
      await server.close(true);
      if (metrics) {
        metrics.closeAllConnections();
        await new Promise<void>((resolve) => metrics.close(() => resolve()));
      }
    },
  };
}
