/**
 * Tokens: random 256-bit values handed out once, stored only as sha256 hashes, each with a kind,
 * an expiry and a revocation time. Kinds: one-time sign-in links, sessions, API keys, short-lived
 * download and socket tokens.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { tokens, users, type TokenKind } from '../../db/schema/index.js';
import { UnauthorizedError } from '../../errors.js';

export type User = typeof users.$inferSelect;

/** sha256 hex of a token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Issues a token for a user.
 * @param ttlMs lifetime in milliseconds
 * @returns the raw token (shown once) and its ISO expiry
 */
export function issueToken(ctx: AppContext, userId: number, kind: TokenKind, ttlMs: number, label?: string): { token: string; expiresAt: string } {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMs).toISOString();
  ctx.db
    .insert(tokens)
    .values({ userId, kind, tokenHash: hashToken(token), expiresAt, label })
    .run();
  return { token, expiresAt };
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

/**
 * Finds the user a token belongs to.
 * @param kinds token kinds accepted here
 * @throws UnauthorizedError when the token is unknown, of another kind, expired, revoked, used (sign-in links) or its user disabled
 */
export function verifyToken(ctx: AppContext, token: string | undefined | null, kinds: TokenKind[]): { user: User; tokenId: number } {
  if (!token) throw new UnauthorizedError('Sign-in required: no token was sent');
  const q = lookupsOf(ctx);
  const row = q.token.get({ hash: hashToken(token) });
  if (!row || !kinds.includes(row.kind)) throw new UnauthorizedError('The token is not valid');
  if (row.revokedAt) throw new UnauthorizedError('The token was revoked');
  if (row.usedAt) throw new UnauthorizedError('This sign-in link was already used; ask for a new one');
  if (Date.parse(row.expiresAt) <= Date.now()) throw new UnauthorizedError('The token has expired');
  const user = q.user.get({ id: row.userId });
  if (!user || user.disabled) throw new UnauthorizedError('The user of this token is disabled');
  return { user, tokenId: row.id };
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
