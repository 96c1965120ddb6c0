/**
 * Audit adjustments of a fund (delivery spec, Fund details: the adjustment dialogs, 'Rerun
 * adjustments' and 'Rerun apportionment'; docs/decisions/0012-audit-adjustments.md): list, create,
 * update and delete proposed journals, and recalculate the fund with them. The rules (types,
 * pre/post-calc, double entry, field checks) are `rules/adjustments.ts`; the pipeline applies them
 * (`pipeline/adjustments/`). Every create, update, delete and rerun writes a trail entry of the
 * fund (actions `adjustment-create`, `adjustment-update`, `adjustment-delete`,
 * `rerun-adjustments`, `rerun-apportionment`) in the same transaction as the change.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ADJUSTMENT_RERUNS, ADJUSTMENT_TYPE_RULES, adjustmentProblems, type AdjustmentInput, type AdjustmentRerun } from '../../../rules/adjustments.js';
import type { FundAdjustment } from '../../../pipeline/adjustments/apply.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { publishProcess } from '../../queue/queue.js';
import type { User } from '../auth/tokens.js';
import { writeTrail } from '../trail/trail.js';

type Row = Tables['adjustments']['$inferSelect'];

/** An adjustment as the API, the CLI and the stages see it. */
export type AdjustmentView = FundAdjustment & { fundRequestId: number };

/** The result of a rerun: the calculations job queued (the work paper follows it). */
export interface AdjustmentRerunResult {
  fundRequestId: number;
  rerun: AdjustmentRerun;
  processId: number;
  /** Adjustments of the fund at the time, and how many of them the TPA booked. */
  adjustments: number;
  booked: number;
}

