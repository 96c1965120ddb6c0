import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import type { User } from '../auth/tokens.js';
import { insertFund } from '../../testing/fund-factory.js';
import { insertUser, openFundTestDatabase, trailOf, type FundTestDatabase } from '../../testing/fund-setup.js';
import { createAdjustment, deleteAdjustment, fundAdjustments, listAdjustments, rerunAdjustments, updateAdjustment } from './adjustments.js';
import { feeAccrual } from '../../testing/adjustments.js';

describeEachDialect('audit adjustments', (dialect) => {
  let database: FundTestDatabase;
  let ctx: AppContext;
  let user: User;
  let fundId: number;
  beforeEach(async () => {
    database = await openFundTestDatabase(dialect);
    ctx = database.ctx;
    user = await insertUser(ctx, { email: 'ann@example.com', firstName: 'Ann', lastName: 'Auditor' });
    fundId = (await insertFund(ctx)).id;
  });
  afterEach(() => database.dispose());

  const trail = () => trailOf(ctx, fundId);

  it('creates, updates and deletes with a trail entry each, lines and booked flag kept as entered', async () => {
    const created = await createAdjustment(ctx, user, fundId, { ...feeAccrual, description: '  Audit fee  ' });
    expect(created).toMatchObject({
      fundRequestId: fundId,
      type: 'main',
      description: 'Audit fee',
      bookedByTpa: false,
      lines: feeAccrual.lines,
      author: 'Ann Auditor',
    });
    const booked = await updateAdjustment(ctx, user, fundId, created.id, { ...feeAccrual, bookedByTpa: true });
    expect(booked).toMatchObject({ id: created.id, description: 'Audit fee accrual', bookedByTpa: true });
    const second = await createAdjustment(ctx, user, fundId, {
      type: 'hmrc',
      description: 'Reportable income',
      bookedByTpa: false,
      lines: [{ account: 'INCOME_OTHER', target: 'tb_balance', amount: -1_000 }],
    });
    expect((await listAdjustments(ctx, fundId)).map((a) => [a.id, a.bookedByTpa])).toEqual([
      [created.id, true],
      [second.id, false],
    ]);
    expect(await deleteAdjustment(ctx, user, fundId, second.id)).toEqual({ id: second.id, deleted: true });
    await expect(deleteAdjustment(ctx, user, fundId, second.id)).rejects.toThrow(`No such adjustment with id: ${second.id} on fund request ${fundId}`);
    expect((await fundAdjustments(ctx, fundId)).map((a) => a.id)).toEqual([created.id]);
    expect(
      (await trail()).map((e) => [e.action, e.userId, (e.before as { id?: number } | null)?.id ?? null, (e.after as { id?: number } | null)?.id ?? null]),
    ).toEqual([
      ['adjustment-create', user.id, null, created.id],
      ['adjustment-update', user.id, created.id, created.id],
      ['adjustment-create', user.id, null, second.id],
      ['adjustment-delete', user.id, second.id, null],
    ]);
  });

  it('stores nothing and writes no trail entry for a refused adjustment or an unknown fund', async () => {
    await expect(createAdjustment(ctx, user, fundId, { ...feeAccrual, description: ' ' })).rejects.toThrow('The adjustment is not valid');
    await expect(createAdjustment(ctx, user, 999_999, feeAccrual)).rejects.toThrow('No such fund request with id: 999999');
    await expect(listAdjustments(ctx, 999_999)).rejects.toThrow('No such fund request with id: 999999');
    expect(await fundAdjustments(ctx, 999_999)).toEqual([]);
    expect(await listAdjustments(ctx, fundId)).toEqual([]);
    expect(await trail()).toEqual([]);
  });

  it('a rerun queues one calculations job (reused while pending) and is refused for a deleted fund', async () => {
    await createAdjustment(ctx, user, fundId, { ...feeAccrual, bookedByTpa: true });
    const first = await rerunAdjustments(ctx, user, fundId, 'adjustments');
    expect(first).toMatchObject({ fundRequestId: fundId, rerun: 'adjustments', adjustments: 1, booked: 1 });
    const again = await rerunAdjustments(ctx, user, fundId, 'apportionment');
    expect(again).toMatchObject({ processId: first.processId, adjustments: 0, booked: 0 });
    const { db, tables: t } = storeOf(ctx);
    expect(await db.select().from(t.processes)).toMatchObject([
      { id: first.processId, fundRequestId: fundId, stage: 'calculations', status: 'pending', forceRun: true, payload: { rerun: 'adjustments' } },
    ]);
    expect((await trail()).filter((e) => e.action.startsWith('rerun-')).map((e) => e.action)).toEqual(['rerun-adjustments', 'rerun-apportionment']);
    await db.update(t.fundRequests).set({ status: 'Deleted' }).where(eq(t.fundRequests.id, fundId));
    await expect(rerunAdjustments(ctx, user, fundId)).rejects.toThrow(`Fund request ${fundId} is deleted: restore it before recalculating its adjustments`);
    await expect(rerunAdjustments(ctx, user, fundId, 'everything' as 'adjustments')).rejects.toThrow('Rerun must be one of adjustments, apportionment');
  });
});
