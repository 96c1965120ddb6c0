import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fundRequests, processes } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { setAggregForceRun } from '../funds/details-actions.js';
import { insertFund } from '../funds/test-factory.js';
import { aggregatedChildren, isConsolidationFlag, markParentNeedsRerun } from './rules.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false, aggregation: true });
});
afterEach(() => ctx.dispose());

const needsRerun = (id: number) => ctx.db.select({ v: fundRequests.needsRerun }).from(fundRequests).where(eq(fundRequests.id, id)).get()!.v;
const admin = () => ({ id: ctx.boot.admin.id, role: 'Admin' }) as Parameters<typeof setAggregForceRun>[1];

describe('when a parent fund aggregates and needs a rerun', () => {
  it('takes a consolidation flag other than NONE as set', () => {
    expect(['AGGREGATION', 'CONSOLIDATION', 'consolidation'].map(isConsolidationFlag)).toEqual([true, true, true]);
    expect(['NONE', '', null, undefined].map(isConsolidationFlag)).toEqual([false, false, false, false]);
  });

  it("marks the parent when a child's data changes, only for an aggregating parent with the feature on", () => {
    const parent = insertFund(ctx, { aggregConsolFlag: 'CONSOLIDATION', isParent: true });
    const child = insertFund(ctx, { parentId: parent.id });
    const deleted = insertFund(ctx, { parentId: parent.id, status: 'Deleted' });
    expect(aggregatedChildren(ctx, parent.id)).toEqual([child.id]);
    expect(markParentNeedsRerun(ctx, deleted.id)).toBeNull();
    expect(needsRerun(parent.id)).toBe(false);
    expect(markParentNeedsRerun(ctx, child.id)).toBe(parent.id);
    expect(needsRerun(parent.id)).toBe(true);
    // already on: nothing changes, no second event
    expect(markParentNeedsRerun(ctx, child.id)).toBeNull();

    const plain = insertFund(ctx, { aggregConsolFlag: 'NONE' });
    const childOfPlain = insertFund(ctx, { parentId: plain.id });
    expect(aggregatedChildren(ctx, plain.id)).toBeNull();
    expect(markParentNeedsRerun(ctx, childOfPlain.id)).toBeNull();
    expect(needsRerun(plain.id)).toBe(false);

    ctx.config.aggregation = false;
    const other = insertFund(ctx, { aggregConsolFlag: 'AGGREGATION' });
    const childOfOther = insertFund(ctx, { parentId: other.id });
    expect(markParentNeedsRerun(ctx, childOfOther.id)).toBeNull();
  });

  it('the force switch queues the calculations of an aggregating parent only', () => {
    const parent = insertFund(ctx, { aggregConsolFlag: 'CONSOLIDATION', isParent: true });
    insertFund(ctx, { parentId: parent.id });
    const lone = insertFund(ctx, { aggregConsolFlag: 'CONSOLIDATION', isParent: true });
    const queued = setAggregForceRun(ctx, admin(), { id: parent.id, value: true });
    expect(queued.processId).toBeGreaterThan(0);
    const job = ctx.db.select().from(processes).where(eq(processes.id, queued.processId!)).get()!;
    expect(job).toMatchObject({ stage: 'calculations', fundRequestId: parent.id, status: 'pending', forceRun: true });
    expect(setAggregForceRun(ctx, admin(), { id: lone.id, value: true })).toEqual({ id: lone.id, aggreg_force_run: true });
    expect(setAggregForceRun(ctx, admin(), { id: parent.id, value: false })).toEqual({ id: parent.id, aggreg_force_run: false });
  });
});
