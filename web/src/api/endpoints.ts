/** Typed calls of the shell: sign-in, session, privacy, role switch, socket token, health, demo. */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';
import type { HealthPayload, RedeemPayload, SessionPayload, SessionUser, View } from './types';

/** Exchanges the one-time sign-in token for a session token (no redirects: the page handles failure). */
export function redeemToken(token: string): Promise<RedeemPayload> {
  return call('POST /api/sso/redeemToken', { body: { token } }, { anonymous: true, noAuthRedirect: true, suppressError: true });
}

/** Negotiates the session for the stored token (sign-in errors are not notified, spec section 8). */
export function login(): Promise<SessionPayload> {
  return call('POST /api/sso/login', { body: {} }, { suppressError: true, suppressSuccess: true });
}

/** Revokes the session token on the server; `endSessionUrl` ends a single sign-on session at the identity provider. */
export function logout(): Promise<{ loggedOut: boolean; endSessionUrl?: string | null }> {
  return call('POST /api/sso/logout', { body: {} }, { suppressError: true, noAuthRedirect: true, suppressSuccess: true });
}

/** How the server signs users in: `oidc` when /authenticate goes to an OpenID Connect identity provider. */
export function ssoProviders(): Promise<{ oidc: boolean }> {
  return call('GET /api/sso/providers', {}, { anonymous: true, noAuthRedirect: true, suppressError: true, suppressSuccess: true });
}

/** Records acceptance of the given privacy statement version. */
export function acceptPrivacy(version: string | undefined): Promise<{ user: SessionUser }> {
  return call('POST /api/v2.0/privacy/accept', { body: { version } });
}

/** Switches between the auditor and the delivery view; answers the new session. */
export function switchRole(view: View): Promise<SessionPayload> {
  return call('POST /api/v2.0/user/switch-role', { body: { view } });
}

/** A fresh short-lived token for the socket (background call: no notification, no redirect). */
export function wsToken(): Promise<{ token: string }> {
  return call('GET /api/v2.0/ws-token', {}, { suppressError: true, noAuthRedirect: true });
}

/** Server version and schema version. */
export function health(): Promise<HealthPayload> {
  return call('GET /api/health', {}, { suppressError: true, noAuthRedirect: true, anonymous: true });
}

/** Body of the demo calls (spec section 7). */
export const DEMO_BODY = { codes: ['demo_test'], tests: ['2'] } as const;

/** The server's demo state (spec section 3 "Demo state"), with what a removal would take now and what a step removed. */
export type DemoState = ApiResponse<'POST /api/v2.0/demo/step'>;

const demoBody = () => ({ codes: [...DEMO_BODY.codes], tests: [...DEMO_BODY.tests] });

export const demoCalls = {
  /** The state; a failure is notified only when asked (a page load stays quiet). */
  state: (opts: { notify?: boolean } = {}) => call('POST /api/v2.0/demo/step', { body: demoBody() }, { suppressError: !opts.notify }),
  fundRequest: () => call('POST /api/v2.0/demo/fund-request', { body: demoBody() }),
  files: () => call('POST /api/v2.0/demo/files', { body: demoBody() }),
  // 'reset demo' is excluded from error logging in the spec; failures still reach the user.
  reset: () => call('POST /api/v2.0/demo/reset', { body: demoBody() }),
};

/** The support contact shown on /signup (`GET /api/support-contact`, no session needed). */
export function supportContact(): Promise<{ supportEmail: string | null }> {
  return call(
    'GET /api/support-contact',
    {},
    {
      anonymous: true,
      noAuthRedirect: true,
      suppressError: true,
      suppressSuccess: true,
    },
  );
}

/** Page information for analytics, sent on every page shown (`POST /data-layer/navigate`); failures are ignored. */
export function trackNavigation(page: string, path: string): Promise<unknown> {
  return call('POST /api/v2.0/data-layer/navigate', { body: { page, path } }, { suppressError: true, suppressSuccess: true, noAuthRedirect: true }).catch(
    () => undefined,
  );
}
