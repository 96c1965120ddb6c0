/**
 * When a parent fund's aggregation runs again (spec: parent and child funds, Needs rerun, the forced
 * aggregation rerun switch; docs/decisions/0013-fund-aggregation.md):
 * - A fund is an aggregate parent when the aggregation feature is on (`aggregation` setting), its
 *   consolidation flag (`aggreg_consol_flag`) is set to a code other than NONE, and it has at least
 *   one child that is not deleted (children point at it with `parentId`).
 * - `needs_rerun` turns on for the parent when a child's data changes: a child's standardization or
 *   calculation completes (a new delivery, a re-import, a file reset or removal all end there).
 * - It turns off, with the force switch, when the parent's aggregation has run (`clearRerunFlags`, in
 *   the transaction that stores the aggregate's calculation file).
 * - Turning the force switch on queues the parent's calculations (force run): the aggregation runs
 *   again whether or not a child changed.
 * Each change is published as a `fund-request` event, so listings and open fund pages refresh.
 */
import { and, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { fundRequests } from '../../db/schema/index.js';
import { enqueue } from '../../jobs/queue.js';
import type { Tx } from '../funds/trail.js';

/** Consolidation flag codes (`aggregateType` reference list) that make a parent aggregate its children. */
export function isConsolidationFlag(flag: string | null | undefined): boolean {
  return !!flag && flag.trim() !== '' && flag.trim().toUpperCase() !== 'NONE';
}

/** Ids of a fund's children that are not deleted, in id order. */
export function childIdsOf(db: Tx, parentId: number): number[] {
  return db
    .select({ id: fundRequests.id })
    .from(fundRequests)
    .where(and(eq(fundRequests.parentId, parentId), ne(fundRequests.status, 'Deleted')))
    .orderBy(fundRequests.id)
    .all()
    .map((r) => r.id);
}

/**
 * The children a fund aggregates, or null when it is not an aggregate parent (feature off, flag not
 * set, no child). @returns child fund ids in id order
 */
export function aggregatedChildren(ctx: AppContext, fundRequestId: number): number[] | null {
  if (!ctx.config.aggregation) return null;
  const fund = ctx.db.select({ flag: fundRequests.aggregConsolFlag }).from(fundRequests).where(eq(fundRequests.id, fundRequestId)).get();
  if (!fund || !isConsolidationFlag(fund.flag)) return null;
  const children = childIdsOf(ctx.db, fundRequestId);
  return children.length ? children : null;
}

/**
 * Marks the parent of a child fund as needing a rerun after the child's data changed, when that
 * parent aggregates it. @returns the parent's id when its flag was turned on, else null (no parent,
 * not an aggregate parent, or already on)
 */
export function markParentNeedsRerun(ctx: AppContext, childId: number): number | null {
  const child = ctx.db.select({ parentId: fundRequests.parentId }).from(fundRequests).where(eq(fundRequests.id, childId)).get();
  const parentId = child?.parentId;
  if (!parentId || !aggregatedChildren(ctx, parentId)?.includes(childId)) return null;
  const changed = ctx.db
    .update(fundRequests)
    .set({ needsRerun: true, updatedAt: new Date().toISOString() })
    .where(and(eq(fundRequests.id, parentId), eq(fundRequests.needsRerun, false)))
    .run().changes;
  if (!changed) return null;
  ctx.events.publish('fund-request', { ids: [parentId], action: 'needs-rerun' });
  return parentId;
}

/** Turns a parent's `needs_rerun` and forced rerun switch off once its aggregation has run (inside the caller's transaction). */
export function clearRerunFlags(tx: Tx, parentId: number): void {
  tx.update(fundRequests).set({ needsRerun: false, aggregForceRun: false, updatedAt: new Date().toISOString() }).where(eq(fundRequests.id, parentId)).run();
}

/**
 * Queues a parent's aggregation again (its calculations, force run) when the force switch is turned
 * on. @returns the process id, or null when the fund is not an aggregate parent (nothing to rerun)
 */
export function queueAggregationRerun(ctx: AppContext, userId: number | null, parentId: number): number | null {
  if (!aggregatedChildren(ctx, parentId)) return null;
  return enqueue(ctx, { stage: 'calculations', fundRequestId: parentId, forceRun: true, createdById: userId }).id;
}
