/**
 * Tokens: random 256-bit values handed out once, stored only as sha256 hashes, each with a kind,
 * an expiry and a revocation time. Kinds: one-time sign-in links, sessions, API keys, short-lived
 * download and socket tokens.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { runPrepared, storeOf, type DataStore } from '../../db/dialect.js';
import type { Role, TokenKind, users } from '../../db/schema/users.js';
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
  /** The id of the token this one is asked for with (a socket token's session or key). */
  parentTokenId?: number | null;
}

/**
 * Issues a token for a user.
 * @param ttlMs lifetime in milliseconds
 * @param extras the view role and single sign-on ID token the token carries
 * @returns the raw token (shown once) and its ISO expiry
 */
export async function issueToken(
  ctx: AppContext,
  userId: number,
  kind: TokenKind,
  ttlMs: number,
  label?: string,
  extras: TokenExtras = {},
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMs).toISOString();
  const { db, tables: t } = storeOf(ctx);
  await db.insert(t.tokens).values({
    userId,
    kind,
    tokenHash: hashToken(token),
    expiresAt,
    label,
    viewRole: extras.viewRole ?? null,
    idToken: extras.idToken ?? null,
    parentTokenId: extras.parentTokenId ?? null,
  });
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

type TokenRow = typeof import('../../db/schema/users.js').tokens.$inferSelect;

/**
 * The token lookups of one HTTP request (`withTokenLookups`): the rate limits, the service-key
 * scopes and the route's authentication each look the request's token up, and each lookup is a
 * round trip to the database (on PostgreSQL, over the network). Within one request the token is
 * read once; any write to tokens in the request (sign-in link used, logout, revocation) forgets
 * what was read, so a check after it reads again.
 */
const requestLookups = new AsyncLocalStorage<Map<string, Promise<{ row?: TokenRow; user?: User }>>>();

/**
 * Runs `fn` (the handling of one HTTP request) with its own memory of token lookups (see
 * `requestLookups`); the app wraps every request in it.
 */
export function withTokenLookups<T>(fn: () => T): T {
  return requestLookups.run(new Map(), fn);
}

/** Forgets the token lookups of the current request: call after any write to tokens. */
export function forgetTokenLookups(): void {
  requestLookups.getStore()?.clear();
}

/** The token row with this hash and its user: one statement. */
function tokenAndUserQuery(store: DataStore, hash: SQLWrapper) {
  const { db, tables: t } = store;
  return db
    .select({ row: t.tokens, user: t.users })
    .from(t.tokens)
    .leftJoin(t.users, eq(t.users.id, t.tokens.userId))
    .where(eq(t.tokens.tokenHash, hash))
    .limit(1);
}

/** The token row of a raw token and its user (each undefined when unknown), in one statement; read once per request. */
function tokenAndUser(ctx: AppContext, token: string): Promise<{ row?: TokenRow; user?: User }> {
  const hash = hashToken(token);
  const memo = requestLookups.getStore();
  const known = memo?.get(hash);
  if (known) return known;
  const lookup = (async () => {
    // prepared once: every request runs it, and building and compiling it each time was most of
    // what a cached page cost the request thread
    const [found] = await runPrepared(ctx, 'fund_audit_token_and_user', (store) => tokenAndUserQuery(store, sql.placeholder('hash')), { hash });
    return { row: found?.row as TokenRow | undefined, user: (found?.user ?? undefined) as User | undefined };
  })();
  if (memo) {
    memo.set(hash, lookup);
    // a failed lookup is not remembered
    lookup.catch(() => memo.get(hash) === lookup && memo.delete(hash));
  }
  return lookup;
}

/** A user by id, or undefined. */
async function userRow(ctx: AppContext, id: number): Promise<User | undefined> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.users).where(eq(t.users.id, id)).limit(1);
  return row;
}

/** The view role a token issued from this user's current token carries (null when it acts in the user's own role). */
export function viewRoleOf(user: Pick<User, 'role' | 'originalRole'>): Role | null {
  return user.role === user.originalRole ? null : user.role;
}

/** Kinds of token asked for with a session or key (their parent): each lives only while it does, in its view. */
const CHILD_KINDS: readonly TokenKind[] = ['download', 'socket'];

/**
 * The parent of a download or socket token, as the token must follow it: null when the token has
 * no parent (it acts on its own), else whether the parent is still valid and the view it acts in now.
 */
async function parentOf(ctx: AppContext, row: TokenRow): Promise<{ live: boolean; viewRole: Role | null } | null> {
  if (row.parentTokenId === null || !CHILD_KINDS.includes(row.kind)) return null;
  return (await tokenStateById(ctx, row.parentTokenId)) ?? { live: false, viewRole: null };
}

/**
 * Finds the user a token belongs to, with `role` set to the role the token acts in (the view its
 * session took, see `effectiveRole`); `originalRole` is the user's own role. A download or socket
 * token asked for with a session or key follows it: refused once that ended (logout, revocation),
 * and acting in the view the session has now, not the one it had when the token was asked for.
 * @param kinds token kinds accepted here
 * @returns the user, the token's row id, its view role and single sign-on ID token
 * @throws UnauthorizedError when the token is unknown, of another kind, expired, revoked, used
 *   (sign-in links), its session ended (download and socket tokens) or its user disabled
 */
