/**
 * The history of chases as recorded events (`chase_events`): every state change of every chase,
 * written in the same transaction as the change itself (`recordChaseEvent`) and read back by the
 * chase timeline and the TPA scorecards (`chaseEvents`).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { ChaseReason, ChaseState } from '../../../rules/chasing.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';

/** One state change of a chase, as `chaseEvents` returns it. */
export interface ChaseEventRow {
  chaseId: number;
  fundRequestId: number;
  /** The fund's TPA when the chase was opened (null: a fund without one). */
  administratorId: number | null;
  /** The fund's client name when the chase was opened. */
  client: string | null;
  reason: ChaseReason;
  /** The state the chase moved to. */
  state: ChaseState;
  /** ISO-8601 UTC timestamp of the change. */
  at: string;
  /** The user's e-mail, or 'system' (a chase run, the pipeline). */
  actor: string;
  /** A few words on the change ('reminder 2', 'trial_balance.csv uploaded', a return reason). */
  note: string;
}

/** Filters of `chaseEvents`. */
export interface ChaseEventFilter {
  /** Changes at or after this instant (ISO date or timestamp, UTC). */
  from?: string;
  /** Changes before this instant (ISO date or timestamp, UTC; exclusive). */
  to?: string;
  administratorId?: number;
  /** Exact client name, as on the fund requests. */
  client?: string;
  /** Only these chases. */
  chaseIds?: number[];
  /** Only chases of this fund request. */
  fundRequestId?: number;
}

/**
 * Every recorded state change of the chases that match, oldest first (ties in the order they were
 * written). A chase opened and resolved shows at least two rows: its opening state (scheduled, or
 * answered / sent) and resolved. Shape kept stable: scorecards build on it.
 * @param filter.from / filter.to a half-open window [from, to) on `at`; both optional
 * @returns rows `{chaseId, fundRequestId, administratorId, client, reason, state, at, actor, note}`
 */
export async function chaseEvents(ctx: AppContext, filter: ChaseEventFilter = {}): Promise<ChaseEventRow[]> {
  const { db, tables: t } = storeOf(ctx);
  const e = t.chaseEvents;
  const where: SQL[] = [];
  if (filter.from) where.push(gte(e.at, filter.from));
  if (filter.to) where.push(lt(e.at, filter.to));
  if (filter.administratorId !== undefined) where.push(eq(e.administratorId, filter.administratorId));
  if (filter.client !== undefined) where.push(eq(e.client, filter.client));
  if (filter.fundRequestId !== undefined) where.push(eq(e.fundRequestId, filter.fundRequestId));
  if (filter.chaseIds) {
    if (!filter.chaseIds.length) return [];
    where.push(inArray(e.chaseId, filter.chaseIds));
  }
  return db
    .select({
      chaseId: e.chaseId,
      fundRequestId: e.fundRequestId,
      administratorId: e.administratorId,
      client: e.client,
      reason: e.reason,
      state: e.state,
      at: e.at,
      actor: e.actor,
      note: e.note,
    })
    .from(e)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(e.at), asc(e.id));
}

/** Who made a change: a user, or the product itself (null). */
export type ChaseActor = { id: number; email: string } | null;

/** What `recordChaseEvent` needs of the chase. */
export interface ChaseRef {
  id: number;
  fundRequestId: number;
  administratorId: number | null;
  client: string | null;
  reason: ChaseReason;
}

/**
 * Appends one state change of a chase (call it in the transaction that changes the chase, so the
 * history and the chase never disagree).
 * @param at ISO timestamp of the change (default now)
 */
export async function recordChaseEvent(
  ctx: AppContext,
  chase: ChaseRef,
  state: ChaseState,
  opts: { actor?: ChaseActor; note?: string; at?: string; details?: Record<string, unknown> } = {},
): Promise<void> {
  await recordChaseEvents(ctx, [{ chase, state, ...opts }]);
}

/** Appends several state changes at once (a chase run's batch); see `recordChaseEvent`. */
export async function recordChaseEvents(
  ctx: AppContext,
  changes: Array<{ chase: ChaseRef; state: ChaseState; actor?: ChaseActor; note?: string; at?: string; details?: Record<string, unknown> }>,
): Promise<void> {
  if (!changes.length) return;
  const { db, tables: t } = storeOf(ctx);
  const now = new Date().toISOString();
  const rows = changes.map((c) => ({
    chaseId: c.chase.id,
    fundRequestId: c.chase.fundRequestId,
    administratorId: c.chase.administratorId,
    client: c.chase.client,
    reason: c.chase.reason,
    state: c.state,
    at: c.at ?? now,
    actorId: c.actor?.id ?? null,
    actor: c.actor?.email ?? 'system',
    note: c.note ?? '',
    details: c.details ?? null,
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insert(t.chaseEvents).values(rows.slice(i, i + 500));
}

/** Chase events of a fund, newest first (the fund's chase timeline). */
export async function fundChaseEvents(ctx: AppContext, fundRequestId: number): Promise<ChaseEventRow[]> {
  return (await chaseEvents(ctx, { fundRequestId })).reverse();
}
