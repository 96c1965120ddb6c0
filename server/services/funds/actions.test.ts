import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fundFiles, fundRequests, importFiles, processes, trail, type FundStatus } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { addUser } from '../users/users.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { changeDataRequestedStatus, changeStatus, rerunFunds, resetFunds, undoDelete, UNCHANGED_WARNING, type StatusAction } from './actions.js';
import { insertFund } from './test-factory.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
});
afterEach(() => ctx.dispose());

const ALL: FundStatus[] = ['Pending', 'Approved', 'Declined', 'Completed - Fund Closed', 'Deleted', 'Issued', 'Paused'];
const statusOf = (id: number) => ctx.db.select().from(fundRequests).where(eq(fundRequests.id, id)).get()!.status;
const trailOf = (id: number) => ctx.db.select().from(trail).where(eq(trail.fundRequestId, id)).orderBy(asc(trail.id)).all();

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

describe('status actions', () => {
  it.each(Object.keys(ALLOWED) as StatusAction[])('%s moves only the funds whose status allows it', (action) => {
    const funds = ALL.map((status) => insertFund(ctx, { status }));
    const events: unknown[] = [];
    ctx.events.on('fund-request', (e) => events.push(e));
    const result = changeStatus(ctx, ctx.boot.admin, action, { ids: funds.map((f) => f.id) });
    for (const [i, f] of funds.entries()) {
      const moves = ALLOWED[action].includes(ALL[i]);
      const expected = moves ? TARGET[action] : ALL[i];
      expect(result.funds[i], `${action} from ${ALL[i]}`).toMatchObject({ id: f.id, status: expected, isStatusUnChanged: !moves });
      expect(statusOf(f.id)).toBe(expected);
      const entries = trailOf(f.id);
      if (moves) expect(entries).toMatchObject([{ action, userId: ctx.boot.admin.id, before: { status: ALL[i] }, after: { status: TARGET[action] } }]);
      else expect(entries).toEqual([]);
    }
    expect(result.warning).toBe(UNCHANGED_WARNING);
    const moved = funds.filter((_f, i) => ALLOWED[action].includes(ALL[i])).map((f) => f.id);
    expect(events).toEqual([{ ids: moved, action }]);
  });

  it('returns status labels and no warning when every fund moved; statuses compare case-insensitively', () => {
    const a = insertFund(ctx, { status: 'pending' as FundStatus });
    const result = changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [a.id, a.id] });
    expect(result).toEqual({ funds: [{ id: a.id, status: 'Approved', statusLabel: 'Open', isStatusUnChanged: false }] });
    expect(changeStatus(ctx, ctx.boot.admin, 'close', { ids: [a.id] }).funds[0].statusLabel).toBe('Closed');
  });

  it('closes only open funds when requested from the auditor area', () => {
    const open = insertFund(ctx, { status: 'Approved' });
    const paused = insertFund(ctx, { status: 'Paused' });
    const issued = insertFund(ctx, { status: 'Issued' });
    const result = changeStatus(ctx, ctx.boot.admin, 'close', { ids: [open.id, paused.id, issued.id], requestedBy: 'Auditor' });
    expect(result.funds.map((f) => f.isStatusUnChanged)).toEqual([false, true, true]);
    const auditor = addUser(ctx, { email: 'aud@example.com', name: 'Au Ditor', role: 'Auditor' });
    expect(changeStatus(ctx, auditor, 'close', { ids: [paused.id] }).funds[0].isStatusUnChanged).toBe(true);
    expect(changeStatus(ctx, ctx.boot.admin, 'close', { ids: [paused.id], requestedBy: 'Dee Livery' }).funds[0].isStatusUnChanged).toBe(false);
  });

  it('refuses unknown ids without changing anything, and bad input', () => {
    const a = insertFund(ctx);
    expect(() => changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [a.id, 9999] })).toThrow(new NotFoundError('No such fund request with id: 9999'));
    expect(statusOf(a.id)).toBe('Pending');
    expect(trailOf(a.id)).toEqual([]);
    expect(() => changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [] })).toThrow(ValidationError);
  });

  it('remove remembers the previous status and undo-delete restores it (or Pending)', () => {
    const a = insertFund(ctx, { status: 'Paused' });
    const legacy = insertFund(ctx, { status: 'Deleted' });
    const pending = insertFund(ctx);
    changeStatus(ctx, ctx.boot.admin, 'remove', { ids: [a.id] });
    expect(ctx.db.select().from(fundRequests).where(eq(fundRequests.id, a.id)).get()).toMatchObject({ status: 'Deleted', statusBeforeDelete: 'Paused' });
    const result = undoDelete(ctx, ctx.boot.admin, { ids: [a.id, legacy.id, pending.id] });
    expect(result.funds).toEqual([
      { id: a.id, status: 'Paused', statusLabel: 'Paused', isStatusUnChanged: false },
      { id: legacy.id, status: 'Pending', statusLabel: 'Pending', isStatusUnChanged: false },
      { id: pending.id, status: 'Pending', statusLabel: 'Pending', isStatusUnChanged: true },
    ]);
    expect(result.warning).toBe(UNCHANGED_WARNING);
    expect(ctx.db.select().from(fundRequests).where(eq(fundRequests.id, a.id)).get()!.statusBeforeDelete).toBeNull();
    expect(trailOf(a.id).map((t) => [t.action, t.before, t.after])).toEqual([
      ['remove', { status: 'Paused' }, { status: 'Deleted', requestedBy: 'Admin' }],
      ['undo-delete', { status: 'Deleted' }, { status: 'Paused' }],
    ]);
  });

  it('reset queues identification of each file delivered to the fund, with force run, for funds not deleted', () => {
    const a = insertFund(ctx, { status: 'Approved' });
    const d = insertFund(ctx, { status: 'Deleted' });
    const imp = ctx.db
      .insert(importFiles)
      .values({ fileName: 'tb.csv', sha256: 'x'.repeat(64), size: 10, status: 'Success' })
      .returning()
      .get();
    ctx.db.insert(fundFiles).values({ fundRequestId: a.id, importFileId: imp.id, kind: 'input', fileType: 'trial_balance', fileName: 'tb.csv' }).run();
    const seen: unknown[] = [];
    ctx.events.on('process', (e) => seen.push(e));
    const result = resetFunds(ctx, ctx.boot.admin, { ids: [a.id, d.id] });
    expect(result.funds.map((f) => [f.status, f.isStatusUnChanged])).toEqual([
      ['Approved', false],
      ['Deleted', true],
    ]);
    expect(ctx.db.select().from(processes).all()).toMatchObject([
      { fundRequestId: a.id, stage: 'identification', status: 'pending', forceRun: true, payload: { importFileId: imp.id, reset: true } },
    ]);
    expect(seen).toMatchObject([{ fundRequestId: a.id, stage: 'identification', status: 'pending' }]);
    expect(trailOf(a.id)).toMatchObject([{ action: 'reset', before: { status: 'Approved' } }]);
  });

  it('rerun counts, records who and when, and queues calculations; only open funds', () => {
    const a = insertFund(ctx, { status: 'Approved', rerunCount: 1 });
    const p = insertFund(ctx, { status: 'Pending' });
    const result = rerunFunds(ctx, ctx.boot.admin, { ids: [a.id, p.id] });
    expect(result.funds.map((f) => f.isStatusUnChanged)).toEqual([false, true]);
    const row = ctx.db.select().from(fundRequests).where(eq(fundRequests.id, a.id)).get()!;
    expect(row).toMatchObject({ rerunCount: 2, rerunById: ctx.boot.admin.id, rerunByRole: 'Admin' });
    expect(Date.now() - Date.parse(row.rerunDate!)).toBeLessThan(60_000);
    expect(ctx.db.select().from(processes).all()).toMatchObject([{ fundRequestId: a.id, stage: 'calculations', status: 'pending' }]);
    expect(trailOf(a.id)).toMatchObject([
      { action: 'rerun', before: { status: 'Approved', rerun_count: 1 }, after: { status: 'Approved', rerun_count: 2, forceRun: true } },
    ]);
    // with Force run off the job runs only when its inputs changed
    rerunFunds(ctx, ctx.boot.admin, { ids: [a.id], forceRun: false });
    expect(
      ctx.db
        .select()
        .from(processes)
        .all()
        .map((x) => x.forceRun),
    ).toEqual([true, false]);
  });

  it('changes the data-requested status of funds not deleted', () => {
    const a = insertFund(ctx);
    const d = insertFund(ctx, { status: 'Deleted' });
    const result = changeDataRequestedStatus(ctx, ctx.boot.admin, { ids: [a.id, d.id], status: 'Chased2' });
    expect(result.funds.map((f) => f.isStatusUnChanged)).toEqual([false, true]);
    expect(ctx.db.select().from(fundRequests).where(eq(fundRequests.id, a.id)).get()!.dataRequestStatus).toBe('Chased2');
    expect(trailOf(a.id)).toMatchObject([
      { action: 'changeDataRequestedStatus', before: { dataRequestStatus: 'NotRequested' }, after: { dataRequestStatus: 'Chased2' } },
    ]);
    expect(() => changeDataRequestedStatus(ctx, ctx.boot.admin, { ids: [a.id], status: 'Chased4' as never })).toThrow(ValidationError);
  });
});
