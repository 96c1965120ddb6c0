/**
 * Users: creation, listing, lookup, and the first-start administrator. A user has a role and an
 * original role (spec section 3 Session); e-mail addresses are unique, compared in lower case.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { ROLES, type Role, type users } from '../../db/schema/users.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { recordAudit } from '../audit/audit-log.js';

export const newUserSchema = z.object({
  email: z.string().trim().toLowerCase().email('must be a valid e-mail address'),
  name: z.string().trim().min(1, 'is required').max(200),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }),
});
export type NewUser = z.input<typeof newUserSchema>;

/** A user as stored (the row type sign-in calls `User`, server/services/auth/tokens.ts). */
type User = typeof users.$inferSelect;

/** E-mail domain of the service users the key generator creates (`<service>@service.fund-audit.local`). */
export const SERVICE_USER_DOMAIN = 'service.fund-audit.local';

/** Splits "First Last" into first and last name. */
function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

/**
 * Creates a user.
 * @throws ValidationError for a bad e-mail, name or role; ConflictError when the e-mail exists
 */
export async function addUser(ctx: AppContext, input: NewUser): Promise<User> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    throw new ValidationError('The user is not valid', errors);
  }
  const { email, name, role } = parsed.data;
  const { db, tables: t } = storeOf(ctx);
  if (await findUserByEmail(ctx, email)) throw new ConflictError(`A user with e-mail ${email} already exists`);
  const [created] = await db
    .insert(t.users)
    .values({ email, username: email.split('@')[0], ...splitName(name), role, originalRole: role })
    .onConflictDoNothing({ target: t.users.email })
    .returning();
  // another node (or request) created the same e-mail between the check and the insert
  if (!created) throw new ConflictError(`A user with e-mail ${email} already exists`);
  await recordAudit(ctx, null, 'user-created', `user:${created.id}`, { email, role });
  return created;
}

/** The user with an e-mail (compared in lower case), or undefined. */
export async function findUserByEmail(ctx: AppContext, email: string): Promise<User | undefined> {
  const { db, tables: t } = storeOf(ctx);
  const [user] = await db.select().from(t.users).where(eq(t.users.email, email.trim().toLowerCase())).limit(1);
  return user;
}

/** @throws NotFoundError naming the e-mail */
export async function getUserByEmail(ctx: AppContext, email: string): Promise<User> {
  const user = await findUserByEmail(ctx, email);
  if (!user) throw new NotFoundError(`No user with e-mail ${email}`);
  return user;
}

/**
 * Links a Client user to the client whose fund requests they may see (scorecards count those
 * alone), or unlinks them (`client` null or blank). The client is named as on the fund requests.
 * @returns the user as changed
 * @throws NotFoundError for an unknown e-mail; ValidationError when the user is not a Client
 */
export async function setUserClient(ctx: AppContext, actor: { id: number; email: string } | null, email: string, client: string | null): Promise<User> {
  const user = await getUserByEmail(ctx, email);
  if (user.originalRole !== 'Client') throw new ValidationError(`${user.email} is a ${user.originalRole} user: only Client users are linked to a client`);
  const value = client?.trim() || null;
  const { db, tables: t } = storeOf(ctx);
  const [changed] = await db.update(t.users).set({ client: value }).where(eq(t.users.id, user.id)).returning();
  await recordAudit(ctx, actor, 'user-changed', `user:${user.id}`, { client: value, before: user.client ?? null });
  return changed!;
}

/** Every user, by id. */
export async function listUsers(ctx: AppContext): Promise<User[]> {
  const { db, tables: t } = storeOf(ctx);
  return db.select().from(t.users).orderBy(asc(t.users.id));
}

/** The first administrator (by id), or undefined. */
async function firstAdmin(ctx: AppContext): Promise<User | undefined> {
  const { db, tables: t } = storeOf(ctx);
  const [admin] = await db
    .select()
    .from(t.users)
    .where(eq(t.users.originalRole, 'Admin' as Role))
    .orderBy(asc(t.users.id))
    .limit(1);
  return admin;
}

/**
 * Makes sure an administrator exists; returns it and whether it was created now. Two nodes
 * starting at once on one database create it once: the other finds it.
 * @throws ConflictError when the e-mail belongs to a user who is not an administrator
 */
export async function ensureAdmin(ctx: AppContext, email: string): Promise<{ user: User; created: boolean }> {
  const existing = await firstAdmin(ctx);
  if (existing) return { user: existing, created: false };
  try {
    return { user: await addUser(ctx, { email, name: 'Fund Audit Administrator', role: 'Admin' }), created: true };
  } catch (err) {
    const other = err instanceof ConflictError ? await firstAdmin(ctx) : undefined;
    if (other) return { user: other, created: false };
    throw err;
  }
}
