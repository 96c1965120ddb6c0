import { afterEach, beforeEach, expect, it } from 'vitest';
import { answeredTwiceFromCache, describeEachDialect } from '../../testing/dialects.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { statusReport, statusReportJson } from './status-report.js';
import { daysFromToday, insertAdministrator, insertFund, insertFundFile } from '../../testing/fund-factory.js';

describeEachDialect('status report', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  /** A fund needing the 4 input types, with `assigned` of them received and `disabled` marked not required. */
  async function fundWithFiles(
    client: string,
    tpa: number | null,
    assigned: number,
    opts: { status?: 'Approved' | 'Issued' | 'Deleted' | 'Pending'; due?: string; disabled?: number } = {},
  ) {
    const f = await insertFund(ctx, { client, administratorId: tpa, status: opts.status ?? 'Approved', dueDate: opts.due ?? daysFromToday(-2) });
    const types = ['trial_balance', 'holdings', 'transactions', 'share_capital', 'prices'];
    for (let i = 0; i < assigned; i++) await insertFundFile(ctx, f.id, { fileType: types[i]! });
    for (let i = 0; i < (opts.disabled ?? 0); i++) await insertFundFile(ctx, f.id, { fileType: types[3 - i]!, status: 'raw', disabled: true });
    return f;
  }

  it('splits active funds (due date past, not issued, not deleted) into late under 80% received (75%, 0%) and on time (100%)', async () => {
    const alpha = await insertAdministrator(ctx, 'alpha', 'Alpha');
    const beta = await insertAdministrator(ctx, 'beta', 'Beta');
    const late3of4 = await fundWithFiles('Orion', alpha, 3); // 75%
    const onTime4of5 = await fundWithFiles('Orion', beta, 3, { disabled: 1 }); // 3 of 3 required = 100%
    const lateNone = await fundWithFiles('Helix', alpha, 0);
    const all = await fundWithFiles('Helix', alpha, 4);
    await fundWithFiles('Orion', alpha, 0, { status: 'Issued' }); // issued: not active
    await fundWithFiles('Orion', alpha, 0, { status: 'Deleted' }); // deleted: nowhere
    await fundWithFiles('Orion', alpha, 0, { due: daysFromToday(0) }); // due today: not past
    await fundWithFiles('Orion', null, 0, { due: daysFromToday(5) }); // future
    const r = await statusReport(ctx);
    expect(r.totalFunds).toEqual({ count: 7 });
    expect(r.activeFunds).toEqual({ count: 4 });
    expect(r.lateFunds.count).toBe(2);
    expect(r.lateFunds.funds.map((f) => f.id).sort((a, b) => a - b)).toEqual([late3of4.id, lateNone.id].sort((a, b) => a - b));
    expect(r.lateFunds.clients).toEqual([
      { name: 'Helix', count: 1 },
      { name: 'Orion', count: 1 },
    ]);
    expect(r.lateFunds.administrators).toEqual([{ name: 'Alpha', count: 2 }]);
    expect(r.onTimeFunds.count).toBe(2);
    expect(r.onTimeFunds.funds.map((f) => f.id).sort((a, b) => a - b)).toEqual([onTime4of5.id, all.id].sort((a, b) => a - b));
    expect(r.onTimeFunds.administrators).toEqual([
      { name: 'Alpha', count: 1 },
      { name: 'Beta', count: 1 },
    ]);
    expect(r.lateFunds.funds[0]).toMatchObject({ isLate: true, dataStatusUIField: expect.any(String), uploadStatus: 'Approved' });
  });

  it("uses the job type's required files (SOI_ONLY: 2 of 2 on time, 1 of 2 late)", async () => {
    // shares of 4 required types are 0/25/33/50/67/75/100%, so exactly 80% is covered by derive.test.ts (isLate)
    const f80 = await insertFund(ctx, { status: 'Approved', dueDate: daysFromToday(-1), jobType: 'SOI_ONLY' });
    await insertFundFile(ctx, f80.id, { fileType: 'trial_balance' });
    await insertFundFile(ctx, f80.id, { fileType: 'holdings' });
    const f50 = await insertFund(ctx, { status: 'Approved', dueDate: daysFromToday(-1), jobType: 'SOI_ONLY' });
    await insertFundFile(ctx, f50.id, { fileType: 'trial_balance' });
    const r = await statusReport(ctx);
    expect(r.onTimeFunds.funds.map((f) => f.id)).toEqual([f80.id]);
    expect(r.lateFunds.funds.map((f) => f.id)).toEqual([f50.id]);
  });

  it('answers the report as JSON from the cache until a fund or a file changes, then the change at once', async () => {
    const alpha = await insertAdministrator(ctx, 'alpha', 'Alpha');
    await fundWithFiles('Orion Capital', alpha, 4);
    const first = await answeredTwiceFromCache(() => statusReportJson(ctx));
    expect(JSON.parse(first.json)).toEqual(await statusReport(ctx));
    expect(JSON.parse(first.json).lateFunds.count).toBe(0);
    await fundWithFiles('Lyra Funds', alpha, 1);
    const after = JSON.parse((await statusReportJson(ctx)).json);
    expect(after.lateFunds.clients).toEqual([{ name: 'Lyra Funds', count: 1 }]);
    expect(after.activeFunds.count).toBe(2);
  });
});
