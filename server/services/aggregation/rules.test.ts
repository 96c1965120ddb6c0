import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { transaction } from '../../db/tx.js';
import { setAggregForceRun } from '../funds/details-actions.js';
import { aggregatedChildren, clearRerunFlags, isConsolidationFlag, markParentNeedsRerun, queueAggregationRerun } from './rules.js';

/** Inserts a fund request with the given aggregation columns. */
async function fund(ctx: AppContext, values: { aggregConsolFlag?: string; parentId?: number; status?: 'Pending' | 'Deleted'; aggregForceRun?: boolean } = {}) {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .insert(t.fundRequests)
    .values({ name: 'Fund', client: 'Client A', status: 'Pending', periodEnd: '2024-12-31', ...values })
    .returning();
  return row;
}

async function flags(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .select({ needsRerun: t.fundRequests.needsRerun, forceRun: t.fundRequests.aggregForceRun })
    .from(t.fundRequests)
    .where(eq(t.fundRequests.id, id));
  return row;
}

describe('consolidation flags', () => {
  it('takes a consolidation flag other than NONE as set', () => {
    expect(['AGGREGATION', 'CONSOLIDATION', 'consolidation'].map(isConsolidationFlag)).toEqual([true, true, true]);
    expect(['NONE', '', null, undefined].map(isConsolidationFlag)).toEqual([false, false, false, false]);
  });
});

describeEachDialect('when a parent fund aggregates and needs a rerun', (dialect) => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect, { aggregation: true });
  });
  afterEach(() => database.dispose());

  it("marks the parent when a child's data changes, only for an aggregating parent with the feature on", async () => {
    const { ctx } = database;
    const events: unknown[] = [];
    ctx.events.on('fund-request', (data) => events.push(data));
    const parent = await fund(ctx, { aggregConsolFlag: 'CONSOLIDATION' });
    const child = await fund(ctx, { parentId: parent.id });
    const deleted = await fund(ctx, { parentId: parent.id, status: 'Deleted' });
    expect(await aggregatedChildren(ctx, parent.id)).toEqual([child.id]);
    expect(await markParentNeedsRerun(ctx, deleted.id)).toBeNull();
    expect((await flags(ctx, parent.id)).needsRerun).toBe(false);
    expect(await markParentNeedsRerun(ctx, child.id)).toBe(parent.id);
    expect((await flags(ctx, parent.id)).needsRerun).toBe(true);
    // already on: nothing changes, no second event
    expect(await markParentNeedsRerun(ctx, child.id)).toBeNull();
    expect(events).toEqual([{ ids: [parent.id], action: 'needs-rerun' }]);

    const plain = await fund(ctx, { aggregConsolFlag: 'NONE' });
    const childOfPlain = await fund(ctx, { parentId: plain.id });
    expect(await aggregatedChildren(ctx, plain.id)).toBeNull();
    expect(await markParentNeedsRerun(ctx, childOfPlain.id)).toBeNull();
    expect((await flags(ctx, plain.id)).needsRerun).toBe(false);

    ctx.config.aggregation = false;
    const other = await fund(ctx, { aggregConsolFlag: 'AGGREGATION' });
    const childOfOther = await fund(ctx, { parentId: other.id });
    expect(await markParentNeedsRerun(ctx, childOfOther.id)).toBeNull();
  });

  it('turns both rerun flags off in the transaction that stores the aggregate, and keeps them when it rolls back', async () => {
    const { ctx } = database;
    const parent = await fund(ctx, { aggregConsolFlag: 'CONSOLIDATION', aggregForceRun: true });
    const child = await fund(ctx, { parentId: parent.id });
    await markParentNeedsRerun(ctx, child.id);
    await expect(
      transaction(ctx, async () => {
        await clearRerunFlags(ctx, parent.id);
        throw new Error('the calculation file could not be stored');
      }),
    ).rejects.toThrow('the calculation file could not be stored');
    expect(await flags(ctx, parent.id)).toEqual({ needsRerun: true, forceRun: true });
    await transaction(ctx, () => clearRerunFlags(ctx, parent.id));
    expect(await flags(ctx, parent.id)).toEqual({ needsRerun: false, forceRun: false });
  });
});

describeEachDialect('the forced aggregation rerun', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  let adminId: number;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect, { aggregation: true });
    ctx = database.ctx;
    const { db, tables: t } = storeOf(ctx);
    const [u] = await db
      .insert(t.users)
      .values({ email: 'ada@example.com', username: 'ada', firstName: 'Ada', lastName: 'Admin', role: 'Admin', originalRole: 'Admin' })
      .returning({ id: t.users.id });
    adminId = u.id;
  });
  afterEach(() => database.dispose());
  const admin = () => ({ id: adminId, role: 'Admin' }) as Parameters<typeof setAggregForceRun>[1];

  it('the force switch queues the calculations of an aggregating parent only', async () => {
    const parent = await fund(ctx, { aggregConsolFlag: 'CONSOLIDATION' });
    await fund(ctx, { parentId: parent.id });
    const lone = await fund(ctx, { aggregConsolFlag: 'CONSOLIDATION' });
    const queued = await setAggregForceRun(ctx, admin(), { id: parent.id, value: true });
    expect(queued.processId).toBeGreaterThan(0);
    const { db, tables: t } = storeOf(ctx);
    const [job] = await db.select().from(t.processes).where(eq(t.processes.id, queued.processId!));
    expect(job).toMatchObject({ stage: 'calculations', fundRequestId: parent.id, status: 'pending', forceRun: true });
    expect(await queueAggregationRerun(ctx, null, lone.id)).toBeNull();
    expect(await setAggregForceRun(ctx, admin(), { id: lone.id, value: true })).toEqual({ id: lone.id, aggreg_force_run: true });
    expect(await setAggregForceRun(ctx, admin(), { id: parent.id, value: false })).toEqual({ id: parent.id, aggreg_force_run: false });
  });
});
