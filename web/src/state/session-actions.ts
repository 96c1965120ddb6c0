/** Session actions shared by pages and frame: negotiate sign-in, accept privacy, switch view, log out. */
import * as endpoints from '../api/endpoints';
import { ApiError } from '../api/errors';
import type { View } from '../api/types';
import { navigate } from './navigation';
import { applySession, session, setToken } from './session';
import { clearSessionStorage } from './storage';
import { stopSocket } from './socket';

let negotiation: Promise<void> | null = null;

/**
 * Negotiates the session for the stored token once (concurrent callers share the call).
 * Resolves when fulfilled; rejects with the ApiError when the server refuses.
 */
export function negotiateSession(): Promise<void> {
  if (session.status === 'fulfilled') return Promise.resolve();
  if (negotiation !== null) return negotiation;
  session.status = 'pending';
  negotiation = endpoints
    .login()
    .then((payload) => {
      applySession(payload);
    })
    .catch((err: unknown) => {
      session.status = 'rejected';
      throw err;
    })
    .finally(() => {
      negotiation = null;
    });
  return negotiation;
}

/** Records acceptance of the current privacy statement and updates the session user. */
export async function acceptPrivacyNotice(): Promise<void> {
  const version = session.config?.privacyStatementVersion ?? null;
  const { user } = await endpoints.acceptPrivacy(version === null ? undefined : String(version));
  session.user = user ?? (session.user ? { ...session.user, accepted_privacy_version: version } : null);
}

/** Switches view; the answer is a new session; then goes home. */
export async function switchView(view: View): Promise<void> {
  const payload = await endpoints.switchRole(view);
  applySession(payload);
  navigate('/');
}

/**
 * Logs out: revokes the token, clears the browser session storage and reloads; a session opened
 * through single sign-on goes on to the identity provider's logout, which returns to /unauthorized.
 */
export async function logoutAndReload(): Promise<void> {
  stopSocket();
  let endSessionUrl: string | null | undefined = null;
  try {
    endSessionUrl = (await endpoints.logout()).endSessionUrl;
  } catch (err) {
    if (!(err instanceof ApiError)) console.error(err);
  }
  setToken(null);
  clearSessionStorage();
  if (endSessionUrl) window.location.assign(endSessionUrl);
  else window.location.reload();
}
