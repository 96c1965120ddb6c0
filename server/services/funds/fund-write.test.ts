import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ValidationError } from '../../errors.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { changeStatus } from './actions.js';
import { getFundDetails } from './details.js';
import { saveFund, validateFund } from './fund-write.js';
import { listTrail } from './trail-log.js';
import { writeTrail } from '../trail/trail.js';
import { insertAdministrator, insertFundFile } from '../../testing/fund-factory.js';
import { fundRequestInput } from '../../testing/fund-input.js';

describeEachDialect('fund save, details and trail', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    await insertAdministrator(ctx, 'alpha_fs', 'Alpha Fund Services');
  });
  afterEach(() => ctx.dispose());

  // an e-mail in mixed case: saved in lower case
  const newFund = fundRequestInput('alpha_fs', {
    connected_audit: true,
    administrator_recipients: [{ full_name: 'Jane Auditor', email: 'Jane.Auditor@example.com', role: 'Auditor' }],
  });

  it('creates a fund with its codes and recipients, then reads every details field back', async () => {
    const id = await saveFund(ctx, ctx.boot.admin, { fund: newFund });
    const d = await getFundDetails(ctx, id);
    expect(d).toMatchObject({
      fund_code: 'S000012000',
      status: 'Pending',
      statusLabel: 'Pending',
      administrator: { code: 'alpha_fs', name: 'Alpha Fund Services' },
      PM: 1,
      TE: 0.75,
      connected_audit: true,
      currency: 'USD',
      editable: { rows: true, comments: true, recipients: true, administratorLock: null },
      administrator_recipients: [{ full_name: 'Jane Auditor', email: 'jane.auditor@example.com', role: 'Auditor' }],
      children: [],
      mappings: [],
    });
    expect(d.fund_codes.map((c) => [c.code, c.main])).toEqual([
      ['S000012000', true],
      ['5493006TF05454RBY690', false],
    ]);
    expect((await listTrail(ctx, { id })).rows.map((r) => r.action)).toEqual(['create']);
  });

  it('refuses a duplicate and bad values with every error, and edits only comments once approved', async () => {
    const id = await saveFund(ctx, ctx.boot.admin, { fund: newFund });
    const errors = await validateFund(ctx, { fund: { ...newFund, PM: 120, currency: 'NOPE' } });
    expect(errors).toEqual(
      expect.arrayContaining(['PM must be between 0 and 100', "currency 'NOPE' is not a known code", expect.objectContaining({ id, type: 'Duplicate Fund' })]),
    );
    await expect(saveFund(ctx, ctx.boot.admin, { fund: newFund })).rejects.toThrow(ValidationError);
    // an update changes the main code list and keeps the trail of both saves
    await saveFund(ctx, ctx.boot.admin, {
      id,
      fund: {
        fund_codes: [
          { code: 'S000012000', main: true },
          { code: 'NEW-ALT', main: false },
        ],
      },
    });
    expect((await getFundDetails(ctx, id)).fund_codes.map((c) => c.code)).toEqual(['S000012000', 'NEW-ALT']);
    await changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [id] });
    await insertFundFile(ctx, id, { fileType: 'holdings' });
    expect((await getFundDetails(ctx, id)).editable).toMatchObject({ rows: false, administratorLock: 'input files already attached' });
    await expect(saveFund(ctx, ctx.boot.admin, { id, fund: { name: 'Renamed' } })).rejects.toThrow(ValidationError);
    expect(await validateFund(ctx, { id, fund: { name: 'Renamed' } })).toEqual([
      'Only comments and recipients can be changed because the fund request is Open (changed: name)',
    ]);
    await saveFund(ctx, ctx.boot.admin, { id, fund: { delivery_comments: 'chased' } });
    expect((await getFundDetails(ctx, id)).delivery_comments).toBe('chased');
  });

  it('says which assigned input files lock a pending fund, counting the files it names', async () => {
    const id = await saveFund(ctx, ctx.boot.admin, { fund: newFund });
    // a replaced holdings delivery, its newer one, a trial balance and a file not required
    await insertFundFile(ctx, id, { fileType: 'holdings', fileName: 'HOLDINGS_v1.csv' });
    await insertFundFile(ctx, id, { fileType: 'trial_balance', fileName: 'TB.csv' });
    await insertFundFile(ctx, id, { fileType: 'holdings', fileName: 'HOLDINGS_v2.csv' });
    await insertFundFile(ctx, id, { fileType: 'transactions', fileName: 'TX.csv', disabled: true });
    const d = await getFundDetails(ctx, id);
    expect(d.assignedCount).toBe(2);
    expect(d.editable).toMatchObject({ rows: false, reason: '2 input files are already assigned: TB.csv, HOLDINGS_v2.csv' });
    expect(await validateFund(ctx, { id, fund: { name: 'Renamed' } })).toEqual([
      'Only comments and recipients can be changed because 2 input files are already assigned: TB.csv, HOLDINGS_v2.csv (changed: name)',
    ]);
  });

  it('lists the trail newest first with filters, and writes none of a rolled-back change', async () => {
    const id = await saveFund(ctx, ctx.boot.admin, { fund: newFund });
    await changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [id] });
    await changeStatus(ctx, ctx.boot.admin, 'pause', { ids: [id] });
    const trail = await listTrail(ctx, { id });
    expect(trail.rows.map((r) => r.action)).toEqual(['pause', 'approve', 'create']);
    expect(trail.pagination).toEqual({ offset: 0, limit: 200, count: 3 });
    expect(trail.rows[0]).toMatchObject({ userId: ctx.boot.admin.id, before: { status: 'Approved' }, after: { status: 'Paused' } });
    const byUser = await listTrail(ctx, { id, filters: [{ field: 'action', type: 'text', value: 'APPR' }], sorting: [{ field: 'id', order: 'asc' }] });
    expect(byUser.rows.map((r) => r.action)).toEqual(['approve']);
    expect(byUser.pagination.count).toBe(1);
    await expect(
      transaction(ctx, async () => {
        await writeTrail(ctx, { fundRequestId: id, userId: null, action: 'never', after: { n: 1 } });
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    const { db, tables: t } = storeOf(ctx);
    const rows = await db.select().from(t.trail).where(eq(t.trail.fundRequestId, id)).orderBy(asc(t.trail.id));
    expect(rows.map((r) => r.action)).toEqual(['create', 'approve', 'pause']);
    await expect(listTrail(ctx, { id: 999_999 })).rejects.toThrow('No such fund request with id: 999999');
  });
});
