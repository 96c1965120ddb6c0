/**
 * Just-in-time users of single sign-on (OpenID Connect): the role an identity provider's groups
 * give, and the user row created or updated from the claims at every sign-in (e-mail, full name,
 * role). Used by `oidc.ts` after the provider's answer was verified.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { Role } from '../../db/schema/users.js';
import { UnauthorizedError } from '../../errors.js';
import { recordAudit } from '../audit/audit-log.js';
import { revokeUserTokens, type User } from './tokens.js';

/** Roles from most to least privileged: a user in several mapped groups gets the first. */
const PRECEDENCE: Role[] = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'];

/**
 * The role a user's groups give through the role map.
 * @param claim the roles claim's value: a list of group names (or ids), or one name
 * @param roleMap group -> role (`oidcRoleMap`)
 * @returns the most privileged mapped role, or null when no group is mapped
 */
export function roleFromGroups(claim: unknown, roleMap: Record<string, Role>): Role | null {
  const groups = Array.isArray(claim) ? claim.map(String) : typeof claim === 'string' ? claim.split(/[\s,]+/).filter(Boolean) : [];
  const roles = new Set(groups.map((g) => roleMap[g]).filter((r): r is Role => Boolean(r)));
  return PRECEDENCE.find((r) => roles.has(r)) ?? null;
}

/** The claims a sign-in needs (from the ID token and the userinfo answer). */
export interface SsoClaims {
  issuer: string;
  sub: string;
  email?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
  preferred_username?: unknown;
  [claim: string]: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** First and last name from the claims: given/family name, else `name` split at its first space, else the e-mail's local part. */
function namesOf(claims: SsoClaims, email: string): { firstName: string; lastName: string } {
  if (str(claims.given_name) || str(claims.family_name)) return { firstName: str(claims.given_name), lastName: str(claims.family_name) };
  const parts = str(claims.name).split(/\s+/).filter(Boolean);
  if (parts.length) return { firstName: parts[0] as string, lastName: parts.slice(1).join(' ') };
  return { firstName: email.split('@')[0] ?? email, lastName: '' };
}

/**
 * Creates or updates the user of a verified sign-in. The user is found by its provider identity
 * (`<issuer> <sub>`), else by e-mail (a user first made by the CLI is linked to the provider at
 * its first single sign-on); e-mail, names and role are taken from the claims every time.
 * @param role the role of the user's groups; null: the provider knows the user but gives no role
 * @returns the user, or null when no role was given (the user's open sessions are ended)
 * @throws UnauthorizedError when the claims have no e-mail, or the user is disabled
 */
export async function upsertSsoUser(ctx: AppContext, claims: SsoClaims, role: Role | null): Promise<User | null> {
  const email = str(claims.email).toLowerCase();
  if (!email || !email.includes('@')) throw new UnauthorizedError('The identity provider sent no e-mail address for this user');
  const externalId = `${claims.issuer} ${claims.sub}`;
  const { db, tables: t } = storeOf(ctx);
  const [byIdentity] = await db.select().from(t.users).where(eq(t.users.externalId, externalId)).limit(1);
  const existing = byIdentity ?? (await db.select().from(t.users).where(eq(t.users.email, email)).limit(1))[0];
  if (existing?.disabled) throw new UnauthorizedError('This user is disabled in Fund Audit');
  if (existing?.externalId && existing.externalId !== externalId) throw new UnauthorizedError(`The e-mail ${email} belongs to another single sign-on identity`);
  if (!role) {
    if (existing) await revokeUserTokens(ctx, existing.id, ['session']);
    return null;
  }
  const names = namesOf(claims, email);
  const values = { email, ...names, role, originalRole: role, externalId, updatedAt: new Date().toISOString() };
  if (existing) {
    const [updated] = await db.update(t.users).set(values).where(eq(t.users.id, existing.id)).returning();
    if (!updated) throw new UnauthorizedError('This user was removed from Fund Audit during the sign-in; sign in again');
    if (existing.originalRole !== role || existing.email !== email)
      await recordAudit(ctx, updated, 'user-changed', `user:${updated.id}`, {
        by: 'single sign-on',
        from: { email: existing.email, role: existing.originalRole },
        to: { email, role },
      });
    return updated;
  }
  const username = str(claims.preferred_username) || email.split('@')[0] || email;
  const [created] = await db
    .insert(t.users)
    .values({ ...values, username })
    .onConflictDoNothing({ target: t.users.email })
    .returning();
  // the same user's first sign-in on another node created it meanwhile: take that one
  if (!created) return upsertSsoUser(ctx, claims, role);
  await recordAudit(ctx, created, 'user-created', `user:${created.id}`, { by: 'single sign-on', email, role });
  return created;
}
