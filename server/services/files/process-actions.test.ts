import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import type { User } from '../auth/tokens.js';
import { insertFund, insertProcess } from '../../testing/fund-factory.js';
import { openFundTestDatabase, trailOf as trailOfFund, type FundTestDatabase } from '../../testing/fund-setup.js';
import { cancelFundProcess, listOngoingProcesses, listProcessesOfFund, resetFundProcess } from './process-actions.js';

describeEachDialect('process actions', (dialect) => {
  let database: FundTestDatabase;
  let ctx: AppContext;
  let admin: User;
  beforeEach(async () => {
    database = await openFundTestDatabase(dialect);
    ({ ctx, admin } = database);
  });
  afterEach(() => database.dispose());

  const trailOf = (fundId: number) => trailOfFund(ctx, fundId);

  it('reset and cancel write trail entries with before/after status', async () => {
    const fund = await insertFund(ctx);
    const done = await insertProcess(ctx, fund.id, 'calculations', 'running');
    const pending = await insertProcess(ctx, fund.id, 'standardization', 'pending');
    expect(await resetFundProcess(ctx, admin, { id: done })).toMatchObject({ id: done, status: 'pending', force_run: true });
    expect(await cancelFundProcess(ctx, admin, { id: pending })).toMatchObject({ id: pending, status: 'suspended' });
    expect((await trailOf(fund.id)).map((t) => [t.action, t.before, t.after])).toEqual([
      [
        'process-reset',
        { id: done, stage: 'calculations', status: 'running', force_run: false },
        { id: done, stage: 'calculations', status: 'pending', force_run: true },
      ],
      [
        'process-cancel',
        { id: pending, stage: 'standardization', status: 'pending', force_run: false },
        { id: pending, stage: 'standardization', status: 'suspended', force_run: false },
      ],
    ]);
    await expect(cancelFundProcess(ctx, admin, { id: done + 100 })).rejects.toThrow(`No such process with id: ${done + 100}`);
  });

  it('a refused action writes no trail entry', async () => {
    const fund = await insertFund(ctx);
    const failed = await insertProcess(ctx, fund.id, 'calculations', 'error');
    const finished = await insertProcess(ctx, fund.id, 'visualization', 'done');
    await expect(resetFundProcess(ctx, admin, { id: failed })).rejects.toThrow(/is error; only pending or running processes can be reset/);
    await expect(resetFundProcess(ctx, admin, { id: finished })).rejects.toThrow(/is done; only pending or running/);
    await expect(cancelFundProcess(ctx, admin, { id: finished })).rejects.toThrow(/only pending or running/);
    expect(await trailOf(fund.id)).toEqual([]);
  });

  it("lists a fund's processes newest first with a status filter, and the ongoing ones", async () => {
    const fund = await insertFund(ctx, { fundCode: 'ABC' });
    const a = await insertProcess(ctx, fund.id, 'standardization', 'done');
    const b = await insertProcess(ctx, fund.id, 'calculations', 'running');
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.processes).set({ processAt: '2020-01-01T00:00:00.000Z' }).where(eq(t.processes.id, a));
    expect((await listProcessesOfFund(ctx, { id: fund.id })).rows.map((r) => r.id)).toEqual([b, a]);
    expect((await listProcessesOfFund(ctx, { id: fund.id, filters: [{ field: 'status', type: 'enum', value: ['done'] }] })).rows.map((r) => r.id)).toEqual([a]);
    await expect(listProcessesOfFund(ctx, { id: fund.id, filters: [{ field: 'status', type: 'enum', value: ['maybe'] }] })).rejects.toThrow(
      'Unknown process status: maybe',
    );
    await expect(listProcessesOfFund(ctx, { id: 999 })).rejects.toThrow('No such fund request with id: 999');
    expect(await listOngoingProcesses(ctx)).toMatchObject([{ id: b, fundCode: 'ABC', fundName: fund.name }]);
  });
});