const view = (r: Row): AdjustmentView => ({
  id: r.id,
  fundRequestId: r.fundRequestId,
  type: r.type,
  description: r.description,
  bookedByTpa: r.bookedByTpa,
  lines: r.lines,
  author: r.author,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

async function requireFund(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ id: t.fundRequests.id, status: t.fundRequests.status }).from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${id}`);
  return fund;
}

async function requireAdjustment(ctx: AppContext, fundRequestId: number, id: number): Promise<Row> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .select()
    .from(t.adjustments)
    .where(and(eq(t.adjustments.id, id), eq(t.adjustments.fundRequestId, fundRequestId)));
  if (!row) throw new NotFoundError(`No such adjustment with id: ${id} on fund request ${fundRequestId}`);
  return row;
}

const positiveId = (what: string, v: unknown): number => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new ValidationError(`${what} must be a positive whole number, not '${String(v)}'`);
  return n;
};

/**
 * Checks an adjustment as entered and returns it cleaned (texts trimmed, empty line descriptions
 * and security ids of ledger lines dropped).
 * @throws ValidationError 'The adjustment is not valid' listing every problem as `{column: field, message}`
 */
export function validateAdjustment(input: unknown): AdjustmentInput {
  const problems = adjustmentProblems(input as Partial<AdjustmentInput>);
  if (problems.length)
    throw new ValidationError(
      'The adjustment is not valid',
      problems.map((p) => ({ column: p.field, message: p.message })),
    );
  const a = input as AdjustmentInput;
  return {
    type: a.type,
    description: a.description.trim(),
    bookedByTpa: a.bookedByTpa,
    lines: a.lines.map((l) => ({
      account: l.account.trim(),
      target: l.target,
      ...(l.target === 'holding_value' ? { securityId: (l.securityId ?? '').trim() } : {}),
      amount: l.amount,
      ...(l.description?.trim() ? { description: l.description.trim() } : {}),
    })),
  };
}

const authorName = (user: User) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/**
 * Every adjustment of a fund, oldest first.
 * @throws NotFoundError 'No such fund request with id: {id}'
 */
export async function listAdjustments(ctx: AppContext, fundRequestId: number): Promise<AdjustmentView[]> {
  const id = positiveId('Fund request id', fundRequestId);
  await requireFund(ctx, id);
  return adjustmentsOf(ctx, id);
}

/** A fund's adjustments, oldest first. */
async function adjustmentsOf(ctx: AppContext, fundRequestId: number): Promise<AdjustmentView[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db.select().from(t.adjustments).where(eq(t.adjustments.fundRequestId, fundRequestId)).orderBy(asc(t.adjustments.id));
  return rows.map(view);
}

/**
 * The adjustments the pipeline applies to a fund (`pipeline/adjustments/apply.ts`); none for an
 * unknown fund.
 */
export const fundAdjustments = (ctx: AppContext, fundRequestId: number): Promise<FundAdjustment[]> => adjustmentsOf(ctx, fundRequestId);

/**
 * Adds an adjustment to a fund, authored by `user` now.
 * @throws NotFoundError for an unknown fund; ValidationError naming each field in error
 */
export async function createAdjustment(ctx: AppContext, user: User, fundRequestId: number, input: unknown): Promise<AdjustmentView> {
  const id = positiveId('Fund request id', fundRequestId);
  const { tables: t } = storeOf(ctx);
  return transaction(ctx, async (tx) => {
    await requireFund(ctx, id);
    const a = validateAdjustment(input);
    const [row] = await tx
      .insert(t.adjustments)
      .values({ fundRequestId: id, ...a, authorId: user.id, author: authorName(user) })
      .returning();
    await writeTrail(ctx, { fundRequestId: id, userId: user.id, action: 'adjustment-create', before: null, after: view(row) });
    return view(row);
  });
}

/**
 * Replaces the fields of an adjustment (type, description, booked by TPA, lines); the author stays,
 * the trail records who changed it and the before and after.
 * @throws NotFoundError for an unknown fund or adjustment; ValidationError naming each field in error
 */
export async function updateAdjustment(ctx: AppContext, user: User, fundRequestId: number, adjustmentId: number, input: unknown): Promise<AdjustmentView> {
  const fid = positiveId('Fund request id', fundRequestId);
  const aid = positiveId('Adjustment id', adjustmentId);
  const { tables: t } = storeOf(ctx);
  return transaction(ctx, async (tx) => {
    await requireFund(ctx, fid);
    const before = await requireAdjustment(ctx, fid, aid);
    const a = validateAdjustment(input);
    const [row] = await tx
      .update(t.adjustments)
      .set({ ...a, updatedAt: new Date().toISOString() })
      .where(eq(t.adjustments.id, aid))
      .returning();
    await writeTrail(ctx, { fundRequestId: fid, userId: user.id, action: 'adjustment-update', before: view(before), after: view(row) });
    return view(row);
  });
}

/**
 * Deletes an adjustment (the trail keeps what it was).
 * @returns `{id, deleted: true}`
 * @throws NotFoundError for an unknown fund or adjustment
 */
export async function deleteAdjustment(ctx: AppContext, user: User, fundRequestId: number, adjustmentId: number): Promise<{ id: number; deleted: true }> {
  const fid = positiveId('Fund request id', fundRequestId);
  const aid = positiveId('Adjustment id', adjustmentId);
  const { tables: t } = storeOf(ctx);
  await transaction(ctx, async (tx) => {
    await requireFund(ctx, fid);
    const before = await requireAdjustment(ctx, fid, aid);
    await tx.delete(t.adjustments).where(eq(t.adjustments.id, aid));
    await writeTrail(ctx, { fundRequestId: fid, userId: user.id, action: 'adjustment-delete', before: view(before), after: null });
  });
  return { id: aid, deleted: true };
}

export const rerunInputSchema = z.object({ rerun: z.enum(['adjustments', 'apportionment']).default('adjustments') });

/**
 * 'Rerun adjustments' / 'Rerun apportionment': queues the fund's calculations (force run), which
 * apply its booked pre-calc adjustments before the checks and queue the work paper, which lists
 * the unbooked ones as unadjusted differences and reports the booked post-calc ones. A pending
 * calculations job of the fund is reused.
 * @throws NotFoundError for an unknown fund; ConflictError for a deleted fund
 */
export async function rerunAdjustments(
  ctx: AppContext,
  user: User,
  fundRequestId: number,
  rerun: AdjustmentRerun = 'adjustments',
): Promise<AdjustmentRerunResult> {
  const id = positiveId('Fund request id', fundRequestId);
  if (!(rerun in ADJUSTMENT_RERUNS))
    throw new ValidationError(`Rerun must be one of ${Object.keys(ADJUSTMENT_RERUNS).join(', ')}, not ${JSON.stringify(rerun)}`);
  const { tables: t } = storeOf(ctx);
  const { result, process } = await transaction(ctx, async (tx) => {
    const fund = await requireFund(ctx, id);
    if (fund.status === 'Deleted') throw new ConflictError(`Fund request ${id} is deleted: restore it before recalculating its adjustments`);
    const all = await tx.select().from(t.adjustments).where(eq(t.adjustments.fundRequestId, id));
    const ofRerun = all.filter((a) => ADJUSTMENT_TYPE_RULES[a.type].rerun === rerun);
    const [pending] = await tx
      .select()
      .from(t.processes)
      .where(and(eq(t.processes.fundRequestId, id), eq(t.processes.stage, 'calculations'), eq(t.processes.status, 'pending')))
      .orderBy(asc(t.processes.id))
      .limit(1);
    const process =
      pending ??
      (
        await tx
          .insert(t.processes)
          .values({ fundRequestId: id, stage: 'calculations', status: 'pending', forceRun: true, createdById: user.id, payload: { rerun } })
          .returning()
      )[0];
    const result: AdjustmentRerunResult = {
      fundRequestId: id,
      rerun,
      processId: process.id,
      adjustments: ofRerun.length,
      booked: ofRerun.filter((a) => a.bookedByTpa).length,
    };
    await writeTrail(ctx, { fundRequestId: id, userId: user.id, action: `rerun-${rerun}`, before: null, after: { ...result, queued: 'calculations' } });
    return { result, process };
  });
  publishProcess(ctx, process);
  return result;
}
