/**
 * What the API client needs from the app's state, handed in at start (web/src/state/api-hooks.ts
 * registers them): the session token, what to do on 401 and 403, and how to show notices. The api
 * folder imports nothing from state, components or pages; until the state registers, calls go out
 * without a token and their notices are dropped.
 */
import { formatDefaultError, type ErrorLike } from './errors';

/** One toast as the API client asks for it; `life` in milliseconds. */
export interface ApiNotice {
  severity: 'success' | 'info' | 'warn' | 'error';
  summary?: string;
  detail: string;
  life?: number;
}

/** The state's side of the API client. */
export interface ApiHooks {
  /** The session token sent as `x-access-token`, or null when signed out. */
  token: () => string | null;
  /** A 401 answer: forget the session and go to the sign-in page. */
  onUnauthorized: () => void;
  /** A 403 answer: go to the 'unauthorized' page. */
  onForbidden: () => void;
  /** Queue a toast. */
  notify: (notice: ApiNotice) => void;
}

let hooks: ApiHooks = {
  token: () => null,
  onUnauthorized: () => {},
  onForbidden: () => {},
  notify: () => {},
};

/** Hands the API client the state's hooks (called once at start; a later call replaces them). */
export function registerApiHooks(next: ApiHooks): void {
  hooks = next;
}

/** The hooks the state registered (no-ops before it did). */
export function apiHooks(): ApiHooks {
  return hooks;
}

/** Shows an API failure with the spec's default error handling (auditor spec section 8). */
export function notifyApiError(err: ErrorLike): void {
  const n = formatDefaultError(err);
  hooks.notify({ severity: 'error', summary: n.summary, detail: n.detail, life: n.life });
}