export async function verifyToken(
  ctx: AppContext,
  token: string | undefined | null,
  kinds: TokenKind[],
): Promise<{ user: User; tokenId: number; viewRole: Role | null; idToken: string | null; parentTokenId: number | null }> {
  if (!token) throw new UnauthorizedError('Sign-in required: no token was sent');
  const { row, user } = await tokenAndUser(ctx, token);
  if (!row || !kinds.includes(row.kind)) throw new UnauthorizedError('The token is not valid');
  if (row.revokedAt) throw new UnauthorizedError('The token was revoked');
  if (row.usedAt) throw new UnauthorizedError('This sign-in link was already used; ask for a new one');
  if (Date.parse(row.expiresAt) <= Date.now()) throw new UnauthorizedError('The token has expired');
  if (!user || user.disabled) throw new UnauthorizedError('The user of this token is disabled');
  const parent = await parentOf(ctx, row);
  if (parent && !parent.live) throw new UnauthorizedError(`The session this ${row.kind} token was asked for with has ended; sign in again`);
  const viewRole = parent ? parent.viewRole : row.viewRole;
  return {
    user: { ...user, role: effectiveRole(user, viewRole) },
    tokenId: row.id,
    viewRole,
    idToken: row.idToken,
    parentTokenId: row.parentTokenId,
  };
}

/**
 * The role a user acts in now with a given view (see `effectiveRole`); null when the user is gone
 * or disabled. Lets a long-lived connection follow a role changed after it was opened.
 */
export async function currentRole(ctx: AppContext, userId: number, viewRole: Role | null): Promise<Role | null> {
  const user = await userRow(ctx, userId);
  return user && !user.disabled ? effectiveRole(user, viewRole) : null;
}

/**
 * The kind of a token and its user's e-mail by the raw token, without checking validity (null when
 * unknown); used before routing to rate-limit API keys and scope service keys.
 */
export async function tokenOwnerOf(ctx: AppContext, token: string): Promise<{ kind: TokenKind; email: string } | null> {
  const { row, user } = await tokenAndUser(ctx, token);
  return row && user ? { kind: row.kind, email: user.email } : null;
}

/** The row id of a raw token (null when unknown): what a token asked for with it records as its parent. */
export async function tokenIdOf(ctx: AppContext, token: string): Promise<number | null> {
  return (await tokenAndUser(ctx, token)).row?.id ?? null;
}

/**
 * A token by its row id, as a socket opened from it needs it: whether it is still valid (not
 * revoked or expired) and the view it acts in now; null when it is gone.
 */
export async function tokenStateById(ctx: AppContext, id: number): Promise<{ live: boolean; viewRole: Role | null } | null> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .select({ viewRole: t.tokens.viewRole, revokedAt: t.tokens.revokedAt, expiresAt: t.tokens.expiresAt })
    .from(t.tokens)
    .where(eq(t.tokens.id, id))
    .limit(1);
  return row ? { live: !row.revokedAt && Date.parse(row.expiresAt) > Date.now(), viewRole: row.viewRole } : null;
}

/**
 * Whether a raw token would be accepted now by some call: known, not a sign-in link, not revoked,
 * used or expired, its session still valid (download and socket tokens), and its user enabled. The
 * rate limits let such a token through an address that sent too many wrong ones (one request's
 * lookup, shared with its authentication).
 */
export async function isLiveToken(ctx: AppContext, token: string): Promise<boolean> {
  const { row, user } = await tokenAndUser(ctx, token);
  if (!row || !user || user.disabled || row.kind === 'signin' || row.revokedAt || row.usedAt || Date.parse(row.expiresAt) <= Date.now()) return false;
  return (await parentOf(ctx, row))?.live ?? true;
}

/**
 * Uses up a one-time token (a sign-in link): one conditional update, so of any number of calls at
 * once (requests on one node or on several nodes of one database) exactly one succeeds.
 * @throws UnauthorizedError when the token was used, revoked or expired in the meantime
 */
export async function markUsed(ctx: AppContext, tokenId: number): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const now = new Date().toISOString();
  const taken = await db
    .update(t.tokens)
    .set({ usedAt: now })
    .where(and(eq(t.tokens.id, tokenId), isNull(t.tokens.usedAt), isNull(t.tokens.revokedAt), gt(t.tokens.expiresAt, now)))
    .returning({ id: t.tokens.id });
  forgetTokenLookups();
  if (taken.length === 0) throw new UnauthorizedError('This sign-in link was already used; ask for a new one');
}

/** Revokes one token by its raw value; unknown tokens are ignored. */
export async function revokeToken(ctx: AppContext, token: string): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const ended = await db
    .update(t.tokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(t.tokens.tokenHash, hashToken(token)), isNull(t.tokens.revokedAt)))
    .returning({ id: t.tokens.id });
  forgetTokenLookups();
  tellSockets(ctx, ended, true);
}

/** Revokes every token of a user of the given kinds (e.g. when a user is disabled); their sockets close. */
export async function revokeUserTokens(ctx: AppContext, userId: number, kinds: TokenKind[]): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const ended = await db
    .update(t.tokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(t.tokens.userId, userId), inArray(t.tokens.kind, kinds), isNull(t.tokens.revokedAt)))
    .returning({ id: t.tokens.id });
  forgetTokenLookups();
  tellSockets(ctx, ended, true);
}

/**
 * Tells the live sockets (of every node) that tokens ended, or that a session took another view:
 * the sockets opened from them close or follow the view at once.
 */
export function tellSockets(ctx: AppContext, tokens: Array<{ id: number }>, ended: boolean, viewRole?: Role | null): void {
  if (tokens.length) ctx.events.publish('session', { tokenIds: tokens.map((r) => r.id), ended, ...(ended ? {} : { viewRole: viewRole ?? null }) });
}
