/**
 * OpenID Connect single sign-on (spec: "Sign-in is by single sign-on"; /authenticate,
 * /redeemToken, /signup, /unauthorized): the Authorization Code flow with PKCE through
 * openid-client. `startSsoSignIn` makes the provider's authorization address and remembers the
 * flow's state, nonce and PKCE verifier (in the database, 10 minutes, once: the provider may send
 * the browser back to another node than the one it started on); `finishSsoSignIn` checks the
 * provider's answer against them, creates or updates the user from the claims and hands out a
 * one-time sign-in token for `/redeemToken/#<token>`, so the rest of sign-in is the spec's flow.
 * `ssoLogoutUrl` is the provider's RP-initiated logout address.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { createHash } from 'node:crypto';
import { and, asc, count, eq, inArray, like, lt } from 'drizzle-orm';
import * as client from 'openid-client';
import type { AppConfig } from '../../config.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { NotFoundError, UnauthorizedError } from '../../errors.js';
import { recordAudit } from '../audit/audit-log.js';
import { roleFromGroups, upsertSsoUser, type SsoClaims } from './sso-users.js';
import { issueToken } from './tokens.js';

/** How long a started sign-in may take at the provider. */
const FLOW_TTL_MS = 10 * 60_000;
/** At most this many sign-ins pending at once (oldest dropped first): bounded storage under attack. */
const MAX_PENDING = 10_000;
/** Lifetime of the one-time token the callback hands to `/redeemToken`. */
const HANDOFF_TTL_MS = 2 * 60_000;

interface PendingFlow {
  nonce: string;
  verifier: string;
  redirectUri: string;
  expires: number;
}

interface SsoState {
  config: Promise<client.Configuration> | null;
}
const states = new WeakMap<AppContext, SsoState>();
function stateOf(ctx: AppContext): SsoState {
  let s = states.get(ctx);
  if (!s) states.set(ctx, (s = { config: null }));
  return s;
}

/** Pending flows are settings rows `sso-flow:<sha256 of the state>` (the state itself is not stored). */
const FLOW_PREFIX = 'sso-flow:';
const flowKey = (state: string) => `${FLOW_PREFIX}${createHash('sha256').update(state).digest('hex')}`;

/** Remembers a started flow, after removing expired ones and, beyond `MAX_PENDING`, the oldest. */
async function rememberFlow(ctx: AppContext, state: string, flow: PendingFlow): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const now = new Date();
  const isFlow = like(t.settings.key, `${FLOW_PREFIX}%`);
  await db.delete(t.settings).where(and(isFlow, lt(t.settings.updatedAt, new Date(now.getTime() - FLOW_TTL_MS).toISOString())));
  const [pending] = await db.select({ n: count() }).from(t.settings).where(isFlow);
  const excess = Number(pending?.n ?? 0) - MAX_PENDING + 1;
  if (excess > 0) {
    const oldest = db.select({ key: t.settings.key }).from(t.settings).where(isFlow).orderBy(asc(t.settings.updatedAt)).limit(excess);
    await db.delete(t.settings).where(inArray(t.settings.key, oldest));
  }
  await db.insert(t.settings).values({ key: flowKey(state), value: flow, updatedAt: now.toISOString() });
}

/** Takes a pending flow by its state: removed as it is read, so a callback is honoured once, on any node. */
async function takeFlow(ctx: AppContext, state: string): Promise<PendingFlow | undefined> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .delete(t.settings)
    .where(eq(t.settings.key, flowKey(state)))
    .returning({ value: t.settings.value });
  return row?.value as PendingFlow | undefined;
}

/** Whether single sign-on is configured (an issuer is set). */
export function ssoEnabled(config: AppConfig): boolean {
  return Boolean(config.oidcIssuer);
}

/** The server's public address: `publicUrl`, else the address the request came to with the base path. */
export function publicBase(config: AppConfig, requestOrigin: string): string {
  return (config.publicUrl ?? `${requestOrigin}${config.basePath ?? ''}`).replace(/\/$/, '');
}

/** The redirect URI to register at the provider: `<publicUrl>/api/sso/callback`. */
export function ssoRedirectUri(config: AppConfig, requestOrigin: string): string {
  return `${publicBase(config, requestOrigin)}/api/sso/callback`;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The provider's configuration from its discovery document, fetched once per context (again after a failure). */
function providerConfig(ctx: AppContext): Promise<client.Configuration> {
  const c = ctx.config;
  if (!c.oidcIssuer || !c.oidcClientId) throw new NotFoundError('Single sign-on is not configured on this server');
  const s = stateOf(ctx);
  if (!s.config) {
    const issuer = new URL(c.oidcIssuer);
    const auth = c.oidcClientSecret ? client.ClientSecretBasic(c.oidcClientSecret) : client.None();
    // Plain http only for a provider on this machine (development and tests); anywhere else https.
    const execute = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname) ? [client.allowInsecureRequests] : [];
    s.config = client.discovery(issuer, c.oidcClientId, undefined, auth, { execute }).catch((err: unknown) => {
      s.config = null;
      ctx.log.error({ err, issuer: c.oidcIssuer }, 'the identity provider could not be reached');
      throw new UnauthorizedError(`The identity provider ${c.oidcIssuer} could not be reached`);
    });
  }
  return s.config;
}

