/**
 * Self-hosted sign-in and the session (spec section 3 "Session"; sign-in flow of the delivery
 * document): a one-time sign-in link is redeemed for a session token; `login` returns
 * `{user, config}`; the privacy notice acceptance is recorded with its version; the view can be
 * switched between delivery and auditor while `originalRole` is kept.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq, sql } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { AppContext } from '../../context.js';
import { baseStoreOf, type DataStore, storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import type { Role } from '../../db/schema/users.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { appVersion } from '../../paths.js';
import { recordAudit } from '../audit/audit-log.js';
import { DELIVERY_VIEW_ROLES } from './permissions.js';
import { forgetTokenLookups, hashToken, issueToken, markUsed, revokeToken, tellSockets, verifyToken, type User } from './tokens.js';

/** The user part of the session (spec field names). */
export interface SessionUser {
  id: number;
  username: string;
  email: string;
  fullName: string;
  firstName: string;
  lastName: string;
  role: Role;
  originalRole: Role;
  accepted_privacy_version: string | null;
}

/** The config part of the session: feature flags and service versions. */
export interface SessionConfig {
  mode: AppConfig['mode'];
  devTools: { enabled: boolean; isLocalEnvironment: boolean };
  mappings: boolean;
  testRunner: boolean;
  demo: boolean;
  aggregation: boolean;
  sdmUpload: boolean;
  customMappings: boolean;
  deleteLuxData: boolean;
  pbiInputs: boolean;
  allowQAValidation: boolean;
  investmentAnalyzerEnabled: boolean;
  newStatusDesign: boolean;
  privacyStatementVersion: string;
  identificationProcess: boolean;
  branchChangeEnabled: boolean;
  branchUpdateEnabled: boolean;
  impersonateEnabled: boolean;
  isDbPushEnabled: boolean;
  dbName: string;
  dependencies: Array<{ name: string; version: string }>;
  /** largest upload (bytes), shown on Import files */
  maxUploadBytes: number;
  /** support contact e-mail, null when not configured */
  supportEmail: string | null;
  /** WAM Sampling Wizard address, null when not configured */
  samplingWizardUrl: string | null;
}

export interface Session {
  user: SessionUser;
  config: SessionConfig;
}

/** Shapes a user row for the session. */
export function sessionUser(user: User): SessionUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    fullName: `${user.firstName} ${user.lastName}`.trim() || user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    originalRole: user.originalRole,
    accepted_privacy_version: user.acceptedPrivacyVersion,
  };
}

const databaseVersions = new WeakMap<DataStore, Promise<{ name: string; version: string }>>();

/** The database engine and its version (`sqlite` 3.x, or `postgresql` 15.x), asked once per database. */
function databaseVersion(ctx: AppContext): Promise<{ name: string; version: string }> {
  const store = baseStoreOf(ctx);
  let version = databaseVersions.get(store);
  if (!version) {
    version = askDatabaseVersion(store);
    databaseVersions.set(store, version);
  }
  return version;
}

async function askDatabaseVersion(store: DataStore): Promise<{ name: string; version: string }> {
  if (store.dialect === 'postgres') {
    const pgDb = store.db as unknown as { execute(query: ReturnType<typeof sql>): Promise<{ rows: Array<{ v: string }> }> };
    const { rows } = await pgDb.execute(sql`select current_setting('server_version') as v`);
    return { name: 'postgresql', version: String(rows[0]?.v ?? '') };
  }
  const [row] = await store.db.all<{ v: string }>(sql`select sqlite_version() as v`);
  return { name: 'sqlite', version: row?.v ?? '' };
}

/** The session config derived from the server configuration. */
export async function sessionConfig(ctx: AppContext): Promise<SessionConfig> {
  const c = ctx.config;
  const database = await databaseVersion(ctx);
  return {
    mode: c.mode,
    devTools: { enabled: c.devToolsEnabled, isLocalEnvironment: c.devToolsLocal },
    mappings: c.mappings,
    testRunner: c.testRunner,
    demo: c.demo,
    aggregation: c.aggregation,
    sdmUpload: c.sdmUpload,
    customMappings: c.customMappings,
    deleteLuxData: c.deleteLuxData,
    pbiInputs: c.pbiInputs,
    allowQAValidation: c.allowQAValidation,
    investmentAnalyzerEnabled: c.investmentAnalyzerEnabled,
    newStatusDesign: c.newStatusDesign,
    privacyStatementVersion: c.privacyStatementVersion,
    identificationProcess: c.identificationProcess,
    branchChangeEnabled: c.branchChangeEnabled,
    branchUpdateEnabled: c.branchUpdateEnabled,
    impersonateEnabled: c.impersonateEnabled,
    isDbPushEnabled: c.isDbPushEnabled,
    dbName: c.dbName,
    maxUploadBytes: c.maxUploadBytes,
    supportEmail: c.supportEmail ?? null,
    samplingWizardUrl: c.samplingWizardUrl ?? null,
    dependencies: [
      { name: 'fund-audit', version: appVersion() },
      { name: 'api', version: 'v2.0' },
      { name: 'schema', version: String(ctx.schemaVersion) },
      { name: 'node', version: process.versions.node },
      { name: database.name, version: database.version },
    ],
  };
}

