import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import type { FundStatus } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { addUser } from '../users/users.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { changeDataRequestedStatus, changeStatus, rerunFunds, resetFunds, undoDelete, UNCHANGED_WARNING, type StatusAction } from './actions.js';
import { insertFund } from '../../testing/fund-factory.js';

const ALL: FundStatus[] = ['Pending', 'Approved', 'Declined', 'Completed - Fund Closed', 'Deleted', 'Issued', 'Paused'];

/** Allowed source statuses per action, written from the spec (delivery section 4, brief). */
const ALLOWED: Record<StatusAction, FundStatus[]> = {
  approve: ['Pending', 'Paused', 'Completed - Fund Closed', 'Issued'],
  close: ['Approved', 'Paused', 'Issued'],
  issue: ['Approved', 'Completed - Fund Closed'],
  pause: ['Approved', 'Completed - Fund Closed', 'Issued'],
  decline: ['Pending'],
  remove: ['Pending', 'Approved', 'Declined', 'Completed - Fund Closed', 'Paused'],
};
const TARGET: Record<StatusAction, FundStatus> = {
  approve: 'Approved',
  close: 'Completed - Fund Closed',
  issue: 'Issued',
  pause: 'Paused',
  decline: 'Declined',
  remove: 'Deleted',
};

