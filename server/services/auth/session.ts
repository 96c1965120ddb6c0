/**
 * Self-hosted sign-in and the session (spec section 3 "Session"; sign-in flow of the delivery
 * document): a one-time sign-in link is redeemed for a session token; `login` returns
 * `{user, config}`; the privacy notice acceptance is recorded with its version; the view can be
 * switched between delivery and auditor while `originalRole` is kept.
 */
import { eq } from 'drizzle-orm';
import type { AppConfig } from '../../config.js';
import type { AppContext } from '../../context.js';
import { privacyAcceptances, tokens, users, type Role } from '../../db/schema/index.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { appVersion } from '../../paths.js';
import { recordAudit } from '../audit/audit-log.js';
import { DELIVERY_VIEW_ROLES } from './permissions.js';
import { hashToken, issueToken, markUsed, revokeToken, verifyToken, type User } from './tokens.js';

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

/** The session config derived from the server configuration. */
export function sessionConfig(ctx: AppContext): SessionConfig {
  const c = ctx.config;
  const sqliteVersion = (ctx.sqlite.prepare('select sqlite_version() as v').get() as { v: string }).v;
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
      { name: 'sqlite', version: sqliteVersion },
    ],
  };
}

/** The whole session of a user. */
export function getSession(ctx: AppContext, user: User): Session {
  return { user: sessionUser(user), config: sessionConfig(ctx) };
}

/**
 * Exchanges a one-time sign-in link token for a session token.
 * @throws UnauthorizedError when the link is unknown, used, expired or revoked
 */
export function redeemSigninToken(ctx: AppContext, token: string): { token: string; expiresAt: string } {
  let verified: ReturnType<typeof verifyToken>;
  try {
    verified = verifyToken(ctx, token, ['signin']);
  } catch (err) {
    recordAudit(ctx, null, 'sign-in-failed', null, { method: 'sign-in link', reason: (err as Error).message });
    throw err;
  }
  const { user, tokenId, idToken } = verified;
  markUsed(ctx, tokenId);
  ctx.log.info({ userId: user.id }, 'sign-in link redeemed');
  const session = issueToken(ctx, user.id, 'session', ctx.config.sessionTtlHours * 3_600_000, undefined, { idToken });
  recordAudit(ctx, user, 'sign-in', `user:${user.id}`, { method: idToken ? 'single sign-on' : 'sign-in link', role: user.role });
  return session;
}

/** Issues a one-time sign-in link for a user: `<publicUrl>/redeemToken/#<token>`. */
export function signinLink(ctx: AppContext, user: User, baseUrl: string): { url: string; expiresAt: string } {
  const { token, expiresAt } = issueToken(ctx, user.id, 'signin', ctx.config.signinLinkTtlHours * 3_600_000);
  return { url: `${baseUrl.replace(/\/$/, '')}/redeemToken/#${token}`, expiresAt };
}

/**
 * Ends a session: revokes its token.
 * @returns the single sign-on ID token the session was opened with (null for a sign-in link's session or an unknown token)
 */
export function logout(ctx: AppContext, token: string): { idToken: string | null } {
  let idToken: string | null = null;
  try {
    idToken = verifyToken(ctx, token, ['session']).idToken;
  } catch {
    // an expired or revoked session has nothing left to end at the identity provider
  }
  revokeToken(ctx, token);
  return { idToken };
}

/**
 * Records acceptance of the privacy notice.
 * @throws ValidationError when the version is not the current one
 */
export function acceptPrivacy(ctx: AppContext, user: User, version: string | undefined): SessionUser {
  const current = ctx.config.privacyStatementVersion;
  const accepted = version ?? current;
  if (accepted !== current) throw new ValidationError(`Privacy notice version ${accepted} is not the current version ${current}`);
  ctx.db.transaction((tx) => {
    tx.insert(privacyAcceptances).values({ userId: user.id, version: accepted }).run();
    tx.update(users).set({ acceptedPrivacyVersion: accepted, updatedAt: new Date().toISOString() }).where(eq(users.id, user.id)).run();
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
export function switchView(ctx: AppContext, user: User, token: string, view: 'auditor' | 'delivery'): Session {
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
  ctx.db
    .update(tokens)
    .set({ viewRole })
    .where(eq(tokens.tokenHash, hashToken(token)))
    .run();
  recordAudit(ctx, user, 'view-switch', `user:${user.id}`, { from: user.role, to: role, view });
  return getSession(ctx, { ...user, role });
}
