/**
 * Reminder schedules of missing files (docs/chasing.md "Schedule"): days relative to the data due
 * date (install default `chaseOffsets`, -3,0,3,7), overridable per TPA (`chase_schedules`), and the
 * late reminder from which escalation contacts are copied in (`chaseEscalateFrom`, 2). The plan of
 * one fund is a pure function of its due date, its schedule, the day and how many reminders were sent.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { recordAudit, type AuditActor } from '../audit/audit-log.js';

/** A reminder schedule. */
export interface ChaseSchedule {
  /** Days relative to the data due date, ascending, no repeats (negative: before it). */
  offsets: number[];
  /** From which late reminder (1 = first after the due date) escalation contacts get the mail. */
  escalateFrom: number;
  /** false: the TPA is not chased. */
  enabled: boolean;
  /** 'install' or 'tpa' (its own schedule). */
  source: 'install' | 'tpa';
}

/** Longest reach of a schedule step (days before or after the due date). */
export const OFFSET_LIMIT = 365;

/**
 * Parses a schedule's days ('-3,0,3,7' or a list), sorted, repeats dropped.
 * @throws ValidationError naming the bad day
 */
export function parseOffsets(value: string | number[]): number[] {
  const parts = Array.isArray(value) ? value.map(String) : value.split(',').map((p) => p.trim());
  const out = new Set<number>();
  for (const p of parts) {
    if (!/^-?\d+$/.test(p))
      throw new ValidationError(`'${p}' is not a whole number of days (use e.g. -3,0,3,7)`, [
        { column: 'offsets', message: `'${p}' is not a whole number of days` },
      ]);
    const n = Number(p);
    if (Math.abs(n) > OFFSET_LIMIT)
      throw new ValidationError(`${n} days is further than ${OFFSET_LIMIT} days from the due date`, [
        { column: 'offsets', message: `at most ${OFFSET_LIMIT} days` },
      ]);
    out.add(n);
  }
  if (!out.size) throw new ValidationError('A schedule needs at least one day', [{ column: 'offsets', message: 'at least one day' }]);
  return [...out].sort((a, b) => a - b);
}

/** The install's schedule (configuration). */
export function installSchedule(ctx: AppContext): ChaseSchedule {
  return { offsets: parseOffsets(ctx.config.chaseOffsets), escalateFrom: ctx.config.chaseEscalateFrom, enabled: true, source: 'install' };
}

/** The schedule of every TPA with its own, by TPA id. */
export async function tpaSchedules(ctx: AppContext): Promise<Map<number, ChaseSchedule>> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db.select().from(t.chaseSchedules);
  return new Map(rows.map((r) => [r.administratorId, { offsets: r.offsets, escalateFrom: r.escalateFrom, enabled: r.enabled, source: 'tpa' as const }]));
}

/** The schedule a TPA is chased on: its own, else the install's. */
export async function scheduleOf(ctx: AppContext, administratorId: number | null): Promise<ChaseSchedule> {
  if (administratorId) {
    const own = (await tpaSchedules(ctx)).get(administratorId);
    if (own) return own;
  }
  return installSchedule(ctx);
}

/**
 * Sets a TPA's own schedule.
 * @param input.offsets days ('-5,0,5' or a list); `escalateFrom` default the install's; `enabled` default true
 * @throws NotFoundError for an unknown TPA; ValidationError for bad days
 */
export async function setTpaSchedule(
  ctx: AppContext,
  actor: AuditActor | null,
  administratorId: number,
  input: { offsets: string | number[]; escalateFrom?: number; enabled?: boolean },
): Promise<ChaseSchedule> {
  const { db, tables: t } = storeOf(ctx);
  const [admin] = await db.select().from(t.administrators).where(eq(t.administrators.id, administratorId));
  if (!admin) throw new NotFoundError(`No TPA with id: ${administratorId}`);
  const offsets = parseOffsets(input.offsets);
  const escalateFrom = input.escalateFrom ?? ctx.config.chaseEscalateFrom;
  if (!Number.isInteger(escalateFrom) || escalateFrom < 1)
    throw new ValidationError('Escalation starts at a late reminder number of 1 or more', [{ column: 'escalateFrom', message: 'a whole number of 1 or more' }]);
  const enabled = input.enabled ?? true;
  const values = { administratorId, offsets, escalateFrom, enabled, updatedById: actor?.id ?? null, updatedAt: new Date().toISOString() };
  await db.insert(t.chaseSchedules).values(values).onConflictDoUpdate({ target: t.chaseSchedules.administratorId, set: values });
  await recordAudit(ctx, actor, 'chase-schedule-changed', `administrator:${administratorId}`, { offsets, escalateFrom, enabled });
  return { offsets, escalateFrom, enabled, source: 'tpa' };
}

/** Drops a TPA's own schedule: it is chased on the install's again. */
export async function clearTpaSchedule(ctx: AppContext, actor: AuditActor | null, administratorId: number): Promise<ChaseSchedule> {
  const { db, tables: t } = storeOf(ctx);
  await db.delete(t.chaseSchedules).where(eq(t.chaseSchedules.administratorId, administratorId));
  await recordAudit(ctx, actor, 'chase-schedule-changed', `administrator:${administratorId}`, { reset: true });
  return installSchedule(ctx);
}

/** What a run does for one fund's missing files today. */
export interface ReminderPlan {
  /** A reminder is due today: the index of the schedule step it is (0-based). */
  dueStep: number | null;
  /** The day (ISO date) of the step after the due one (or after those sent), null when none is left. */
  nextOn: string | null;
  /** Late reminders (steps after the due date) including today's. */
  lateNumber: number;
  /** Whether escalation contacts get today's reminder. */
  escalate: boolean;
  /** Whether the schedule has begun for this fund (today is on or after its first step). */
  started: boolean;
}

/**
 * The reminder due today for a fund whose files are missing: the latest step of the schedule whose
 * day has come, if it was not sent yet (steps missed while no run happened are not sent one by
 * one: the latest due one goes out once).
 * @param dueDate ISO date; `today` ISO date; `sent` steps already sent (the chase's reminders)
 */
export function reminderPlan(dueDate: string, schedule: Pick<ChaseSchedule, 'offsets' | 'escalateFrom'>, today: string, sent: number): ReminderPlan {
  const days = dayNumber(today) - dayNumber(dueDate);
  const { offsets } = schedule;
  let reached = -1;
  for (let i = 0; i < offsets.length; i++) if (offsets[i]! <= days) reached = i;
  const dueStep = reached >= 0 && reached >= sent ? reached : null;
  const after = dueStep !== null ? dueStep + 1 : Math.max(sent, reached + 1);
  const nextOn = after < offsets.length ? isoDayAfter(dueDate, offsets[after]!) : null;
  const lateNumber = dueStep === null ? 0 : offsets.slice(0, dueStep + 1).filter((o) => o > 0).length;
  return { dueStep, nextOn, lateNumber, escalate: lateNumber >= schedule.escalateFrom, started: reached >= 0 };
}

/** The day (ISO date) `days` after an ISO date or timestamp. */
export const isoDayAfter = (from: string, days: number) => new Date((dayNumber(from) + days) * 86_400_000).toISOString().slice(0, 10);

/** Days since 1970-01-01 of an ISO date (or the date of a timestamp), in UTC whatever the machine's zone. */
export function dayNumber(iso: string): number {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number);
  return Date.UTC(y!, m! - 1, d!) / 86_400_000;
}
