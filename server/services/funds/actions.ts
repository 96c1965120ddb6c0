/**
 * Status actions on selected fund requests (delivery spec section 4, auditor spec section 4):
 * approve (Open), close, issue, pause, decline, remove (delete), undo delete, reset, rerun and the
 * data-requested status. The rules are checked here, per fund: a fund that cannot move keeps its
 * status and comes back with `isStatusUnChanged: true` (the screens mark it '*' and show
 * `UNCHANGED_WARNING`). One transaction per call; every change writes a trail entry and the call
 * publishes a 'fund-request' event (plus 'process' events for queued pipeline work).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { MESSAGES } from '../../../rules/messages.js';
import { AUDITOR_CLOSE_FROM, STATUS_MOVES, type StatusAction } from '../../../rules/status-moves.js';
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { Stage } from '../../db/schema/pipeline.js';
import { DATA_REQUEST_STATUSES, type DataRequestStatus, type FundStatus } from '../../../rules/statuses.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { statusLabel } from './derive.js';
import { normalizeStatus, type FundInsert, type FundRow } from './fields.js';
import { writeTrail } from '../trail/trail.js';
import { parseInput } from '../query/validate.js';
import { recordAudit } from '../audit/audit-log.js';

/** The spec's bulk status warning (section 8 of both documents). */
export const UNCHANGED_WARNING = MESSAGES.unchangedWarning;

// the status machine (moves and the auditor's Close) is the rules module's
export { AUDITOR_CLOSE_FROM, STATUS_MOVES, type StatusAction } from '../../../rules/status-moves.js';

/** Every action name (also the trail's action names). */
export const FUND_ACTIONS = [...(Object.keys(STATUS_MOVES) as StatusAction[]), 'undo-delete', 'reset', 'rerun', 'changeDataRequestedStatus'] as const;
export type FundAction = (typeof FUND_ACTIONS)[number];

export const actionInputSchema = z.object({
  ids: z.array(z.coerce.number().int().positive()).min(1, 'select at least one fund').max(10_000),
  /** 'Auditor' from the auditor area; delivery sends the member's name */
  requestedBy: z.string().max(200).optional().nullable(),
  /** reset and rerun: process even when the inputs did not change (Fund details 'Force run'; default true) */
  forceRun: z.boolean().optional(),
});
export type ActionInput = z.input<typeof actionInputSchema>;

export const dataRequestInputSchema = z.object({
  ids: actionInputSchema.shape.ids,
  status: z.enum(DATA_REQUEST_STATUSES, { message: `must be one of ${DATA_REQUEST_STATUSES.join(', ')}` }),
});

/** One fund after an action. */
export interface ActionFund {
  id: number;
  status: string;
  statusLabel: string;
  isStatusUnChanged: boolean;
}

/** Result of an action: every fund asked for, and the warning when any did not move. */
export interface ActionResult {
  funds: ActionFund[];
  warning?: string;
}

/** What an action does to one fund; null when the fund cannot take it. */
interface Change {
  set?: Partial<FundInsert>;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  queue?: Stage;
  /** One job of `queue` per payload (identification: one per delivered file); one job with no payload when absent. */
  payloads?: Array<Record<string, unknown>>;
}