/** The whole session of a user. */
export async function getSession(ctx: AppContext, user: User): Promise<Session> {
  return { user: sessionUser(user), config: await sessionConfig(ctx) };
}

/**
 * Exchanges a one-time sign-in link token for a session token.
 * @throws UnauthorizedError when the link is unknown, used, expired or revoked
 */
export async function redeemSigninToken(ctx: AppContext, token: string): Promise<{ token: string; expiresAt: string }> {
  let verified: Awaited<ReturnType<typeof verifyToken>>;
  let session: { token: string; expiresAt: string };
  try {
    verified = await verifyToken(ctx, token, ['signin']);
    const { user, tokenId, idToken } = verified;
    // the link is used up and the session issued together: a link redeemed at once by several
    // requests gives one session, and a failure after using it up does not lose it
    session = await transaction(ctx, async () => {
      await markUsed(ctx, tokenId);
      return issueToken(ctx, user.id, 'session', ctx.config.sessionTtlHours * 3_600_000, undefined, { idToken });
    });
  } catch (err) {
    await recordAudit(ctx, null, 'sign-in-failed', null, { method: 'sign-in link', reason: (err as Error).message });
    throw err;
  }
  const { user, idToken } = verified;
  ctx.log.info({ userId: user.id }, 'sign-in link redeemed');
  await recordAudit(ctx, user, 'sign-in', `user:${user.id}`, { method: idToken ? 'single sign-on' : 'sign-in link', role: user.role });
  return session;
}

/** Issues a one-time sign-in link for a user: `<publicUrl>/redeemToken/#<token>`. */
export async function signinLink(ctx: AppContext, user: User, baseUrl: string): Promise<{ url: string; expiresAt: string }> {
  const { token, expiresAt } = await issueToken(ctx, user.id, 'signin', ctx.config.signinLinkTtlHours * 3_600_000);
  return { url: `${baseUrl.replace(/\/$/, '')}/redeemToken/#${token}`, expiresAt };
}

/**
 * Ends a session: revokes its token.
 * @returns the single sign-on ID token the session was opened with (null for a sign-in link's session or an unknown token)
 */
export async function logout(ctx: AppContext, token: string): Promise<{ idToken: string | null }> {
  let idToken: string | null = null;
  try {
    idToken = (await verifyToken(ctx, token, ['session'])).idToken;
  } catch {
    // an expired or revoked session has nothing left to end at the identity provider
  }
  await revokeToken(ctx, token);
  return { idToken };
}

/**
 * Records acceptance of the privacy notice.
 * @throws ValidationError when the version is not the current one
 */
export async function acceptPrivacy(ctx: AppContext, user: User, version: string | undefined): Promise<SessionUser> {
  const current = ctx.config.privacyStatementVersion;
  const accepted = version ?? current;
  if (accepted !== current) throw new ValidationError(`Privacy notice version ${accepted} is not the current version ${current}`);
  const { tables: t } = storeOf(ctx);
  await transaction(ctx, async (tx) => {
    await tx.insert(t.privacyAcceptances).values({ userId: user.id, version: accepted });
    await tx.update(t.users).set({ acceptedPrivacyVersion: accepted, updatedAt: new Date().toISOString() }).where(eq(t.users.id, user.id));
  });
  return sessionUser({ ...user, acceptedPrivacyVersion: accepted });
}

/**
 * Switches the view of one session (spec section 6 and the session's `role`/`originalRole`): to
 * 'auditor' the session acts as an Auditor; to 'delivery' it takes the original role again. Only
 * the token the call was made with changes: the user's other sessions, API keys and the CLI keep
 * their roles. Root and Auditor originals and Clients cannot take the delivery view; demo mode
 * disables switching.
 * @param token the raw token of the session that switches
 * @throws ForbiddenError when the switch is not allowed
 */
export async function switchView(ctx: AppContext, user: User, token: string, view: 'auditor' | 'delivery'): Promise<Session> {
  if (ctx.config.demo) throw new ForbiddenError('Switching view is disabled in demo mode');
  let role: Role;
  if (view === 'delivery') {
    if (!DELIVERY_VIEW_ROLES.includes(user.originalRole))
      throw new ForbiddenError(`A user whose role is ${user.originalRole} cannot switch to the delivery team`);
    role = user.originalRole;
  } else {
    role = user.originalRole === 'Root' || user.originalRole === 'Client' ? user.originalRole : 'Auditor';
  }
  const viewRole = role === user.originalRole ? null : role;
  const { db, tables: t } = storeOf(ctx);
  const switched = await db
    .update(t.tokens)
    .set({ viewRole })
    .where(eq(t.tokens.tokenHash, hashToken(token)))
    .returning({ id: t.tokens.id });
  forgetTokenLookups();
  // the session's sockets take the new view now, not at their next heartbeat
  tellSockets(ctx, switched, false, viewRole);
  await recordAudit(ctx, user, 'view-switch', `user:${user.id}`, { from: user.role, to: role, view });
  return getSession(ctx, { ...user, role });
}
