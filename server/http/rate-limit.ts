/**
 * Rate limits against guessing and flooding, answered 429 with `Retry-After` (seconds) in the
 * envelope: starting or finishing a sign-in (redeeming a link, single sign-on) per client address;
 * wrong tokens per client address (past the limit the address is refused for a minute, whatever
 * token it sends); calls per API key. In memory, per server process (rate-limiter-flexible).
 */
import { createHash } from 'node:crypto';
import type { H3Event, Middleware } from 'h3';
import type { BlockList } from 'node:net';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../context.js';
import { clientIp, parseTrustedProxies } from '../lib/proxies.js';
import { tokenOwnerOf } from '../services/auth/tokens.js';
import { json } from './envelope.js';

/** Calls that start or finish a sign-in. */
const SIGN_IN = new Set(['POST /api/sso/redeemToken', 'GET /api/sso/authorize', 'GET /api/sso/callback']);

/** The client's address: the connection's, or behind a trusted proxy (`trustedProxies`) the forwarded one. */
export function clientAddress(event: H3Event, proxies: BlockList): string {
  return clientIp((event.req as { ip?: string }).ip, event.req.headers.get('x-forwarded-for'), proxies) ?? 'unknown';
}

/** The 429 answer, in the envelope, with Retry-After in whole seconds (at least 1). */
export function tooManyRequests(msBeforeNext: number, what: string): Response {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return json({ success: false, payload: null, errors: [`Too many ${what}: try again in ${seconds} s`] }, 429, { 'retry-after': String(seconds) });
}

/** Consumes one point; the wait in ms when the limit is reached, else null. */
async function take(limiter: RateLimiterMemory, key: string): Promise<number | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (res) {
    if (res instanceof RateLimiterRes) return res.msBeforeNext;
    throw res;
  }
}

/**
 * The rate-limit middleware of an app, with limits from the configuration
 * (`rateLimitSignInPerMinute`, `rateLimitBadTokensPerMinute`, `rateLimitApiKeyPerMinute`).
 */
export function rateLimits(ctx: AppContext): Middleware {
  const c = ctx.config;
  const signIn = new RateLimiterMemory({ points: c.rateLimitSignInPerMinute, duration: 60 });
  const badTokens = new RateLimiterMemory({ points: c.rateLimitBadTokensPerMinute, duration: 60, blockDuration: 60 });
  const apiKeys = new RateLimiterMemory({ points: c.rateLimitApiKeyPerMinute, duration: 60 });
  const proxies = parseTrustedProxies(c.trustedProxies);
  return async (event, next) => {
    const url = new URL(event.req.url);
    if (!url.pathname.startsWith('/api/')) return next();
    const address = clientAddress(event, proxies);
    const token = event.req.headers.get('x-access-token') ?? url.searchParams.get('token');
    const call = `${event.req.method} ${url.pathname}`;
    const blocked = await badTokens.get(address);
    if (blocked && blocked.consumedPoints > c.rateLimitBadTokensPerMinute) return tooManyRequests(blocked.msBeforeNext, 'wrong tokens');
    if (SIGN_IN.has(call)) {
      const wait = await take(signIn, address);
      if (wait !== null) return tooManyRequests(wait, 'sign-in attempts');
    }
    if (token && (await tokenOwnerOf(ctx, token))?.kind === 'api') {
      const wait = await take(apiKeys, createHash('sha256').update(token).digest('hex'));
      if (wait !== null) return tooManyRequests(wait, 'calls with this API key');
    }
    const res = await next();
    if (res instanceof Response && res.status === 401 && (token || call === 'POST /api/sso/redeemToken')) {
      const wait = await take(badTokens, address);
      if (wait !== null) {
        ctx.log.warn({ address, route: url.pathname }, 'too many wrong tokens: address refused for a while');
        return tooManyRequests(wait, 'wrong tokens');
      }
    }
    return res;
  };
}