/** Runs an action over funds in one transaction. @throws NotFoundError for the first unknown id (nothing changes) */
async function runAction(
  ctx: AppContext,
  user: User,
  action: FundAction,
  ids: number[],
  plan: (f: FundRow, status: string) => Change | null | Promise<Change | null>,
  forceRun = true,
): Promise<ActionResult> {
  const unique = [...new Set(ids)];
  const queued: Array<{ id: number; fundRequestId: number | null; stage: string; status: string }> = [];
  const { dialect, tables: t } = storeOf(ctx);
  const fr = t.fundRequests;
  const funds = await transaction(ctx, async (tx) => {
    const rows = new Map<number, FundRow>();
    for (let i = 0; i < unique.length; i += 500) {
      const part = unique.slice(i, i + 500);
      // PostgreSQL: lock the rows (a write) before reading them, so a concurrent action on the same
      // funds waits for this one and then reads its outcome (a rerun count is not lost); SQLite
      // runs one write transaction at a time already
      if (dialect === 'postgres')
        await tx
          .update(fr)
          .set({ updatedAt: sql`${fr.updatedAt}` })
          .where(inArray(fr.id, part));
      for (const r of await tx.select().from(fr).where(inArray(fr.id, part))) rows.set(r.id, r);
    }
    const missing = unique.find((id) => !rows.has(id));
    if (missing !== undefined) throw new NotFoundError(`No such fund request with id: ${missing}`);
    const now = new Date().toISOString();
    const out: ActionFund[] = [];
    for (const id of unique) {
      const f = rows.get(id)!;
      const status = normalizeStatus(f.status);
      const change = await plan(f, status);
      if (!change) {
        out.push({ id, status, statusLabel: statusLabel(status), isStatusUnChanged: true });
        continue;
      }
      if (change.set)
        await tx
          .update(fr)
          .set({ ...change.set, updatedAt: now })
          .where(eq(fr.id, id));
      if (change.queue) {
        const inserted = await tx
          .insert(t.processes)
          .values(
            (change.payloads ?? [null]).map((payload) => ({
              fundRequestId: id,
              stage: change.queue!,
              status: 'pending' as const,
              forceRun,
              createdById: user.id,
              payload,
            })),
          )
          .returning({ id: t.processes.id, fundRequestId: t.processes.fundRequestId, stage: t.processes.stage, status: t.processes.status });
        queued.push(...inserted);
      }
      await writeTrail(ctx, { fundRequestId: id, userId: user.id, action, before: change.before, after: change.after });
      const next = normalizeStatus((change.set?.status as string | undefined) ?? status);
      out.push({ id, status: next, statusLabel: statusLabel(next), isStatusUnChanged: false });
    }
    return out;
  });
  const changed = funds.filter((f) => !f.isStatusUnChanged).map((f) => f.id);
  if (changed.length) ctx.events.publish('fund-request', { ids: changed, action });
  if (action === 'remove' && changed.length) await recordAudit(ctx, user, 'fund-deleted', `funds:${changed.join(',')}`, { ids: changed });
  for (const p of queued) ctx.events.publish('process', p);
  return funds.some((f) => f.isStatusUnChanged) ? { funds, warning: UNCHANGED_WARNING } : { funds };
}

/**
 * Moves funds to the status of an action (approve, close, issue, pause, decline, remove).
 * A close requested from the auditor area (requestedBy 'Auditor', or by an Auditor) moves only
 * open funds. Remove remembers the previous status for undo.
 * @throws ValidationError for bad input; NotFoundError 'No such fund request with id: {id}'
 */
export async function changeStatus(ctx: AppContext, user: User, action: StatusAction, input: ActionInput): Promise<ActionResult> {
  const { ids, requestedBy } = parseInput(actionInputSchema, input);
  const move = STATUS_MOVES[action];
  const fromAuditor = requestedBy === 'Auditor' || user.role === 'Auditor';
  const from: readonly string[] = action === 'close' && fromAuditor ? AUDITOR_CLOSE_FROM : move.from;
  return runAction(ctx, user, action, ids, (_f, status) => {
    if (!from.includes(status)) return null;
    const set: Partial<FundInsert> = { status: move.to };
    if (action === 'remove') set.statusBeforeDelete = status as FundStatus;
    // the trail records who asked: the area's requestedBy (Auditor / delivery team member) or the role
    return { set, before: { status }, after: { status: move.to, requestedBy: requestedBy ?? user.role } };
  });
}

