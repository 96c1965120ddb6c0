/**
 * Rate limits against guessing and flooding, answered 429 with `Retry-After` (seconds) in the
 * envelope: starting or finishing a sign-in (redeeming a link, single sign-on) per client; wrong
 * tokens per client (past the limit the client is refused for a minute, except for calls with a
 * token that is valid now); calls per API key; live-socket upgrades per client. In memory, per
 * server process (rate-limiter-flexible), shared by the HTTP routes and the socket of a context.
 *
 * Never limited: `/api/health`, `/api/health/live`, `/api/health/ready` (load balancers and
 * orchestrators must see the truth), and a call with a valid session or key from a client refused
 * for wrong tokens (someone else at the same address guessing must not sign everyone out). A call
 * refused to a token that is valid now (sent where another kind is asked for) is not counted as a
 * wrong token; a wrong sign-in link counts against the client, whatever session the call carries.
 *
 * Wrong tokens count by token as well as by client: a token refused again (a stale tab polling
 * with an expired session) counts against that token alone, which is refused for a minute past
 * the limit; only a token not seen before counts against the client. Behind a proxy that is not
 * in `trustedProxies` every client arrives from the proxy's address: the limits then key on that
 * address with the client the proxy names in `X-Forwarded-For`, and the proxy's address as a whole
 * gets ten times each limit (a client rotating its claimed address gains at most that); the
 * server warns once (`proxyWarning`, also at start).
 */
import { createHash } from 'node:crypto';
import type { Middleware } from 'h3';
import { isIP, type BlockList } from 'node:net';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { clientIp, isTrustedProxy, parseTrustedProxies, plainAddress } from '../lib/proxies.js';
import { isLiveToken, tokenOwnerOf } from '../services/auth/tokens.js';
import { errorCode, json } from './envelope.js';

/** Calls that start or finish a sign-in. */
const REDEEM = 'POST /api/sso/redeemToken';
const SIGN_IN = new Set([REDEEM, 'GET /api/sso/authorize', 'GET /api/sso/callback']);
/** Paths no limit applies to. */
const UNLIMITED = new Set(['/api/health', '/api/health/live', '/api/health/ready']);
/** How many clients' worth of each limit the address of an untrusted proxy gets as a whole. */
const SHARED_FACTOR = 10;

/** The 429 answer, in the envelope, with Retry-After in whole seconds (at least 1). */
export function tooManyRequests(msBeforeNext: number, what: string): Response {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return json({ success: false, payload: null, errors: [`Too many ${what}: try again in ${seconds} s`], code: errorCode(429) }, 429, {
    'retry-after': String(seconds),
  });
}

/**
 * The start-up warning for a server that is probably behind a reverse proxy (a `publicUrl` or a
 * `basePath` is set) while `trustedProxies` is empty, or null.
 */
export function proxyWarning(config: Pick<AppConfig, 'trustedProxies' | 'publicUrl' | 'basePath'>): string | null {
  if (config.trustedProxies.trim() || !(config.publicUrl || config.basePath)) return null;
  return "trustedProxies is not set: behind a reverse proxy every client arrives from the proxy's address, so the rate limits also key on the client the proxy names and client addresses in the logs are the proxy's; set trustedProxies to the proxy's address";
}

/** One limit: per client, and for the address of an untrusted proxy as a whole. */
interface Limit {
  client: RateLimiterMemory;
  shared: RateLimiterMemory;
}

const limit = (points: number, blockDuration = 0): Limit => ({
  client: new RateLimiterMemory({ points, duration: 60, blockDuration }),
  shared: new RateLimiterMemory({ points: points * SHARED_FACTOR, duration: 60, blockDuration }),
});

/** Who a request comes from, for the limits. */
export interface Client {
  /** The client's key: its address, or behind an untrusted proxy `<proxy> for <claimed address>`. */
  key: string;
  /** The untrusted proxy's address the request came through, or null. */
  shared: string | null;
}

/** The limiters of one context (one server process). */
export interface RateLimitState {
  config: AppConfig;
  proxies: BlockList;
  signIn: Limit;
  badTokens: Limit;
  /** Wrong tokens by token (sha256): repeats of one token. */
  badTokenRepeats: RateLimiterMemory;
  apiKeys: RateLimiterMemory;
  sockets: Limit;
  warnedProxy: boolean;
  warn(message: string, details: Record<string, unknown>): void;
}

const states = new WeakMap<AppContext, RateLimitState>();

/** The limiters of a context, made at first use (`rateLimitSignInPerMinute`, `rateLimitBadTokensPerMinute`, `rateLimitApiKeyPerMinute`, `rateLimitSocketPerMinute`). */
export function rateLimitState(ctx: AppContext): RateLimitState {
  let s = states.get(ctx);
  if (!s) {
    const c = ctx.config;
    s = {
      config: c,
      proxies: parseTrustedProxies(c.trustedProxies),
      signIn: limit(c.rateLimitSignInPerMinute),
      badTokens: limit(c.rateLimitBadTokensPerMinute, 60),
      badTokenRepeats: new RateLimiterMemory({ points: c.rateLimitBadTokensPerMinute, duration: 60, blockDuration: 60 }),
      apiKeys: new RateLimiterMemory({ points: c.rateLimitApiKeyPerMinute, duration: 60 }),
      sockets: limit(c.rateLimitSocketPerMinute),
      warnedProxy: false,
      warn: (message, details) => ctx.log.warn(details, message),
    };
    states.set(ctx, s);
  }
  return s;
}

