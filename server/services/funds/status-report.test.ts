import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../testing.js';
import { statusReport } from './status-report.js';
import { daysFromToday, insertAdministrator, insertFund, insertFundFile } from './test-factory.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

/** A fund needing the 4 input types, with `assigned` of them received and `disabled` marked not required. */
function fundWithFiles(
  client: string,
  tpa: number | null,
  assigned: number,
  opts: { status?: 'Approved' | 'Issued' | 'Deleted' | 'Pending'; due?: string; disabled?: number } = {},
) {
  const f = insertFund(ctx, { client, administratorId: tpa, status: opts.status ?? 'Approved', dueDate: opts.due ?? daysFromToday(-2) });
  const types = ['trial_balance', 'holdings', 'transactions', 'share_capital', 'prices'];
  for (let i = 0; i < assigned; i++) insertFundFile(ctx, f.id, { fileType: types[i] });
  for (let i = 0; i < (opts.disabled ?? 0); i++) insertFundFile(ctx, f.id, { fileType: types[3 - i], status: 'raw', disabled: true });
  return f;
}

describe('status report', () => {
  it('splits active funds (due date past, not issued, not deleted) into late under 80% received (75%, 0%) and on time (100%)', () => {
    const alpha = insertAdministrator(ctx, 'alpha', 'Alpha');
    const beta = insertAdministrator(ctx, 'beta', 'Beta');
    const late3of4 = fundWithFiles('Orion', alpha, 3); // 75%
    const onTime4of5 = fundWithFiles('Orion', beta, 3, { disabled: 1 }); // 3 of 3 required = 100%
    const lateNone = fundWithFiles('Helix', alpha, 0);
    const all = fundWithFiles('Helix', alpha, 4);
    fundWithFiles('Orion', alpha, 0, { status: 'Issued' }); // issued: not active
    fundWithFiles('Orion', alpha, 0, { status: 'Deleted' }); // deleted: nowhere
    fundWithFiles('Orion', alpha, 0, { due: daysFromToday(0) }); // due today: not past
    fundWithFiles('Orion', null, 0, { due: daysFromToday(5) }); // future
    const r = statusReport(ctx);
    expect(r.totalFunds).toEqual({ count: 7 });
    expect(r.activeFunds).toEqual({ count: 4 });
    expect(r.lateFunds.count).toBe(2);
    expect(r.lateFunds.funds.map((f) => f.id).sort()).toEqual([late3of4.id, lateNone.id].sort());
    expect(r.lateFunds.clients).toEqual([
      { name: 'Helix', count: 1 },
      { name: 'Orion', count: 1 },
    ]);
    expect(r.lateFunds.administrators).toEqual([{ name: 'Alpha', count: 2 }]);
    expect(r.onTimeFunds.count).toBe(2);
    expect(r.onTimeFunds.funds.map((f) => f.id).sort()).toEqual([onTime4of5.id, all.id].sort());
    expect(r.onTimeFunds.administrators).toEqual([
      { name: 'Alpha', count: 1 },
      { name: 'Beta', count: 1 },
    ]);
    expect(r.lateFunds.funds[0]).toMatchObject({ isLate: true, dataStatusUIField: expect.any(String), uploadStatus: 'Approved' });
  });

  it("uses the job type's required files (SOI_ONLY: 2 of 2 on time, 1 of 2 late)", () => {
    // shares of 4 required types are 0/25/33/50/67/75/100%, so exactly 80% is covered by derive.test.ts (isLate)
    const f80 = insertFund(ctx, { status: 'Approved', dueDate: daysFromToday(-1), jobType: 'SOI_ONLY' });
    insertFundFile(ctx, f80.id, { fileType: 'trial_balance' });
    insertFundFile(ctx, f80.id, { fileType: 'holdings' });
    const f50 = insertFund(ctx, { status: 'Approved', dueDate: daysFromToday(-1), jobType: 'SOI_ONLY' });
    insertFundFile(ctx, f50.id, { fileType: 'trial_balance' });
    const r = statusReport(ctx);
    expect(r.onTimeFunds.funds.map((f) => f.id)).toEqual([f80.id]);
    expect(r.lateFunds.funds.map((f) => f.id)).toEqual([f50.id]);
  });
});