describeEachDialect('status actions', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  const fundOf = async (id: number) => {
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db.select().from(t.fundRequests).where(eq(t.fundRequests.id, id));
    return row!;
  };
  const statusOf = async (id: number) => (await fundOf(id)).status;
  const trailOf = (id: number) => {
    const { db, tables: t } = storeOf(ctx);
    return db.select().from(t.trail).where(eq(t.trail.fundRequestId, id)).orderBy(asc(t.trail.id));
  };
  const processRows = () => {
    const { db, tables: t } = storeOf(ctx);
    return db.select().from(t.processes).orderBy(asc(t.processes.id));
  };

  it.each(Object.keys(ALLOWED) as StatusAction[])('%s moves only the funds whose status allows it', async (action) => {
    const funds = [];
    for (const status of ALL) funds.push(await insertFund(ctx, { status }));
    const events: unknown[] = [];
    ctx.events.on('fund-request', (e) => events.push(e));
    const result = await changeStatus(ctx, ctx.boot.admin, action, { ids: funds.map((f) => f.id) });
    for (const [i, f] of funds.entries()) {
      const moves = ALLOWED[action].includes(ALL[i]);
      const expected = moves ? TARGET[action] : ALL[i];
      expect(result.funds[i]!, `${action} from ${ALL[i]}`).toMatchObject({ id: f.id, status: expected, isStatusUnChanged: !moves });
      expect(await statusOf(f.id)).toBe(expected);
      const entries = await trailOf(f.id);
      if (moves) expect(entries).toMatchObject([{ action, userId: ctx.boot.admin.id, before: { status: ALL[i] }, after: { status: TARGET[action] } }]);
      else expect(entries).toEqual([]);
    }
    expect(result.warning).toBe(UNCHANGED_WARNING);
    const moved = funds.filter((_f, i) => ALLOWED[action].includes(ALL[i])).map((f) => f.id);
    expect(events).toEqual([{ ids: moved, action }]);
  });

  it('returns status labels and no warning when every fund moved; statuses compare case-insensitively', async () => {
    const a = await insertFund(ctx, { status: 'pending' as FundStatus });
    const result = await changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [a.id, a.id] });
    expect(result).toEqual({ funds: [{ id: a.id, status: 'Approved', statusLabel: 'Open', isStatusUnChanged: false }] });
    expect((await changeStatus(ctx, ctx.boot.admin, 'close', { ids: [a.id] })).funds[0]!.statusLabel).toBe('Closed');
  });

  it('closes only open funds when requested from the auditor area', async () => {
    const open = await insertFund(ctx, { status: 'Approved' });
    const paused = await insertFund(ctx, { status: 'Paused' });
    const issued = await insertFund(ctx, { status: 'Issued' });
    const result = await changeStatus(ctx, ctx.boot.admin, 'close', { ids: [open.id, paused.id, issued.id], requestedBy: 'Auditor' });
    expect(result.funds.map((f) => f.isStatusUnChanged)).toEqual([false, true, true]);
    const auditor = await addUser(ctx, { email: 'aud@example.com', name: 'Au Ditor', role: 'Auditor' });
    expect((await changeStatus(ctx, auditor, 'close', { ids: [paused.id] })).funds[0]!.isStatusUnChanged).toBe(true);
    expect((await changeStatus(ctx, ctx.boot.admin, 'close', { ids: [paused.id], requestedBy: 'Dee Livery' })).funds[0]!.isStatusUnChanged).toBe(false);
  });

  it('refuses unknown ids without changing anything, and bad input', async () => {
    const a = await insertFund(ctx);
    await expect(changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [a.id, 9999] })).rejects.toThrow(new NotFoundError('No such fund request with id: 9999'));
    expect(await statusOf(a.id)).toBe('Pending');
    expect(await trailOf(a.id)).toEqual([]);
    await expect(changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [] })).rejects.toThrow(ValidationError);
  });

  it('remove remembers the previous status and undo-delete restores it (or Pending)', async () => {
    const a = await insertFund(ctx, { status: 'Paused' });
    const legacy = await insertFund(ctx, { status: 'Deleted' });
    const pending = await insertFund(ctx);
    await changeStatus(ctx, ctx.boot.admin, 'remove', { ids: [a.id] });
    expect(await fundOf(a.id)).toMatchObject({ status: 'Deleted', statusBeforeDelete: 'Paused' });
    const result = await undoDelete(ctx, ctx.boot.admin, { ids: [a.id, legacy.id, pending.id] });
    expect(result.funds).toEqual([
      { id: a.id, status: 'Paused', statusLabel: 'Paused', isStatusUnChanged: false },
      { id: legacy.id, status: 'Pending', statusLabel: 'Pending', isStatusUnChanged: false },
      { id: pending.id, status: 'Pending', statusLabel: 'Pending', isStatusUnChanged: true },
    ]);
    expect(result.warning).toBe(UNCHANGED_WARNING);
    expect((await fundOf(a.id)).statusBeforeDelete).toBeNull();
    expect((await trailOf(a.id)).map((t) => [t.action, t.before, t.after])).toEqual([
      ['remove', { status: 'Paused' }, { status: 'Deleted', requestedBy: 'Admin' }],
      ['undo-delete', { status: 'Deleted' }, { status: 'Paused' }],
    ]);
  });

  it('reset queues identification of each file delivered to the fund, with force run, for funds not deleted', async () => {
    const a = await insertFund(ctx, { status: 'Approved' });
    const d = await insertFund(ctx, { status: 'Deleted' });
    const { db, tables: t } = storeOf(ctx);
    const [imp] = await db
      .insert(t.importFiles)
      .values({ fileName: 'tb.csv', sha256: 'x'.repeat(64), size: 10, status: 'Success' })
      .returning();
    await db.insert(t.fundFiles).values({ fundRequestId: a.id, importFileId: imp!.id, kind: 'input', fileType: 'trial_balance', fileName: 'tb.csv' });
    const seen: unknown[] = [];
    ctx.events.on('process', (e) => seen.push(e));
    const result = await resetFunds(ctx, ctx.boot.admin, { ids: [a.id, d.id] });
    expect(result.funds.map((f) => [f.status, f.isStatusUnChanged])).toEqual([
      ['Approved', false],
      ['Deleted', true],
    ]);
    expect(await processRows()).toMatchObject([
      { fundRequestId: a.id, stage: 'identification', status: 'pending', forceRun: true, payload: { importFileId: imp!.id, reset: true } },
    ]);
    expect(seen).toMatchObject([{ fundRequestId: a.id, stage: 'identification', status: 'pending' }]);
    expect(await trailOf(a.id)).toMatchObject([{ action: 'reset', before: { status: 'Approved' } }]);
  });

  it('rerun counts, records who and when, and queues calculations; only open funds', async () => {
    const a = await insertFund(ctx, { status: 'Approved', rerunCount: 1 });
    const p = await insertFund(ctx, { status: 'Pending' });
    const result = await rerunFunds(ctx, ctx.boot.admin, { ids: [a.id, p.id] });
    expect(result.funds.map((f) => f.isStatusUnChanged)).toEqual([false, true]);
    const row = await fundOf(a.id);
    expect(row).toMatchObject({ rerunCount: 2, rerunById: ctx.boot.admin.id, rerunByRole: 'Admin' });
    expect(Date.now() - Date.parse(row.rerunDate!)).toBeLessThan(60_000);
    expect(await processRows()).toMatchObject([{ fundRequestId: a.id, stage: 'calculations', status: 'pending' }]);
    expect(await trailOf(a.id)).toMatchObject([
      { action: 'rerun', before: { status: 'Approved', rerun_count: 1 }, after: { status: 'Approved', rerun_count: 2, forceRun: true } },
    ]);
    // with Force run off the job runs only when its inputs changed
    await rerunFunds(ctx, ctx.boot.admin, { ids: [a.id], forceRun: false });
    expect((await processRows()).map((x) => x.forceRun)).toEqual([true, false]);
  });

  it('counts every rerun when two reruns of a fund run at once', async () => {
    const a = await insertFund(ctx, { status: 'Approved' });
    await Promise.all([1, 2, 3].map(() => rerunFunds(ctx, ctx.boot.admin, { ids: [a.id] })));
    expect((await fundOf(a.id)).rerunCount).toBe(3);
    expect((await trailOf(a.id)).map((t) => (t.after as { rerun_count: number }).rerun_count)).toEqual([1, 2, 3]);
  });

  it('changes the data-requested status of funds not deleted', async () => {
    const a = await insertFund(ctx);
    const d = await insertFund(ctx, { status: 'Deleted' });
    const result = await changeDataRequestedStatus(ctx, ctx.boot.admin, { ids: [a.id, d.id], status: 'Chased2' });
    expect(result.funds.map((f) => f.isStatusUnChanged)).toEqual([false, true]);
    expect((await fundOf(a.id)).dataRequestStatus).toBe('Chased2');
    expect(await trailOf(a.id)).toMatchObject([
      { action: 'changeDataRequestedStatus', before: { dataRequestStatus: 'NotRequested' }, after: { dataRequestStatus: 'Chased2' } },
    ]);
    await expect(changeDataRequestedStatus(ctx, ctx.boot.admin, { ids: [a.id], status: 'Chased4' as never })).rejects.toThrow(ValidationError);
  });
});
