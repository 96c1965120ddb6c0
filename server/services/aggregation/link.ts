/**
 * Linking a child fund to its parent (`parentId` on the child's fund save; spec: parent and child
 * funds; docs/decisions/0013-fund-aggregation.md). The link is an aggregation setting, not one of
 * the request's rows: it may change whatever the child's status and files (an open fund with its
 * data delivered is the usual case). One level only: a parent is not itself a child, and a fund
 * with children is not linked under another. Once the link changes, the new parent is marked
 * `is_parent` (the fund details then say 'Is parent: Yes') and the aggregation of each parent
 * concerned (the new one, and the former one while it still has children) is queued again, so that
 * its figures include, or no longer include, the child.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, count, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { writeTrail } from '../trail/trail.js';
import { queueAggregationRerun } from './rules.js';

/**
 * What is wrong with linking fund `fundId` (null while it is being created) to parent `parentId`:
 * an unknown or deleted parent, the fund itself, a parent that is itself a child, a fund that has
 * children of its own. @returns one message per problem (empty when the link is allowed)
 */
export async function parentLinkErrors(ctx: AppContext, fundId: number | null, parentId: number): Promise<string[]> {
  const { db, tables: t } = storeOf(ctx);
  if (fundId !== null && parentId === fundId) return [`parentId ${parentId}: a fund cannot be its own parent`];
  const [parent] = await db
    .select({ id: t.fundRequests.id, parentId: t.fundRequests.parentId, status: t.fundRequests.status })
    .from(t.fundRequests)
    .where(eq(t.fundRequests.id, parentId));
  if (!parent || parent.status === 'Deleted') return [`parentId ${parentId}: no such fund request`];
  const errors: string[] = [];
  if (parent.parentId !== null)
    errors.push(`parentId ${parentId}: fund request ${parentId} is itself a child of ${parent.parentId} (one level of parents only)`);
  if (fundId !== null) {
    const [children] = await db
      .select({ n: count() })
      .from(t.fundRequests)
      .where(and(eq(t.fundRequests.parentId, fundId), ne(t.fundRequests.status, 'Deleted')));
    if ((children?.n ?? 0) > 0) errors.push(`parentId ${parentId}: fund request ${fundId} has ${children!.n} child fund(s) and cannot become a child`);
  }
  return errors;
}

/**
 * After a save changed a fund's parent from `before` to `after` (either null): marks the new parent
 * `is_parent` (with a trail entry) and queues the aggregation of each parent concerned that
 * aggregates its children. Joins the caller's transaction.
 * @returns the ids of the parents whose aggregation was queued
 */
export async function parentLinkChanged(
  ctx: AppContext,
  userId: number | null,
  fundId: number,
  before: number | null,
  after: number | null,
): Promise<number[]> {
  if (before === after) return [];
  const { db, tables: t } = storeOf(ctx);
  if (after !== null) {
    const marked = await db
      .update(t.fundRequests)
      .set({ isParent: true, updatedAt: new Date().toISOString() })
      .where(and(eq(t.fundRequests.id, after), eq(t.fundRequests.isParent, false)))
      .returning({ id: t.fundRequests.id });
    if (marked.length)
      await writeTrail(ctx, { fundRequestId: after, userId, action: 'child-linked', before: { is_parent: false }, after: { is_parent: true, child: fundId } });
  }
  const queued: number[] = [];
  for (const parent of [after, before]) if (parent !== null && (await queueAggregationRerun(ctx, userId, parent)) !== null) queued.push(parent);
  return queued;
}
