/**
 * Background services that can be switched on and off (spec developer tools "services on/off"):
 * `pipeline` (the job engine takes no new jobs while off; queued jobs wait) and `sweeper` (the
 * inbox folder is not swept while off). Kept in settings, so the switch survives a restart.
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { settings } from '../../db/schema/index.js';
import { ValidationError } from '../../errors.js';

export const SERVICES = ['pipeline', 'sweeper'] as const;
export type ServiceName = (typeof SERVICES)[number];
export type ServiceStates = Record<ServiceName, 'on' | 'off'>;

/** Current states (default on). */
export function getServices(ctx: AppContext): ServiceStates {
  const row = ctx.db.select().from(settings).where(eq(settings.key, 'services')).get();
  const stored = (row?.value ?? {}) as Partial<ServiceStates>;
  return Object.fromEntries(SERVICES.map((s) => [s, stored[s] === 'off' ? 'off' : 'on'])) as ServiceStates;
}

/** Whether one service is on. */
export const serviceOn = (ctx: AppContext, name: ServiceName) => getServices(ctx)[name] === 'on';

/**
 * Switches services. @throws ValidationError for an unknown service or state
 */
export function setServices(ctx: AppContext, changes: Record<string, string>): ServiceStates {
  const next = getServices(ctx);
  for (const [name, state] of Object.entries(changes)) {
    if (!(SERVICES as readonly string[]).includes(name)) throw new ValidationError(`Unknown service '${name}'; services are ${SERVICES.join(', ')}`);
    if (state !== 'on' && state !== 'off') throw new ValidationError(`Service ${name} can be 'on' or 'off' (got '${state}')`);
    next[name as ServiceName] = state;
  }
  ctx.db
    .insert(settings)
    .values({ key: 'services', value: next })
    .onConflictDoUpdate({ target: settings.key, set: { value: next, updatedAt: new Date().toISOString() } })
    .run();
  ctx.log.info({ services: next }, 'services switched');
  return next;
}
