/**
 * Single sign-on through OpenID Connect (spec: /authenticate goes to the identity provider; the
 * callback continues through /redeemToken, /login and the privacy notice; no role -> /signup; a
 * rejected sign-in -> /unauthorized). The browser navigates to these addresses; they answer with
 * redirects, not the JSON envelope. The flow's state is bound to the browser by an HttpOnly cookie.
 */
import type { H3Event } from 'h3';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { finishSsoSignIn, ssoEnabled, ssoRedirectUri, startSsoSignIn } from '../../services/auth/oidc.js';
import { defineRoute } from '../route.js';

const COOKIE = 'fa_sso';

/** A path of the UI under the server's base path. */
function uiPath(ctx: AppContext, path: string): string {
  return `${ctx.config.basePath ?? ''}${path}`;
}

function redirect(location: string, cookie?: string): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  if (cookie) headers.append('set-cookie', cookie);
  return new Response(null, { status: 302, headers });
}

/** The flow cookie: HttpOnly, SameSite=Lax (sent on the provider's top-level redirect back), Secure over https. */
function flowCookie(ctx: AppContext, event: H3Event, value: string, maxAgeSeconds: number): string {
  const secure = (ctx.config.publicUrl ?? event.req.url).startsWith('https:') ? '; Secure' : '';
  return `${COOKIE}=${value}; Path=${ctx.config.basePath ?? ''}/api/sso; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

function cookieValue(event: H3Event): string | null {
  const header = event.req.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=') || null;
  }
  return null;
}

export const ssoRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sso/providers',
    base: 'api',
    group: 'public',
    tag: 'auth',
    summary: 'How this server signs users in: oidc true when /authenticate goes to an OpenID Connect identity provider',
    response: z.strictObject({ oidc: z.boolean(), redirectUri: z.string().nullable() }),
    handler: ({ ctx, event }) => ({
      oidc: ssoEnabled(ctx.config),
      redirectUri: ssoEnabled(ctx.config) ? ssoRedirectUri(ctx.config, new URL(event.req.url).origin) : null,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/sso/authorize',
    base: 'api',
    group: 'public',
    tag: 'auth',
    raw: true,
    rawAnswers: { '302': "Redirect to the identity provider's sign-in page, or to the product's page saying why not" },
    summary: 'Starts single sign-on: redirects to the identity provider (Authorization Code with PKCE)',
    handler: async ({ ctx, event }) => {
      if (!ssoEnabled(ctx.config)) return redirect(uiPath(ctx, '/authenticate'));
      try {
        const { url, state } = await startSsoSignIn(ctx, new URL(event.req.url).origin);
        return redirect(url, flowCookie(ctx, event, state, 600));
      } catch (err) {
        ctx.log.warn({ err }, 'single sign-on could not start');
        return redirect(uiPath(ctx, '/unauthorized'));
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/sso/callback',
    base: 'api',
    group: 'public',
    tag: 'auth',
    raw: true,
    rawAnswers: { '302': 'Redirect to /redeemToken (signed in), /signup (no role yet) or /unauthorized (refused)' },
    summary: "The identity provider's redirect back: continues to /redeemToken, or /signup (no role), or /unauthorized (refused)",
    handler: async ({ ctx, event }) => {
      const clear = flowCookie(ctx, event, '', 0);
      if (!ssoEnabled(ctx.config)) return redirect(uiPath(ctx, '/unauthorized'), clear);
      try {
        const outcome = await finishSsoSignIn(ctx, cookieValue(event), new URL(event.req.url));
        return redirect(uiPath(ctx, outcome.kind === 'signed-in' ? outcome.redeemPath : '/signup'), clear);
      } catch (err) {
        ctx.log.warn({ reason: (err as Error).message }, 'single sign-on refused');
        return redirect(uiPath(ctx, '/unauthorized'), clear);
      }
    },
  }),
];
