/**
 * What an operator needs of the HTTP app, mounted before the routes: the request log (request id,
 * client IP, user, route, status, duration), request metrics and `GET /metrics`, and `HEAD` on
 * the health paths.
 */
import type { H3 } from 'h3';
import type { AppContext } from '../context.js';
import { headHealth } from './health.js';
import { metricsOf, metricsResponse } from './metrics.js';
import { requestLog } from './request-log.js';

/** Mounts the request log, metrics and health HEAD on an app (before its routes). */
export function mountOperations(app: H3, ctx: AppContext): void {
  const metricsOn = Boolean(ctx.config.metricsKey || ctx.config.metricsPort);
  app.use(requestLog(ctx, metricsOn ? [metricsOf(ctx).observe] : []));
  app.use(headHealth(ctx));
  app.get('/metrics', (event) => metricsResponse(ctx, event.req.headers.get('authorization'), false));
}
