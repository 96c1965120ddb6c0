/**
 * Just-in-time users of single sign-on (OpenID Connect): the role an identity provider's groups
 * give, and the user row created or updated from the claims at every sign-in (e-mail, full name,
 * role), and when a sign-in may take over a user made otherwise with the same e-mail. Used by
 * `oidc.ts` after the provider's answer was verified.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { Role } from '../../db/schema/users.js';
import { UnauthorizedError } from '../../errors.js';
import { recordAudit } from '../audit/audit-log.js';
import { SERVICE_USER_DOMAIN } from '../users/users.js';
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

/** The first administrator (lowest id of the original role Admin): break-glass access, never taken over. */
async function firstAdminId(ctx: AppContext): Promise<number | undefined> {
  const { db, tables: t } = storeOf(ctx);
  const [admin] = await db
    .select({ id: t.users.id })
    .from(t.users)
    .where(eq(t.users.originalRole, 'Admin' as Role))
    .orderBy(asc(t.users.id))
    .limit(1);
  return admin?.id;
}

/**
 * Why a sign-in may not take over a user who was made otherwise (the CLI, the key generator) and
 * has the sign-in's e-mail, or null when it may: only with `oidcLinkByEmail` on, only when the
 * provider says the address is verified (`email_verified: true`, the boolean), and never a Root
 * user, the first administrator, the user of `adminEmail` or a service user.
 */
async function linkRefusal(ctx: AppContext, user: User, claims: SsoClaims): Promise<string | null> {
  const email = user.email;
  if (user.externalId) return `The e-mail ${email} belongs to another single sign-on identity`;
  if (!ctx.config.oidcLinkByEmail)
    return `The e-mail ${email} belongs to a user who signs in with sign-in links; single sign-on may take over such users only when an administrator allows it (oidcLinkByEmail)`;
  if (claims.email_verified !== true) return `The identity provider has not verified the e-mail ${email}, so it cannot sign in as the user who has it`;
  if (user.originalRole === 'Root' || email === ctx.config.adminEmail.toLowerCase() || user.id === (await firstAdminId(ctx)))
    return `The e-mail ${email} belongs to an administrator who keeps signing in with sign-in links (break-glass access); single sign-on never takes such a user over`;
  if (email.endsWith(`@${SERVICE_USER_DOMAIN}`)) return `The e-mail ${email} belongs to a service user, which single sign-on never takes over`;
  return null;
}

/**
 * Creates or updates the user of a verified sign-in. The user is found by its provider identity
 * (`<issuer> <sub>`); e-mail, names and role are then taken from the claims every time. A user
 * made otherwise with the same e-mail is taken over (linked to the identity, from then on an
 * single sign-on user) only as `linkRefusal` allows; until then the claims change nothing of it.
 * @param role the role of the user's groups; null: the provider knows the user but gives no role
 * @returns the user, or null when no role was given (a user of this identity has its open sessions ended)
 * @throws UnauthorizedError when the claims have no e-mail, the user is disabled, or the e-mail
 *   belongs to a user this sign-in may not take over (the reason in the message)
 */
export async function upsertSsoUser(ctx: AppContext, claims: SsoClaims, role: Role | null): Promise<User | null> {
  const email = str(claims.email).toLowerCase();
  if (!email || !email.includes('@')) throw new UnauthorizedError('The identity provider sent no e-mail address for this user');
  const externalId = `${claims.issuer} ${claims.sub}`;
  const { db, tables: t } = storeOf(ctx);
  const [byIdentity] = await db.select().from(t.users).where(eq(t.users.externalId, externalId)).limit(1);
  const byEmail = byIdentity ? undefined : (await db.select().from(t.users).where(eq(t.users.email, email)).limit(1))[0];
  const existing = byIdentity ?? byEmail;
  if (existing?.disabled) throw new UnauthorizedError('This user is disabled in Fund Audit');
  if (byEmail) {
    const refusal = await linkRefusal(ctx, byEmail, claims);
    if (refusal) throw new UnauthorizedError(refusal);
  }
  if (byIdentity && byIdentity.email !== email) {
    // the provider changed the identity's e-mail to one another user has: that user is not touched
    const [holder] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.email, email)).limit(1);
    if (holder)
      throw new UnauthorizedError(`The e-mail ${email} belongs to another user of Fund Audit; this identity keeps ${byIdentity.email} until it is freed`);
  }
  if (!role) {
    // only the identity's own user: a user not yet taken over keeps its sessions
    if (byIdentity) await revokeUserTokens(ctx, byIdentity.id, ['session']);
    return null;
  }
  const names = namesOf(claims, email);
  const values = { email, ...names, role, originalRole: role, externalId, updatedAt: new Date().toISOString() };
  if (existing) {
    // a user taken over now is linked only if no other sign-in linked it meanwhile
    const where = byEmail ? and(eq(t.users.id, existing.id), isNull(t.users.externalId)) : eq(t.users.id, existing.id);
    const [updated] = await db.update(t.users).set(values).where(where).returning();
    if (!updated) throw new UnauthorizedError('This user was changed in Fund Audit during the sign-in; sign in again');
    if (byEmail)
      await recordAudit(ctx, updated, 'user-linked', `user:${updated.id}`, {
        by: 'single sign-on',
        identity: externalId,
        from: { email: existing.email, role: existing.originalRole },
        to: { email, role },
      });
    else if (existing.originalRole !== role || existing.email !== email)
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
  // the same user's first sign-in on another node created it meanwhile (or a user with this
  // e-mail was made): take that one, through the same checks
  if (!created) return upsertSsoUser(ctx, claims, role);
  await recordAudit(ctx, created, 'user-created', `user:${created.id}`, { by: 'single sign-on', email, role });
  return created;
}
