/**
 * Tokens: random 256-bit values handed out once, stored only as sha256 hashes, each with a kind,
 * an expiry and a revocation time. Kinds: one-time sign-in links, sessions, API keys, short-lived
 * download and socket tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { tokens, users, type Role, type TokenKind } from '../../db/schema/index.js';
import { UnauthorizedError } from '../../errors.js';

export type User = typeof users.$inferSelect;

/** sha256 hex of a token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a token may carry besides its user: the session's view and a single sign-on ID token. */
export interface TokenExtras {
  /** The role of the view the token acts in (a session switched to the auditor view, or a token issued from one). */
  viewRole?: Role | null;
  /** The identity provider's ID token (single sign-on), used to end the provider's session at logout. */
  idToken?: string | null;
}

/**
 * Issues a token for a user.
 * @param ttlMs lifetime in milliseconds
 * @param extras the view role and single sign-on ID token the token carries
 * @returns the raw token (shown once) and its ISO expiry
 */
export function issueToken(
  ctx: AppContext,
  userId: number,
  kind: TokenKind,
  ttlMs: number,
  label?: string,
  extras: TokenExtras = {},
): { token: string; expiresAt: string } {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMs).toISOString();
  ctx.db
    .insert(tokens)
    .values({ userId, kind, tokenHash: hashToken(token), expiresAt, label, viewRole: extras.viewRole ?? null, idToken: extras.idToken ?? null })
    .run();
  return { token, expiresAt };
}

/**
 * The role a token acts in: the auditor view a session took, while the user's own role still
 * allows it (an Admin or delivery team member demoted meanwhile loses the view); else the user's role.
 */
export function effectiveRole(user: Pick<User, 'role' | 'originalRole'>, viewRole: Role | null): Role {
  if (viewRole === 'Auditor' && (user.originalRole === 'Admin' || user.originalRole === 'DeliveryTeamMember')) return 'Auditor';
  return user.originalRole;
}

/** The two lookups of every authenticated request, prepared once per context. */
function prepareLookups(ctx: AppContext) {
  return {
    token: ctx.db
      .select()
      .from(tokens)
      .where(eq(tokens.tokenHash, sql.placeholder('hash')))
      .prepare(),
    user: ctx.db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare(),
  };
}
const lookups = new WeakMap<AppContext, ReturnType<typeof prepareLookups>>();
function lookupsOf(ctx: AppContext): ReturnType<typeof prepareLookups> {
  let q = lookups.get(ctx);
  if (!q) lookups.set(ctx, (q = prepareLookups(ctx)));
  return q;
}

/** The view role a token issued from this user's current token carries (null when it acts in the user's own role). */
export function viewRoleOf(user: Pick<User, 'role' | 'originalRole'>): Role | null {
  return user.role === user.originalRole ? null : user.role;
}

/**
 * Finds the user a token belongs to, with `role` set to the role the token acts in (the view its
 * session took, see `effectiveRole`); `originalRole` is the user's own role.
 * @param kinds token kinds accepted here
 * @returns the user, the token's row id, its view role and single sign-on ID token
 * @throws UnauthorizedError when the token is unknown, of another kind, expired, revoked, used (sign-in links) or its user disabled
 */
export function verifyToken(
  ctx: AppContext,
  token: string | undefined | null,
  kinds: TokenKind[],
): { user: User; tokenId: number; viewRole: Role | null; idToken: string | null } {
  if (!token) throw new UnauthorizedError('Sign-in required: no token was sent');
  const q = lookupsOf(ctx);
  const row = q.token.get({ hash: hashToken(token) });
  if (!row || !kinds.includes(row.kind)) throw new UnauthorizedError('The token is not valid');
  if (row.revokedAt) throw new UnauthorizedError('The token was revoked');
  if (row.usedAt) throw new UnauthorizedError('This sign-in link was already used; ask for a new one');
  if (Date.parse(row.expiresAt) <= Date.now()) throw new UnauthorizedError('The token has expired');
  const user = q.user.get({ id: row.userId });
  if (!user || user.disabled) throw new UnauthorizedError('The user of this token is disabled');
  return { user: { ...user, role: effectiveRole(user, row.viewRole) }, tokenId: row.id, viewRole: row.viewRole, idToken: row.idToken };
}

/**
 * The role a user acts in now with a given view (see `effectiveRole`); null when the user is gone
 * or disabled. Lets a long-lived connection follow a role changed after it was opened.
 */
export function currentRole(ctx: AppContext, userId: number, viewRole: Role | null): Role | null {
  const user = lookupsOf(ctx).user.get({ id: userId });
  return user && !user.disabled ? effectiveRole(user, viewRole) : null;
}

/**
 * The kind of a token and its user's e-mail by the raw token, without checking validity (null when
 * unknown); used before routing to rate-limit API keys and scope service keys.
 */
export function tokenOwnerOf(ctx: AppContext, token: string): { kind: TokenKind; email: string } | null {
  const q = lookupsOf(ctx);
  const row = q.token.get({ hash: hashToken(token) });
  const user = row ? q.user.get({ id: row.userId }) : undefined;
  return row && user ? { kind: row.kind, email: user.email } : null;
}

/** Marks a token used (one-time sign-in links). */
export function markUsed(ctx: AppContext, tokenId: number): void {
  ctx.db.update(tokens).set({ usedAt: new Date().toISOString() }).where(eq(tokens.id, tokenId)).run();
}

/** Revokes one token by its raw value; unknown tokens are ignored. */
export function revokeToken(ctx: AppContext, token: string): void {
  ctx.db
    .update(tokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(tokens.tokenHash, hashToken(token)), isNull(tokens.revokedAt)))
    .run();
}

/** Revokes every token of a user of the given kinds (e.g. when a user is disabled). */
export function revokeUserTokens(ctx: AppContext, userId: number, kinds: TokenKind[]): void {
  ctx.db
    .update(tokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(tokens.userId, userId), inArray(tokens.kind, kinds), isNull(tokens.revokedAt)))
    .run();
}
