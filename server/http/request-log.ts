/**
 * One log line per request: request id (also answered as `x-request-id`), client IP, user id,
 * route, status and duration. The client IP is the connection's address; `X-Forwarded-For` is
 * believed only when that address is one of `trustedProxies` (then the rightmost address in it
 * that is not a trusted proxy is the client). API and metrics requests log at `info`, UI files at
 * `debug`.
 */
import { randomUUID } from 'node:crypto';
import type { H3Event, Middleware } from 'h3';
import type { AppContext } from '../context.js';
import { clientIp, isTrustedProxy, parseTrustedProxies, plainAddress } from '../lib/proxies.js';

/** What a route handler tells the request log about a request (set by `mountRoutes`). */
export interface RequestNote {
  /** The route pattern, e.g. `/api/v2.0/fund/:id`. */
  route?: string;
  userId?: number;
}

/** What is known of a request once it is answered. */
export interface RequestInfo {
  id: string;
  ip: string | undefined;
  method: string;
  /** Route pattern for API routes; `/metrics`; `unknown` for other API paths; `ui` for the web UI's files. */
  route: string;
  url: string;
  status: number;
  userId: number | undefined;
  /** Duration in seconds. */
  seconds: number;
}

const notes = new WeakMap<H3Event, RequestNote>();

/** Records the route and user of a request for its log line and metrics. */
export function noteRequest(event: H3Event, note: RequestNote): void {
  notes.set(event, { ...notes.get(event), ...note });
}

/**
 * The middleware: assigns the request id, answers it in `x-request-id`, logs the request when it
 * is answered and passes what it knows to `observers` (metrics).
 */
export function requestLog(ctx: AppContext, observers: Array<(info: RequestInfo) => void> = []): Middleware {
  const proxies = parseTrustedProxies(ctx.config.trustedProxies);
  return async (event, next) => {
    const started = performance.now();
    const remote = (event.req as { ip?: string }).ip;
    const peerTrusted = remote !== undefined && isTrustedProxy(proxies, plainAddress(remote));
    const given = event.req.headers.get('x-request-id');
    const id = peerTrusted && given && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    const ip = clientIp(remote, event.req.headers.get('x-forwarded-for'), proxies);
    event.res.headers.set('x-request-id', id);
    let result: unknown;
    let status = 500;
    try {
      result = await next();
      status = result instanceof Response ? result.status : (event.res.status ?? 200);
      if (result instanceof Response && !result.headers.has('x-request-id')) {
        try {
          result.headers.set('x-request-id', id);
        } catch {
          // a response with immutable headers: h3 still sends event.res.headers
        }
      }
      return result;
    } finally {
      const url = new URL(event.req.url);
      const note = notes.get(event) ?? {};
      const path = url.pathname;
      const route = note.route ?? (path === '/metrics' ? path : path.startsWith('/api/') ? 'unknown' : 'ui');
      const info: RequestInfo = {
        id,
        ip,
        method: event.req.method,
        route,
        url: path,
        status,
        userId: note.userId,
        seconds: (performance.now() - started) / 1000,
      };
      const line = { reqId: id, ip, userId: info.userId, method: info.method, route, url: path, status, ms: Math.round(info.seconds * 1000) };
      if (route === 'ui') ctx.log.debug(line, 'request');
      else ctx.log.info(line, 'request');
      for (const observe of observers) observe(info);
    }
  };
}