/**
 * Starts a sign-in at the provider.
 * @param requestOrigin the origin the browser called (used when `publicUrl` is not set)
 * @returns the provider's authorization address and the flow's state, which the caller binds to
 *   the browser (a cookie) and passes back to `finishSsoSignIn`
 * @throws NotFoundError when single sign-on is not configured; UnauthorizedError when the provider cannot be reached
 */
export async function startSsoSignIn(ctx: AppContext, requestOrigin: string): Promise<{ url: string; state: string }> {
  const config = await providerConfig(ctx);
  const now = Date.now();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const redirectUri = ssoRedirectUri(ctx.config, requestOrigin);
  await rememberFlow(ctx, state, { nonce, verifier, redirectUri, expires: now + FLOW_TTL_MS });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: ctx.config.oidcScopes,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, state };
}

/** Where a finished sign-in goes next. */
export type SsoOutcome = { kind: 'signed-in'; redeemPath: string; userId: number } | { kind: 'no-role'; email: string };

/**
 * Finishes a sign-in: exchanges the code (with the PKCE verifier), verifies the ID token (issuer,
 * audience, signature, nonce) and the state, reads the claims (ID token and userinfo), and
 * creates or updates the user with the role of the roles claim through the role map.
 * @param browserState the state this browser started with (its cookie); null when it has none
 * @param callbackUrl the full callback URL the provider redirected to
 * @returns 'signed-in' with `/redeemToken/#<one-time token>`, or 'no-role' (goes to /signup)
 * @throws UnauthorizedError when the sign-in is unknown or expired, the provider refused it, or any check fails
 */
export async function finishSsoSignIn(ctx: AppContext, browserState: string | null, callbackUrl: URL): Promise<SsoOutcome> {
  try {
    const outcome = await finishChecked(ctx, browserState, callbackUrl);
    if (outcome.kind === 'no-role') await recordAudit(ctx, null, 'sign-in-no-role', null, { method: 'single sign-on', email: outcome.email });
    return outcome;
  } catch (err) {
    await recordAudit(ctx, null, 'sign-in-failed', null, { method: 'single sign-on', reason: (err as Error).message });
    throw err;
  }
}

async function finishChecked(ctx: AppContext, browserState: string | null, callbackUrl: URL): Promise<SsoOutcome> {
  const config = await providerConfig(ctx);
  const flow = browserState ? await takeFlow(ctx, browserState) : undefined;
  if (!browserState || !flow || flow.expires <= Date.now())
    throw new UnauthorizedError('This sign-in was not started in this browser or has expired; start it again');
  const providerError = callbackUrl.searchParams.get('error');
  if (providerError)
    throw new UnauthorizedError(`The identity provider refused the sign-in: ${callbackUrl.searchParams.get('error_description') ?? providerError}`);
  // The provider redirected to the registered address; compare against it, not the Host header.
  const current = new URL(flow.redirectUri);
  current.search = callbackUrl.search;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: browserState,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    throw new UnauthorizedError(`The sign-in answer was refused: ${(err as Error).message}`);
  }
  const idClaims = tokens.claims();
  if (!idClaims) throw new UnauthorizedError('The identity provider sent no ID token');
  let userinfo: Record<string, unknown> = {};
  if (config.serverMetadata().userinfo_endpoint) {
    try {
      userinfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    } catch (err) {
      throw new UnauthorizedError(`The identity provider's userinfo answer was refused: ${(err as Error).message}`);
    }
  }
  const claims: SsoClaims = { ...userinfo, ...idClaims, issuer: String(idClaims.iss), sub: idClaims.sub };
  const role = roleFromGroups(claims[ctx.config.oidcRolesClaim], ctx.config.oidcRoleMap);
  const user = await upsertSsoUser(ctx, claims, role);
  if (!user) {
    ctx.log.warn({ email: claims.email, sub: claims.sub }, 'single sign-on: the role map gives this user no role');
    return { kind: 'no-role', email: String(claims.email) };
  }
  const { token } = await issueToken(ctx, user.id, 'signin', HANDOFF_TTL_MS, 'single sign-on', { idToken: tokens.id_token ?? null });
  ctx.log.info({ userId: user.id, role }, 'single sign-on');
  return { kind: 'signed-in', redeemPath: `/redeemToken/#${token}`, userId: user.id };
}

/**
 * The provider's RP-initiated logout address for a session opened through single sign-on, which
 * returns to `<publicUrl>/unauthorized`; null when the provider offers no logout endpoint or the
 * session was not opened through it.
 */
export async function ssoLogoutUrl(ctx: AppContext, idToken: string | null, requestOrigin: string): Promise<string | null> {
  if (!idToken || !ssoEnabled(ctx.config)) return null;
  try {
    const config = await providerConfig(ctx);
    if (!config.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: `${publicBase(ctx.config, requestOrigin)}/unauthorized`,
    }).href;
  } catch (err) {
    ctx.log.warn({ err }, 'single sign-on: no logout address');
    return null;
  }
}
