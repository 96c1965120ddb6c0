/**
 * Users: creation, listing, lookup, and the first-start administrator. A user has a role and an
 * original role (spec section 3 Session); e-mail addresses are unique, compared in lower case.
 */
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { ROLES, users, type Role } from '../../db/schema/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { recordAudit } from '../audit/audit-log.js';
import type { User } from '../auth/tokens.js';

export const newUserSchema = z.object({
  email: z.string().trim().toLowerCase().email('must be a valid e-mail address'),
  name: z.string().trim().min(1, 'is required').max(200),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` }),
});
export type NewUser = z.input<typeof newUserSchema>;

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
export function addUser(ctx: AppContext, input: NewUser): User {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    throw new ValidationError('The user is not valid', errors);
  }
  const { email, name, role } = parsed.data;
  if (findUserByEmail(ctx, email)) throw new ConflictError(`A user with e-mail ${email} already exists`);
  const user = ctx.db
    .insert(users)
    .values({ email, username: email.split('@')[0], ...splitName(name), role, originalRole: role })
    .returning()
    .get();
  recordAudit(ctx, null, 'user-created', `user:${user.id}`, { email, role });
  return user;
}

export function findUserByEmail(ctx: AppContext, email: string): User | undefined {
  return ctx.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

/** @throws NotFoundError naming the e-mail */
export function getUserByEmail(ctx: AppContext, email: string): User {
  const user = findUserByEmail(ctx, email);
  if (!user) throw new NotFoundError(`No user with e-mail ${email}`);
  return user;
}

export function listUsers(ctx: AppContext): User[] {
  return ctx.db.select().from(users).orderBy(asc(users.id)).all();
}

/** Makes sure an administrator exists; returns it and whether it was created now. */
export function ensureAdmin(ctx: AppContext, email: string): { user: User; created: boolean } {
  const existing = ctx.db
    .select()
    .from(users)
    .where(eq(users.originalRole, 'Admin' as Role))
    .orderBy(asc(users.id))
    .get();
  if (existing) return { user: existing, created: false };
  return { user: addUser(ctx, { email, name: 'Fund Audit Administrator', role: 'Admin' }), created: true };
}