/**
 * Who a request comes from: its connection's address, or the forwarded client behind a trusted
 * proxy; a request forwarded by an address that is not a trusted proxy is keyed on both.
 * @param remote the connection's address (undefined for in-process requests)
 */
export function clientOf(s: RateLimitState, remote: string | undefined, forwardedFor: string | null): Client {
  const address = clientIp(remote, forwardedFor, s.proxies) ?? 'unknown';
  if (!remote || !forwardedFor) return { key: address, shared: null };
  const peer = plainAddress(remote);
  if (isTrustedProxy(s.proxies, peer)) return { key: address, shared: null };
  const claimed = forwardedFor
    .split(',')
    .map((h) => plainAddress(h.trim()))
    .filter((h) => isIP(h))
    .at(-1);
  if (!claimed) return { key: address, shared: null };
  if (!s.warnedProxy) {
    s.warnedProxy = true;
    s.warn('requests arrive through a proxy that is not in trustedProxies: set trustedProxies to its address', { proxy: peer });
  }
  return { key: `${peer} for ${claimed}`, shared: peer };
}

/** Consumes one point of a limit for a client; the wait in ms when it is reached, else null. */
async function take(l: Limit, who: Client): Promise<number | null> {
  const one = async (limiter: RateLimiterMemory, key: string) => {
    try {
      await limiter.consume(key);
      return null;
    } catch (res) {
      if (res instanceof RateLimiterRes) return res.msBeforeNext;
      throw res;
    }
  };
  const own = await one(l.client, who.key);
  if (own !== null || !who.shared) return own;
  return one(l.shared, who.shared);
}

/** The wait in ms while a client is refused for wrong tokens, else null. */
async function blockedFor(s: RateLimitState, who: Client): Promise<number | null> {
  const points = s.config.rateLimitBadTokensPerMinute;
  const own = await s.badTokens.client.get(who.key);
  if (own && own.consumedPoints > points) return own.msBeforeNext;
  const shared = who.shared ? await s.badTokens.shared.get(who.shared) : null;
  return shared && shared.consumedPoints > points * SHARED_FACTOR ? shared.msBeforeNext : null;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Counts a wrong token (or sign-in link) of a client: against the token when it was refused
 * before, else against the client.
 * @returns the wait in ms when that limit is now reached, else null
 */
export async function countWrongToken(s: RateLimitState, who: Client, token: string | null): Promise<number | null> {
  if (token) {
    try {
      const seen = await s.badTokenRepeats.consume(hashOf(token));
      if (seen.consumedPoints > 1) return null;
    } catch (res) {
      if (res instanceof RateLimiterRes) return res.msBeforeNext;
      throw res;
    }
  }
  return take(s.badTokens, who);
}

/**
 * Whether a call with this token may go on while its client is refused for wrong tokens: only with
 * a token valid now. A token refused too often itself is refused before any lookup.
 * @returns the wait in ms when the call is refused, else null
 */
export async function wrongTokenRefusal(ctx: AppContext, s: RateLimitState, who: Client, token: string | null): Promise<number | null> {
  if (token) {
    const repeated = await s.badTokenRepeats.get(hashOf(token));
    if (repeated && repeated.consumedPoints > s.config.rateLimitBadTokensPerMinute) return repeated.msBeforeNext;
  }
  const wait = await blockedFor(s, who);
  if (wait === null) return null;
  return token && (await isLiveToken(ctx, token)) ? null : wait;
}

/** Takes one live-socket upgrade of a client; the wait in ms when the limit is reached, else null. */
export function takeSocketUpgrade(s: RateLimitState, who: Client): Promise<number | null> {
  return take(s.sockets, who);
}

/** The rate-limit middleware of an app (limits of `rateLimitState`). */
export function rateLimits(ctx: AppContext): Middleware {
  const s = rateLimitState(ctx);
  return async (event, next) => {
    const url = new URL(event.req.url);
    if (!url.pathname.startsWith('/api/') || UNLIMITED.has(url.pathname)) return next();
    const who = clientOf(s, (event.req as { ip?: string }).ip, event.req.headers.get('x-forwarded-for'));
    const token = event.req.headers.get('x-access-token') ?? url.searchParams.get('token');
    const call = `${event.req.method} ${url.pathname}`;
    const redeem = call === REDEEM;
    // redeeming, the token that may be a guess is the link in the body: a session beside it
    // neither lifts the limit on wrong links nor is counted for them
    const guessed = redeem ? null : token;
    const refused = await wrongTokenRefusal(ctx, s, who, guessed);
    if (refused !== null) return tooManyRequests(refused, 'wrong tokens');
    if (SIGN_IN.has(call)) {
      const wait = await take(s.signIn, who);
      if (wait !== null) return tooManyRequests(wait, 'sign-in attempts');
    }
    if (token && (await tokenOwnerOf(ctx, token))?.kind === 'api') {
      try {
        await s.apiKeys.consume(hashOf(token));
      } catch (res) {
        if (res instanceof RateLimiterRes) return tooManyRequests(res.msBeforeNext, 'calls with this API key');
        throw res;
      }
    }
    const res = await next();
    // a 401 to a token valid now (a session sent where a download token is asked for) is no guess
    const wrong = res instanceof Response && res.status === 401 && (redeem || (guessed !== null && !(await isLiveToken(ctx, guessed))));
    if (wrong) {
      const wait = await countWrongToken(s, who, guessed);
      if (wait !== null) {
        ctx.log.warn({ client: who.key, route: url.pathname }, 'too many wrong tokens: refused for a while');
        return tooManyRequests(wait, 'wrong tokens');
      }
    }
    return res;
  };
}
