/**
 * The blocked-sign-in page's decisions (`/sign-in-blocked?retryAfter=<s>&via=<how>`): when the user
 * may try again and how. Pure: unit-tested in sign-in-blocked.test.ts.
 */

/** How the refused sign-in was made: single sign-on, a one-time sign-in link, or the session negotiation after one. */
export type BlockedVia = 'sso' | 'link' | 'login';

import { SIGN_IN_BLOCKED_PATH } from '../../../../rules/access';

export { SIGN_IN_BLOCKED_PATH };

/** Session storage key of the one-time link whose redeem was refused (its token was not used). */
export const BLOCKED_LINK_KEY = 'fa.blockedLink';

/** The page's address for a refusal: the wait in seconds and how the user signs in. */
export function signInBlockedPath(retryAfterSeconds: number | undefined, via: BlockedVia): string {
  return `${SIGN_IN_BLOCKED_PATH}?retryAfter=${Math.max(1, Math.ceil(retryAfterSeconds ?? 60))}&via=${via}`;
}

/**
 * Reads the page's query: `until` (epoch ms, once the page has fixed it) or `retryAfter` seconds
 * counted from `now`; `via` defaults to the one-time link. A missing wait counts as 60 s (the limits' window).
 */
export function readBlockedQuery(search: string, now: number): { until: number; via: BlockedVia; fixed: boolean } {
  const q = new URLSearchParams(search);
  const rawVia = q.get('via');
  const via: BlockedVia = rawVia === 'sso' || rawVia === 'login' ? rawVia : 'link';
  const until = Number(q.get('until'));
  if (Number.isFinite(until) && until > 0) return { until, via, fixed: true };
  const seconds = Number(q.get('retryAfter'));
  return { until: now + (Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60) * 1000, via, fixed: false };
}

/** 'in 45 seconds', 'in 2 minutes 5 seconds', or null once the time has come. */
export function waitText(until: number, now: number): string | null {
  const s = Math.ceil((until - now) / 1000);
  if (s <= 0) return null;
  const m = Math.floor(s / 60);
  const r = s % 60;
  const sec = `${r} second${r === 1 ? '' : 's'}`;
  return m ? `in ${m} minute${m === 1 ? '' : 's'}${r ? ` ${sec}` : ''}` : `in ${sec}`;
}
