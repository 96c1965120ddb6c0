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
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * rerun is queued through the job queue (`enqueue`, `server/queue/enqueue.ts`).
 */
import { and, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { enqueue } from '../../queue/queue.js';

/** Consolidation flag codes (`aggregateType` reference list) that make a parent aggregate its children. */
export function isConsolidationFlag(flag: string | null | undefined): boolean {
  return !!flag && flag.trim() !== '' && flag.trim().toUpperCase() !== 'NONE';
}

/** Ids of a fund's children that are not deleted, in id order. */
export async function childIdsOf(ctx: AppContext, parentId: number): Promise<number[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({ id: t.fundRequests.id })
    .from(t.fundRequests)
    .where(and(eq(t.fundRequests.parentId, parentId), ne(t.fundRequests.status, 'Deleted')))
    .orderBy(t.fundRequests.id);
  return rows.map((r) => r.id);
}

/**
 * The children a fund aggregates, or null when it is not an aggregate parent (feature off, flag not
 * set, no child). @returns child fund ids in id order
 */
export async function aggregatedChildren(ctx: AppContext, fundRequestId: number): Promise<number[] | null> {
  if (!ctx.config.aggregation) return null;
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ flag: t.fundRequests.aggregConsolFlag }).from(t.fundRequests).where(eq(t.fundRequests.id, fundRequestId));
  if (!fund || !isConsolidationFlag(fund.flag)) return null;
  const children = await childIdsOf(ctx, fundRequestId);
  return children.length ? children : null;
}

/**
 * Marks the parent of a child fund as needing a rerun after the child's data changed, when that
 * parent aggregates it. @returns the parent's id when its flag was turned on, else null (no parent,
 * not an aggregate parent, or already on)
 */
export async function markParentNeedsRerun(ctx: AppContext, childId: number): Promise<number | null> {
  const { db, tables: t } = storeOf(ctx);
  const [child] = await db.select({ parentId: t.fundRequests.parentId }).from(t.fundRequests).where(eq(t.fundRequests.id, childId));
  const parentId = child?.parentId;
  if (!parentId || !(await aggregatedChildren(ctx, parentId))?.includes(childId)) return null;
  const changed = await db
    .update(t.fundRequests)
    .set({ needsRerun: true, updatedAt: new Date().toISOString() })
    .where(and(eq(t.fundRequests.id, parentId), eq(t.fundRequests.needsRerun, false)))
    .returning({ id: t.fundRequests.id });
  if (!changed.length) return null;
  ctx.events.publish('fund-request', { ids: [parentId], action: 'needs-rerun' });
  return parentId;
}

/**
 * Turns a parent's `needs_rerun` and forced rerun switch off once its aggregation has run; called
 * inside the transaction that stores the aggregate's calculation file, which it joins.
 */
export async function clearRerunFlags(ctx: AppContext, parentId: number): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  await db.update(t.fundRequests).set({ needsRerun: false, aggregForceRun: false, updatedAt: new Date().toISOString() }).where(eq(t.fundRequests.id, parentId));
}

/**
 * Queues a parent's aggregation again (its calculations, force run) when the force switch is turned
 * on. @returns the process id, or null when the fund is not an aggregate parent (nothing to rerun)
 */
export async function queueAggregationRerun(ctx: AppContext, userId: number | null, parentId: number): Promise<number | null> {
  if (!(await aggregatedChildren(ctx, parentId))) return null;
  return (await enqueue(ctx, { stage: 'calculations', fundRequestId: parentId, forceRun: true, createdById: userId })).id;
}
