/** Typed calls of the shell: sign-in, session, privacy, role switch, socket token, health, demo. */
import { api } from './client';
import type { HealthPayload, RedeemPayload, SessionPayload, SessionUser, View } from './types';

/** Exchanges the one-time sign-in token for a session token (no redirects: the page handles failure). */
export function redeemToken(token: string): Promise<RedeemPayload> {
  return api.post<RedeemPayload>('/api/sso/redeemToken', { token }, { anonymous: true, noAuthRedirect: true, suppressError: true });
}

/** Negotiates the session for the stored token (sign-in errors are not notified, spec section 8). */
export function login(): Promise<SessionPayload> {
  return api.post<SessionPayload>('/api/sso/login', {}, { suppressError: true, suppressSuccess: true });
}

/** Revokes the session token on the server; `endSessionUrl` ends a single sign-on session at the identity provider. */
export function logout(): Promise<{ loggedOut: boolean; endSessionUrl?: string | null }> {
  return api.post<{ loggedOut: boolean; endSessionUrl?: string | null }>(
    '/api/sso/logout',
    {},
    { suppressError: true, noAuthRedirect: true, suppressSuccess: true },
  );
}

/** How the server signs users in: `oidc` when /authenticate goes to an OpenID Connect identity provider. */
export function ssoProviders(): Promise<{ oidc: boolean }> {
  return api.get<{ oidc: boolean }>('/api/sso/providers', { anonymous: true, noAuthRedirect: true, suppressError: true, suppressSuccess: true });
}

/** Records acceptance of the given privacy statement version. */
export function acceptPrivacy(version: string | undefined): Promise<{ user: SessionUser }> {
  return api.post<{ user: SessionUser }>('/privacy/accept', { version });
}

/** Switches between the auditor and the delivery view; answers the new session. */
export function switchRole(view: View): Promise<SessionPayload> {
  return api.post<SessionPayload>('/user/switch-role', { view });
}

/** A fresh short-lived token for the socket (background call: no notification, no redirect). */
export function wsToken(): Promise<{ token: string }> {
  return api.get<{ token: string }>('/ws-token', { suppressError: true, noAuthRedirect: true });
}

/** Server version and schema version. */
export function health(): Promise<HealthPayload> {
  return api.get<HealthPayload>('/api/health', { suppressError: true, noAuthRedirect: true, anonymous: true });
}

/** Body of the demo calls (spec section 7). */
export const DEMO_BODY = { codes: ['demo_test'], tests: ['2'] } as const;

/** Demo steps: 1 fund request, 2 input files, 3 reset. */
/** The server's demo state (spec section 3 "Demo state"). */
export interface DemoState {
  step: number;
  fundRequestDemo: Array<{ userId: number; email: string; start_date: string; fundRequestId?: number }>;
  loading: boolean;
}

export const demoCalls = {
  state: () => api.post<DemoState>('/demo/step', DEMO_BODY, { suppressError: true }),
  fundRequest: () => api.post<DemoState>('/demo/fund-request', DEMO_BODY),
  files: () => api.post<DemoState>('/demo/files', DEMO_BODY),
  // 'reset demo' is excluded from error logging in the spec; failures still reach the user.
  reset: () => api.post<DemoState>('/demo/reset', DEMO_BODY),
};

/** The support contact shown on /signup (`GET /api/support-contact`, no session needed). */
export function supportContact(): Promise<{ supportEmail: string | null }> {
  return api.get<{ supportEmail: string | null }>('/api/support-contact', {
    anonymous: true,
    noAuthRedirect: true,
    suppressError: true,
    suppressSuccess: true,
  });
}

/** Page information for analytics, sent on every page shown (`POST /data-layer/navigate`); failures are ignored. */
export function trackNavigation(page: string, path: string): Promise<unknown> {
  return api.post('/data-layer/navigate', { page, path }, { suppressError: true, suppressSuccess: true, noAuthRedirect: true }).catch(() => undefined);
}
