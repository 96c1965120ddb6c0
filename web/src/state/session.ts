/** Session store: the token (kept in session storage `fa.token`), the user and the server config. */
import { proxy } from 'valtio';
import type { SessionConfig, SessionPayload, SessionUser } from '../api/types';
import { needsPrivacyAcceptance } from '../route-table';
import { TOKEN_KEY, readSession, writeSession } from './storage';

/** Phases of sign-in negotiation (spec: pending, fulfilled, rejected). */
export type SessionStatus = 'idle' | 'pending' | 'fulfilled' | 'rejected';

export interface SessionState {
  token: string | null;
  status: SessionStatus;
  user: SessionUser | null;
  config: SessionConfig | null;
}

export const session = proxy<SessionState>({
  token: readSession(TOKEN_KEY),
  status: 'idle',
  user: null,
  config: null,
});

/** Stores a session token (or removes it with null). */
export function setToken(token: string | null): void {
  session.token = token;
  writeSession(TOKEN_KEY, token);
}

/** Installs the user and config answered by sign-in or a role switch. */
export function applySession(payload: SessionPayload): void {
  session.user = payload.user;
  session.config = payload.config;
  session.status = 'fulfilled';
}

/** Forgets the token and the session (401, logout). */
export function clearSession(): void {
  setToken(null);
  session.user = null;
  session.config = null;
  session.status = 'idle';
}

/** Whether the signed-in user still has to accept the current privacy notice. */
export function privacyPending(s: Pick<SessionState, 'user' | 'config'>): boolean {
  if (!s.user || !s.config) return false;
  return needsPrivacyAcceptance(s.user.accepted_privacy_version, s.config.privacyStatementVersion);
}

/** Whether protected pages may render: session fulfilled and the privacy notice accepted. */
export function isSessionReady(s: Pick<SessionState, 'status' | 'user' | 'config' | 'token'>): boolean {
  return Boolean(s.token) && s.status === 'fulfilled' && s.user !== null && s.config !== null && !privacyPending(s);
}
