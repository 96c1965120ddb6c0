/**
 * API keys of the key generator and the developer tools (delivery spec "Developer tools", section 7
 * `GET /key/sweeper`, `/key/canvas`, `/key/worker`, `/key/test-runner`, `/dev-tools/user/key/system`
 * and `/dev-tools/user/key/{userId}/{optional 10h}`).
 *
 * A service key belongs to a service user (one per service, created on first use). Generating a new
 * key revokes the service's earlier keys, so one key per service works at a time. Keys are ordinary
 * tokens: random, stored only as hashes, revocable; the raw key is returned once.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { Role } from '../../db/schema/users.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { recordAudit } from '../audit/audit-log.js';
import { issueToken, revokeUserTokens, type User } from '../auth/tokens.js';
import { SERVICE_USER_DOMAIN } from '../users/users.js';

/** Lifetime of a generated API key (spec: long-lived token, 10 years). */
export const API_KEY_TTL_MS = 10 * 365 * 24 * 3_600_000;
/** Lifetime of an impersonation session (spec: 10 hours). */
export const IMPERSONATION_TTL_MS = 10 * 3_600_000;

/** The services keys are generated for, with the user each key belongs to. */
export const SERVICE_USERS = {
  sweeper: { name: 'Sweeper Service', role: 'DeliveryTeamMember', purpose: 'drops files into the import inbox and posts imports' },
  canvas: { name: 'Canvas Service', role: 'DeliveryTeamMember', purpose: 'reads fund requests and files for an external canvas app' },
  worker: { name: 'Worker Service', role: 'DeliveryTeamMember', purpose: 'runs pipeline work from outside the server' },
  'test-runner': { name: 'Test Runner Service', role: 'DeliveryTeamMember', purpose: 'schedules regression test runs' },
  system: { name: 'System Test User', role: 'Admin', purpose: 'the test user of automated end-to-end tests' },
} as const satisfies Record<string, { name: string; role: Role; purpose: string }>;

export type ServiceName = keyof typeof SERVICE_USERS;

/** A key as handed out once. */
export interface GeneratedKey {
  service: ServiceName | null;
  userId: number;
  email: string;
  name: string;
  role: Role;
  token: string;
  expiresAt: string;
  /** How many earlier keys of the same service were revoked. */
  revoked: number;
}

/** E-mail of a service user: `<service>@service.fund-audit.local`. */
export const serviceEmail = (service: ServiceName) => `${service}@${SERVICE_USER_DOMAIN}`;

/** The service user of a service, created (or re-enabled) when needed. */
async function serviceUser(ctx: AppContext, service: ServiceName): Promise<User> {
  const spec = SERVICE_USERS[service];
  const email = serviceEmail(service);
  const { db, tables: t } = storeOf(ctx);
  const [firstName, ...rest] = spec.name.split(' ');
  await db
    .insert(t.users)
    .values({ email, username: `${service}-service`, firstName, lastName: rest.join(' '), role: spec.role, originalRole: spec.role })
    .onConflictDoNothing({ target: t.users.email });
  const [user] = await db.select().from(t.users).where(eq(t.users.email, email)).limit(1);
  if (!user) throw new NotFoundError(`The service user ${email} could not be created`);
  if (!user.disabled) return user;
  const [enabled] = await db.update(t.users).set({ disabled: false, updatedAt: new Date().toISOString() }).where(eq(t.users.id, user.id)).returning();
  return enabled ?? user;
}

/** How many API keys of a user are not revoked. */
async function activeApiKeys(ctx: AppContext, userId: number): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({ id: t.tokens.id })
    .from(t.tokens)
    .where(and(eq(t.tokens.userId, userId), eq(t.tokens.kind, 'api'), isNull(t.tokens.revokedAt)));
  return rows.length;
}

/**
 * A new API key of a service (10 years); the service's earlier keys are revoked.
 * @throws ValidationError for an unknown service
 */
