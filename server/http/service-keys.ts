/**
 * Scopes the key generator's service keys (`server/services/auth/service-scopes.ts`): a call made
 * with a token of a service user (its API key, or a download or socket token asked for with it)
 * is refused with 403 unless that service needs it. Runs before the route, which still checks the
 * token and the role.
 */
import type { Middleware } from 'h3';
import type { AppContext } from '../context.js';
import { ForbiddenError } from '../errors.js';
import { serviceDenyReason, serviceOfEmail } from '../services/auth/service-scopes.js';
import { tokenOwnerOf } from '../services/auth/tokens.js';
import { SERVICE_USER_DOMAIN } from '../services/users/users.js';
import { errorResponse } from './envelope.js';
import { fullPath, type RouteDef } from './route.js';

/** A matcher from a request to its route definition (`:param` segments match one segment). */
function routeMatcher(routes: RouteDef[]): (method: string, pathname: string) => RouteDef | undefined {
  const compiled = routes.map((def) => ({
    def,
    method: def.method,
    re: new RegExp(
      `^${fullPath(def)
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:\w+/g, '[^/]+')}/?$`,
    ),
  }));
  return (method, pathname) => compiled.find((c) => c.method === method && c.re.test(pathname))?.def;
}

/** The middleware that refuses service keys the calls their service does not need. */
export function serviceKeyScopes(ctx: AppContext, routes: RouteDef[]): Middleware {
  const match = routeMatcher(routes);
  return async (event, next) => {
    const url = new URL(event.req.url);
    if (!url.pathname.startsWith('/api/')) return next();
    const token = event.req.headers.get('x-access-token') ?? url.searchParams.get('token');
    const owner = token ? await tokenOwnerOf(ctx, token) : null;
    const service = owner ? serviceOfEmail(owner.email, SERVICE_USER_DOMAIN) : null;
    if (!service) return next();
    const def = match(event.req.method, url.pathname);
    if (!def) return next();
    const reason = serviceDenyReason(service, `${def.method} ${fullPath(def)}`, def.group);
    return reason ? errorResponse(new ForbiddenError(reason), ctx.log, { route: fullPath(def) }) : next();
  };
}