/** Restores deleted funds to their status before the delete (or Pending). @throws as changeStatus */
export async function undoDelete(ctx: AppContext, user: User, input: ActionInput): Promise<ActionResult> {
  const { ids } = parseInput(actionInputSchema, input);
  return runAction(ctx, user, 'undo-delete', ids, (f, status) => {
    if (status !== 'Deleted') return null;
    const previous =
      f.statusBeforeDelete && normalizeStatus(f.statusBeforeDelete) !== 'Deleted' ? (normalizeStatus(f.statusBeforeDelete) as FundStatus) : 'Pending';
    return { set: { status: previous, statusBeforeDelete: null }, before: { status }, after: { status: previous } };
  });
}

/**
 * Queues a fund's pipeline again from identification (force run); any fund not deleted: one
 * identification job per file delivered to the fund, which identifies it again with the TPA's
 * current layouts and replaces the fund's parts of it. A fund with no delivered file has nothing
 * to identify (the trail says so). @throws as changeStatus
 */
export async function resetFunds(ctx: AppContext, user: User, input: ActionInput): Promise<ActionResult> {
  const { ids, forceRun = true } = parseInput(actionInputSchema, input);
  return runAction(
    ctx,
    user,
    'reset',
    ids,
    async (f, status) => {
      if (status === 'Deleted') return null;
      const { db, tables: t } = storeOf(ctx);
      const files = await db
        .select({ id: t.fundFiles.importFileId })
        .from(t.fundFiles)
        .where(and(eq(t.fundFiles.fundRequestId, f.id), eq(t.fundFiles.kind, 'input'), isNotNull(t.fundFiles.importFileId)))
        .orderBy(asc(t.fundFiles.importFileId));
      const importFileIds = [...new Set(files.map((r) => r.id as number))];
      if (!importFileIds.length) return { before: { status }, after: { status, queued: null, reason: 'no file delivered to identify' } };
      return {
        before: { status },
        after: { status, queued: 'identification', importFileIds, forceRun },
        queue: 'identification',
        payloads: importFileIds.map((importFileId) => ({ importFileId, reset: true })),
      };
    },
    forceRun,
  );
}

/**
 * Reruns the calculations and work papers of open funds: rerun count + 1, who and when, and a
 * pending calculations process (force run unless `forceRun: false`). Only Approved funds. @throws as changeStatus
 */
export async function rerunFunds(ctx: AppContext, user: User, input: ActionInput): Promise<ActionResult> {
  const { ids, forceRun = true } = parseInput(actionInputSchema, input);
  const now = new Date().toISOString();
  return runAction(
    ctx,
    user,
    'rerun',
    ids,
    (f, status) => {
      if (status !== 'Approved') return null;
      const count = f.rerunCount + 1;
      return {
        set: { rerunCount: count, rerunById: user.id, rerunByRole: user.role, rerunDate: now },
        before: { status, rerun_count: f.rerunCount },
        after: { status, rerun_count: count, forceRun },
        queue: 'calculations',
      };
    },
    forceRun,
  );
}

/** Sets the data-requested status of funds not deleted. @throws as changeStatus */
export async function changeDataRequestedStatus(ctx: AppContext, user: User, input: z.input<typeof dataRequestInputSchema>): Promise<ActionResult> {
  const { ids, status: value } = parseInput(dataRequestInputSchema, input);
  return runAction(ctx, user, 'changeDataRequestedStatus', ids, (f, status) =>
    status === 'Deleted'
      ? null
      : {
          set: { dataRequestStatus: value as DataRequestStatus },
          before: { status, dataRequestStatus: f.dataRequestStatus },
          after: { status, dataRequestStatus: value },
        },
  );
}

/** Runs any action by name (CLI). @throws as changeStatus */
export async function runFundAction(
  ctx: AppContext,
  user: User,
  action: Exclude<FundAction, 'changeDataRequestedStatus'>,
  input: ActionInput,
): Promise<ActionResult> {
  switch (action) {
    case 'undo-delete':
      return undoDelete(ctx, user, input);
    case 'reset':
      return resetFunds(ctx, user, input);
    case 'rerun':
      return rerunFunds(ctx, user, input);
    default:
      return changeStatus(ctx, user, action, input);
  }
}
