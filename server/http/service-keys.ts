/**
 * Scopes the key generator's service keys (`server/services/auth/service-scopes.ts`): a call
 * authenticated by a token of a service user (its API key, or a download or socket token asked
 * for with it) is refused with 403 unless that service needs it. Checked by the route itself on
 * the very token it authenticated (`route.ts`), so it holds on every route, downloads included,
 * whatever else the call carries; `tokenConflict` refuses a call carrying two different tokens.
 */
import type { User } from '../services/auth/tokens.js';
import { serviceDenyReason, serviceOfEmail } from '../services/auth/service-scopes.js';
import type { RouteGroup } from '../services/auth/permissions.js';
import { SERVICE_USER_DOMAIN } from '../services/users/users.js';

/**
 * Why the user of a verified token may not make a route's call, or null when it may (or is no
 * service user).
 * @param call `METHOD /full/path` of the route as the route table writes it; `group` its route group
 */
export function serviceKeyRefusal(call: string, group: RouteGroup, user: Pick<User, 'email'>): string | null {
  const service = serviceOfEmail(user.email, SERVICE_USER_DOMAIN);
  return service ? serviceDenyReason(service, call, group) : null;
}

/**
 * Whether a call carries two different tokens (the `x-access-token` header and `?token=`): such a
 * call is refused rather than authenticated by either, so a token placed beside another can never
 * decide which checks apply.
 */
export function tokenConflict(header: string | null, query: string | null): boolean {
  return Boolean(header && query && header !== query);
}
