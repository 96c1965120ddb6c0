/**
 * The h3 application: every API route, a JSON 404 for unknown API paths, and the UI as a catch-all
 * GET after them (in `app.use` it would shadow `/api` and `/ws`).
 */
import { H3 } from 'h3';
import type { AppContext } from '../context.js';
import { NotFoundError } from '../errors.js';
import { withTokenLookups } from '../services/auth/tokens.js';
import { errorResponse } from './envelope.js';
import { describeMountedRoutes } from './openapi.js';
import { mountOperations } from './operations.js';
import { rateLimits } from './rate-limit.js';
import { mountRoutes, type RouteDef } from './route.js';
import { allRoutes } from './routes/index.js';
import { securityHeaders } from './security-headers.js';
import { signInBlockedPage } from './sign-in-blocked.js';
import { serveWeb } from './static.js';

/** Builds the h3 app for a context. */
export function createApp(ctx: AppContext, routes: RouteDef[] = allRoutes): H3 {
  const app = new H3({ silent: true });
  // the request's token is looked up once, whichever of the steps below asks first
  app.use((_event, next) => withTokenLookups(() => next()));
  app.use(securityHeaders(ctx.config));
  // outside the limits: a refused sign-in navigation gets a page saying why, not their JSON
  app.use(signInBlockedPage(ctx));
  app.use(rateLimits(ctx));
  mountOperations(app, ctx);
  mountRoutes(app, ctx, routes);
  // the served OpenAPI document describes the product's routes, whatever a test mounts besides
  describeMountedRoutes(allRoutes);
  app.all('/api/**', (event) => errorResponse(new NotFoundError(`No such API route: ${event.req.method} ${new URL(event.req.url).pathname}`), ctx.log, {}));
  app.get('/**', (event) => serveWeb(new URL(event.req.url).pathname, event.req.headers.get('accept-encoding'), ctx.config.basePath));
  return app;
}