export async function generateServiceKey(ctx: AppContext, by: User, service: string): Promise<GeneratedKey> {
  if (!(service in SERVICE_USERS)) throw new ValidationError(`Unknown service '${service}'; keys exist for ${Object.keys(SERVICE_USERS).join(', ')}`);
  const name = service as ServiceName;
  const { user, revoked, token, expiresAt } = await transaction(ctx, async () => {
    const user = await serviceUser(ctx, name);
    const revoked = await activeApiKeys(ctx, user.id);
    await revokeUserTokens(ctx, user.id, ['api']);
    return { user, revoked, ...(await issueToken(ctx, user.id, 'api', API_KEY_TTL_MS, `${name} key`)) };
  });
  ctx.log.info({ service: name, userId: user.id, by: by.id, revoked }, 'service key generated');
  await recordAudit(ctx, by, 'key-generated', `user:${user.id}`, { service: name, revokedEarlierKeys: revoked, expiresAt });
  return { service: name, userId: user.id, email: user.email, name: SERVICE_USERS[name].name, role: user.role, token, expiresAt, revoked };
}

/** An enabled user by id. */
async function findUser(ctx: AppContext, userId: number | string): Promise<User> {
  const id = Number(userId);
  const { db, tables: t } = storeOf(ctx);
  const user = Number.isSafeInteger(id) ? (await db.select().from(t.users).where(eq(t.users.id, id)).limit(1))[0] : undefined;
  if (!user) throw new NotFoundError(`No user with id: ${userId}`);
  if (user.disabled) throw new ConflictError(`${user.email} is disabled; enable the user before creating a token`);
  return user;
}

/** A key issued to a user (not a service) as the key generator page shows it. */
function userKey(user: Awaited<ReturnType<typeof findUser>>, token: string, expiresAt: string): GeneratedKey {
  return {
    service: null,
    userId: user.id,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`.trim() || user.username,
    role: user.role,
    token,
    expiresAt,
    revoked: 0,
  };
}

/**
 * A long-lived API key (10 years) of any user (developer tools, local environment only). The user's
 * other keys stay valid.
 * @throws NotFoundError for an unknown user; ConflictError for a disabled one
 */
export async function generateUserKey(ctx: AppContext, by: User, userId: number | string): Promise<GeneratedKey> {
  const user = await findUser(ctx, userId);
  const { token, expiresAt } = await issueToken(ctx, user.id, 'api', API_KEY_TTL_MS, `key generated by user ${by.id}`);
  ctx.log.info({ userId: user.id, by: by.id }, 'user key generated');
  await recordAudit(ctx, by, 'key-generated', `user:${user.id}`, { email: user.email, expiresAt });
  return userKey(user, token, expiresAt);
}

/**
 * An impersonation session of 10 hours for a user: signing in with it acts as that user.
 * @param expiry must be '10h' (the only lifetime the spec names)
 * @throws ConflictError when impersonation is off (`impersonateEnabled`); ValidationError for another expiry; NotFoundError for an unknown user
 */
export async function impersonate(ctx: AppContext, by: User, userId: number | string, expiry: string): Promise<GeneratedKey> {
  if (!ctx.config.impersonateEnabled) throw new ConflictError('Impersonation is disabled on this server (setting impersonateEnabled)');
  if (expiry !== '10h') throw new ValidationError(`An impersonation token lasts 10 hours: use '10h' (got '${expiry}')`);
  const user = await findUser(ctx, userId);
  const { token, expiresAt } = await issueToken(ctx, user.id, 'session', IMPERSONATION_TTL_MS, `impersonation by user ${by.id}`);
  ctx.log.warn({ userId: user.id, by: by.id }, 'impersonation session issued');
  await recordAudit(ctx, by, 'impersonation', `user:${user.id}`, { email: user.email, expiresAt });
  return userKey(user, token, expiresAt);
}
