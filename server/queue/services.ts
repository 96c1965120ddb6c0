/**
 * Background services that can be switched on and off (spec developer tools "services on/off"):
 * `pipeline` (the job engine takes no new jobs while off; queued jobs wait) and `sweeper` (the
 * inbox folder is not swept while off) and `mail` (the chase outbox sends nothing while off; its mails
 * wait and go out once it is on again). Kept in settings, so the switch survives a restart.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { transaction } from '../db/tx.js';
import { ValidationError } from '../errors.js';

export const SERVICES = ['pipeline', 'sweeper', 'mail'] as const;
export type ServiceName = (typeof SERVICES)[number];
export type ServiceStates = Record<ServiceName, 'on' | 'off'>;

/** Current states (default on). */
export async function getServices(ctx: AppContext): Promise<ServiceStates> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.settings).where(eq(t.settings.key, 'services')).limit(1);
  return statesOf(row?.value);
}

/** The states in a stored value (a service not named, or not 'off', is on). */
function statesOf(value: unknown): ServiceStates {
  const stored = (value ?? {}) as Partial<ServiceStates>;
  return Object.fromEntries(SERVICES.map((s) => [s, stored[s] === 'off' ? 'off' : 'on'])) as ServiceStates;
}

/** Whether one service is on. */
export const serviceOn = async (ctx: AppContext, name: ServiceName) => (await getServices(ctx))[name] === 'on';

/**
 * Switches services; the other services keep their state, also when two switches happen at once.
 * @param changes e.g. `{ pipeline: 'off' }`
 * @returns every service's state after the change
 * @throws ValidationError for an unknown service or state (nothing is changed)
 */
export async function setServices(ctx: AppContext, changes: Record<string, string>): Promise<ServiceStates> {
  for (const [name, state] of Object.entries(changes)) {
    if (!(SERVICES as readonly string[]).includes(name)) throw new ValidationError(`Unknown service '${name}'; services are ${SERVICES.join(', ')}`);
    if (state !== 'on' && state !== 'off') throw new ValidationError(`Service ${name} can be 'on' or 'off' (got '${state}')`);
  }
  const { tables: t } = storeOf(ctx);
  const next = await transaction(ctx, async (tx) => {
    // Read-modify-write of one row, safe on both databases: make sure the row exists, lock it by
    // writing it (PostgreSQL: a concurrent switch waits here until this one commits; SQLite: one
    // write transaction at a time), then read it in a statement that sees every earlier commit.
    const now = new Date().toISOString();
    await tx.insert(t.settings).values({ key: 'services', value: {} }).onConflictDoNothing({ target: t.settings.key });
    await tx.update(t.settings).set({ updatedAt: now }).where(eq(t.settings.key, 'services'));
    const [row] = await tx.select().from(t.settings).where(eq(t.settings.key, 'services')).limit(1);
    const states = { ...statesOf(row?.value), ...(changes as Partial<ServiceStates>) };
    await tx.update(t.settings).set({ value: states, updatedAt: now }).where(eq(t.settings.key, 'services'));
    return states;
  });
  ctx.log.info({ services: next }, 'services switched');
  return next;
}
