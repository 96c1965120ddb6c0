/**
 * A refused sign-in the browser navigated to is answered with a page, not JSON: starting single
 * sign-on (`GET /api/sso/authorize`) and the identity provider's redirect back
 * (`GET /api/sso/callback`) are top-level navigations, so a 429 of the rate limits (rate-limit.ts)
 * becomes a redirect to the UI's `/sign-in-blocked` page, which says why and when to try again
 * (the limit's Retry-After, kept on the redirect too). The limits themselves are not changed here.
 */
import type { Middleware } from 'h3';
import { SIGN_IN_BLOCKED_PATH } from '../../rules/access.js';
import type { AppContext } from '../context.js';

/** Sign-in calls the browser navigates to (not fetched by the UI). */
const NAVIGATIONS = new Set(['GET /api/sso/authorize', 'GET /api/sso/callback']);

/**
 * The address of the blocked-sign-in page under the base path.
 * @param seconds the wait before trying again (Retry-After, whole seconds)
 * @param via how the user signs in: 'sso' (single sign-on) or 'link' (a one-time sign-in link)
 */
export function signInBlockedLocation(basePath: string | undefined, seconds: number, via: 'sso' | 'link'): string {
  return `${basePath ?? ''}${SIGN_IN_BLOCKED_PATH}?retryAfter=${seconds}&via=${via}`;
}

/** Middleware (mounted outside the rate limits): a 429 of a sign-in navigation becomes a 302 to the blocked-sign-in page. */
export function signInBlockedPage(ctx: AppContext): Middleware {
  return async (event, next) => {
    const res = await next();
    if (!(res instanceof Response) || res.status !== 429) return res;
    if (!NAVIGATIONS.has(`${event.req.method} ${new URL(event.req.url).pathname}`)) return res;
    const seconds = Math.max(1, Math.ceil(Number(res.headers.get('retry-after')) || 60));
    return new Response(null, {
      status: 302,
      headers: { location: signInBlockedLocation(ctx.config.basePath, seconds, 'sso'), 'retry-after': String(seconds), 'cache-control': 'no-store' },
    });
  };
}
