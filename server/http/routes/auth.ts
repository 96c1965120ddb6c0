/** Sign-in, session, privacy notice, view switch and socket tokens (spec section 7, sign-in calls). */
import { z } from 'zod';
import { ssoLogoutUrl } from '../../services/auth/oidc.js';
import { acceptPrivacy, getSession, logout, redeemSigninToken, switchView } from '../../services/auth/session.js';
import { issueToken, tokenIdOf, viewRoleOf } from '../../services/auth/tokens.js';
import { defineRoute } from '../route.js';
import { sessionSchema, sessionUserSchema } from '../schemas/session.js';

export const authRoutes = [
  defineRoute({
    method: 'POST',
    path: '/data-layer/navigate',
    group: 'session',
    tag: 'auth',
    summary: 'Page information for analytics {page, path}: written to the server log (debug) with the user; answers {recorded: true}',
    body: z.object({ page: z.string().min(1).max(100), path: z.string().min(1).max(2000) }),
    response: z.strictObject({ recorded: z.literal(true) }),
    handler: ({ ctx, user, body }) => {
      ctx.log.debug({ userId: user.id, role: user.role, page: body.page, path: body.path }, 'navigate');
      return { recorded: true };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/support-contact',
    base: 'api',
    group: 'public',
    tag: 'auth',
    summary: 'The support contact {supportEmail} (null when not configured): /signup shows it to users without access',
    response: z.strictObject({ supportEmail: z.string().nullable() }),
    handler: ({ ctx }) => ({ supportEmail: ctx.config.supportEmail ?? null }),
  }),
  defineRoute({
    method: 'POST',
    path: '/sso/redeemToken',
    base: 'api',
    group: 'public',
    tag: 'auth',
    summary: 'Exchange a one-time sign-in link token for a session token',
    body: z.object({ token: z.string().min(1, 'is required') }),
    response: z.strictObject({ token: z.string(), expiresAt: z.string() }),
    handler: ({ ctx, body }) => redeemSigninToken(ctx, body.token),
  }),
  defineRoute({
    method: 'POST',
    path: '/sso/login',
    base: 'api',
    group: 'session',
    tag: 'auth',
    summary: 'The session of the token: {user, config}',
    response: sessionSchema,
    handler: ({ ctx, user }) => getSession(ctx, user),
  }),
  defineRoute({
    method: 'POST',
    path: '/sso/logout',
    base: 'api',
    group: 'session',
    tag: 'auth',
    summary: 'Revoke the session token; endSessionUrl: where the browser ends a single sign-on session at the identity provider',
    response: z.strictObject({ loggedOut: z.literal(true), endSessionUrl: z.string().nullable() }),
    handler: async ({ ctx, event, token }) => {
      const { idToken } = token ? await logout(ctx, token) : { idToken: null };
      return { loggedOut: true, endSessionUrl: await ssoLogoutUrl(ctx, idToken, new URL(event.req.url).origin) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/privacy/accept',
    group: 'session',
    tag: 'auth',
    summary: 'Record acceptance of the current privacy notice version',
    body: z.object({ version: z.string().min(1).optional() }),
    response: z.strictObject({ user: sessionUserSchema }),
    handler: async ({ ctx, user, body }) => ({ user: await acceptPrivacy(ctx, user, body.version) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/user/switch-role',
    group: 'session',
    tag: 'auth',
    summary: 'Switch between the delivery and auditor views, keeping originalRole',
    body: z.object({ view: z.enum(['auditor', 'delivery']) }),
    response: sessionSchema,
    handler: ({ ctx, user, token, body }) => switchView(ctx, user, token ?? '', body.view),
  }),
  defineRoute({
    method: 'GET',
    path: '/ws-token',
    group: 'session',
    tag: 'auth',
    summary: 'A short-lived (60 s) token to open or reopen the live socket',
    response: z.strictObject({ token: z.string() }),
    handler: async ({ ctx, user, token }) => ({
      // the socket belongs to the session (or key) it is asked for with: it closes when that ends
      token: (
        await issueToken(ctx, user.id, 'socket', 60_000, undefined, { viewRole: viewRoleOf(user), parentTokenId: token ? await tokenIdOf(ctx, token) : null })
      ).token,
    }),
  }),
];
