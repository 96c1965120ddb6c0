import { and, asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fundFiles, processes, trail } from '../../db/schema/index.js';
import { countSdmRows, sdmRowWriter } from '../../db/sdm-store.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AppEvents } from '../../events.js';
import { insertFund, insertFundFile } from '../funds/test-factory.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { disableFiles, releaseWorkPapers, removeFiles, resetFundFile, reviewFiles } from './fund-files.js';

let ctx: TestContext;
let events: AppEvents['file'][];
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  events = [];
  ctx.events.on('file', (e) => events.push(e));
});
afterEach(() => ctx.dispose());

const user = () => ctx.boot.admin;
const fileOf = (id: number) => ctx.db.select().from(fundFiles).where(eq(fundFiles.id, id)).get();
const trailOf = (fundId: number) => ctx.db.select().from(trail).where(eq(trail.fundRequestId, fundId)).orderBy(asc(trail.id)).all();
const queued = (fundId: number) =>
  ctx.db
    .select()
    .from(processes)
    .where(and(eq(processes.fundRequestId, fundId), eq(processes.stage, 'standardization')))
    .all();

/** Expects a ValidationError whose message and errors name the files. */
function refused(fn: () => unknown, message: string | RegExp): ValidationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toMatch(message);
    return err as ValidationError;
  }
  throw new Error('expected a refusal');
}

describe('review and disable rules (delivery spec 4 "Files")', () => {
  it('refuses review and disable while a file is pending or processing, naming the file, and changes nothing', () => {
    const fund = insertFund(ctx);
    const pending = insertFundFile(ctx, fund.id, { fileType: 'holdings', status: 'pending', fileName: 'hold.csv' });
    const busy = insertFundFile(ctx, fund.id, { fileType: 'trial_balance', status: 'processing', fileName: 'tb.csv' });
    const ok = insertFundFile(ctx, fund.id, { fileType: 'transactions', fileName: 'tx.csv' });
    refused(() => reviewFiles(ctx, user(), { ids: [pending], reviewed: true }), 'File hold.csv is still pending');
    refused(() => disableFiles(ctx, user(), { ids: [busy], disabled: true }), 'File tb.csv is still being processed');
    const err = refused(() => reviewFiles(ctx, user(), { ids: [ok, pending, busy], reviewed: true }), 'File hold.csv is still pending (and 1 more)');
    expect(err.errors).toEqual(['File hold.csv is still pending', 'File tb.csv is still being processed']);
    expect(fileOf(ok)!.reviewed).toBe(false);
    expect(trailOf(fund.id)).toEqual([]);
    expect(events).toEqual([]);
  });

  it('a reviewed file cannot be disabled and a disabled file cannot be reviewed', () => {
    const fund = insertFund(ctx);
    const reviewed = insertFundFile(ctx, fund.id, { fileType: 'holdings', reviewed: true, fileName: 'hold.csv' });
    const disabled = insertFundFile(ctx, fund.id, { fileType: 'trial_balance', disabled: true, fileName: 'tb.csv' });
    refused(() => disableFiles(ctx, user(), { ids: [reviewed], disabled: true }), /File hold.csv is reviewed/);
    refused(() => reviewFiles(ctx, user(), { ids: [disabled], reviewed: true }), /File tb.csv is not required/);
    // the reverse moves are allowed: unreview, then disable; enable, then review
    reviewFiles(ctx, user(), { ids: [reviewed], reviewed: false });
    disableFiles(ctx, user(), { ids: [reviewed], disabled: true });
    disableFiles(ctx, user(), { ids: [disabled], disabled: false });
    reviewFiles(ctx, user(), { ids: [disabled], reviewed: true });
    expect(fileOf(reviewed)).toMatchObject({ reviewed: false, disabled: true });
    expect(fileOf(disabled)).toMatchObject({ reviewed: true, disabled: false });
  });

  it('reviewing writes a trail entry with before/after per changed file and publishes a file event', () => {
    const fund = insertFund(ctx);
    const a = insertFundFile(ctx, fund.id, { fileType: 'holdings', fileName: 'hold.csv' });
    const b = insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', reviewed: true, fileName: 'wp.xlsx' });
    const result = reviewFiles(ctx, user(), { ids: [a, b], reviewed: true, fundRequestId: fund.id });
    expect(result.files.map((f) => [f.id, f.reviewed])).toEqual([
      [a, true],
      [b, true],
    ]);
    expect(result.queued).toEqual([]);
    expect(trailOf(fund.id)).toMatchObject([
      {
        action: 'file-review',
        userId: user().id,
        before: { id: a, fileName: 'hold.csv', fileType: 'holdings', kind: 'input', reviewed: false },
        after: { id: a, fileName: 'hold.csv', fileType: 'holdings', kind: 'input', reviewed: true },
      },
    ]);
    expect(events).toEqual([{ id: a, fundRequestId: fund.id, kind: 'input', status: 'assigned', fileName: 'hold.csv' }]);
    reviewFiles(ctx, user(), { ids: [a], reviewed: false });
    expect(trailOf(fund.id).at(-1)).toMatchObject({ action: 'file-unreview', before: { reviewed: true }, after: { reviewed: false } });
  });

  it('with fundRequestId every file must belong to that fund; unknown ids and funds are 404', () => {
    const fund = insertFund(ctx);
    const other = insertFund(ctx);
    const f = insertFundFile(ctx, other.id, { fileType: 'holdings', fileName: 'x.csv' });
    refused(() => reviewFiles(ctx, user(), { ids: [f], reviewed: true, fundRequestId: fund.id }), `File x.csv does not belong to fund request ${fund.id}`);
    expect(() => reviewFiles(ctx, user(), { ids: [f, 9999], reviewed: true })).toThrow(new NotFoundError('No such file with id: 9999'));
    expect(() => disableFiles(ctx, user(), { ids: [9998], disabled: true })).toThrow('No such file with id: 9998');
    expect(() => reviewFiles(ctx, user(), { ids: [f], reviewed: true, fundRequestId: 777 })).toThrow('No such fund request with id: 777');
    expect(() => reviewFiles(ctx, user(), { ids: [], reviewed: true })).toThrow(ValidationError);
  });

  it('disabling or enabling an input file queues standardization with force run; a work paper does not', () => {
    const fund = insertFund(ctx);
    const input = insertFundFile(ctx, fund.id, { fileType: 'transactions', fileName: 'tx.csv' });
    const wp = insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' });
    expect(disableFiles(ctx, user(), { ids: [wp], disabled: true }).queued).toEqual([]);
    expect(queued(fund.id)).toEqual([]);
    const result = disableFiles(ctx, user(), { ids: [input], disabled: true });
    expect(queued(fund.id)).toMatchObject([{ status: 'pending', forceRun: true, createdById: user().id }]);
    expect(result.queued).toEqual([{ fundRequestId: fund.id, processId: queued(fund.id)[0].id }]);
    expect(trailOf(fund.id).map((t) => [t.action, t.before, t.after])).toEqual([
      [
        'file-disable',
        { id: wp, fileName: 'wp.xlsx', fileType: 'work_papers', kind: 'work_paper', disabled: false },
        { id: wp, fileName: 'wp.xlsx', fileType: 'work_papers', kind: 'work_paper', disabled: true },
      ],
      [
        'file-disable',
        { id: input, fileName: 'tx.csv', fileType: 'transactions', kind: 'input', disabled: false },
        { id: input, fileName: 'tx.csv', fileType: 'transactions', kind: 'input', disabled: true },
      ],
    ]);
    disableFiles(ctx, user(), { ids: [input], disabled: false });
    expect(queued(fund.id)).toHaveLength(1); // the pending job is reused
    expect(trailOf(fund.id).at(-1)!.action).toBe('file-enable');
  });

  it('a no-op change writes no trail and queues nothing; only input files and work papers can be disabled', () => {
    const fund = insertFund(ctx);
    const input = insertFundFile(ctx, fund.id, { fileType: 'holdings', disabled: true });
    const calc = insertFundFile(ctx, fund.id, { kind: 'calculation', fileType: 'calculations', status: 'done', fileName: 'calculations.json' });
    expect(disableFiles(ctx, user(), { ids: [input], disabled: true }).queued).toEqual([]);
    expect(trailOf(fund.id)).toEqual([]);
    refused(
      () => disableFiles(ctx, user(), { ids: [calc], disabled: true }),
      'File calculations.json is a calculation file; only input files and work papers can be marked not required',
    );
  });
});

describe('remove', () => {
  function withStandardization(fundId: number, fileType: string) {
    const input = insertFundFile(ctx, fundId, { fileType, fileName: `${fileType}.raw.csv` });
    const std = ctx.db
      .insert(fundFiles)
      .values({
        fundRequestId: fundId,
        kind: 'standardization',
        sourceFileId: input,
        fileType,
        fileName: `${fileType}.csv`,
        status: 'done',
        validationStatus: 'Valid',
      })
      .returning()
      .get().id;
    const rows = sdmRowWriter(ctx.sqlite, std, fileType);
    for (const line of [1, 2, 3]) rows.add({ file: `${fileType}.csv`, line });
    rows.flush();
    return { input, std };
  }

  it('deletes an input file with its standardization file and SDM rows, writes the trail and queues standardization', () => {
    const fund = insertFund(ctx);
    const tb = withStandardization(fund.id, 'trial_balance');
    const kept = withStandardization(fund.id, 'holdings');
    const result = removeFiles(ctx, user(), { ids: [tb.input] });
    expect(result.removed).toEqual([tb.input]);
    expect(fileOf(tb.input)).toBeUndefined();
    expect(fileOf(tb.std)).toBeUndefined();
    expect(countSdmRows(ctx.sqlite, [tb.std])).toBe(0);
    expect(fileOf(kept.input)).toBeDefined();
    expect(countSdmRows(ctx.sqlite, [kept.std])).toBe(3);
    expect(queued(fund.id)).toMatchObject([{ stage: 'standardization', status: 'pending', forceRun: true }]);
    expect(result.queued).toEqual([{ fundRequestId: fund.id, processId: queued(fund.id)[0].id }]);
    expect(trailOf(fund.id)).toMatchObject([
      { action: 'file-remove', before: { id: tb.input, filename: 'trial_balance.raw.csv', standardizationFileIds: [tb.std] }, after: null },
    ]);
    expect(events).toEqual([{ id: tb.input, fundRequestId: fund.id, kind: 'input', status: 'removed', fileName: 'trial_balance.raw.csv' }]);
  });

  it('removes only input files, not while they are processed; nothing changes on a refusal', () => {
    const fund = insertFund(ctx);
    const wp = insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' });
    const busy = insertFundFile(ctx, fund.id, { fileType: 'holdings', status: 'processing', fileName: 'h.csv' });
    const ok = insertFundFile(ctx, fund.id, { fileType: 'transactions' });
    const err = refused(() => removeFiles(ctx, user(), { ids: [ok, wp, busy] }), /File wp.xlsx is a work_paper file; only input files can be removed/);
    expect(err.errors).toHaveLength(2);
    expect(fileOf(ok)).toBeDefined();
    expect(queued(fund.id)).toEqual([]);
    expect(() => removeFiles(ctx, user(), { ids: [4242] })).toThrow('No such file with id: 4242');
  });
});

describe('reset of a file type', () => {
  it('puts the current input file of the type back to pending and unreviewed and queues standardization with force run', () => {
    const fund = insertFund(ctx);
    const older = insertFundFile(ctx, fund.id, { fileType: 'holdings', fileName: 'old.csv' });
    const current = insertFundFile(ctx, fund.id, { fileType: 'holdings', reviewed: true, fileName: 'new.csv' });
    const result = resetFundFile(ctx, user(), { id: fund.id, fileType: 'holdings' });
    expect(fileOf(current)).toMatchObject({ status: 'pending', reviewed: false });
    expect(fileOf(older)).toMatchObject({ status: 'assigned' });
    expect(result.files.map((f) => f.id)).toEqual([current]);
    expect(queued(fund.id)).toMatchObject([{ forceRun: true }]);
    expect(trailOf(fund.id)).toMatchObject([
      {
        action: 'file-reset',
        before: { id: current, status: 'assigned', reviewed: true },
        after: { id: current, status: 'pending', reviewed: false, forceReset: false },
      },
    ]);
  });

  it('needs forceReset while the file is processed; refuses a disabled type; 404 for unknown fund or type', () => {
    const fund = insertFund(ctx);
    insertFundFile(ctx, fund.id, { fileType: 'holdings', status: 'processing', fileName: 'h.csv' });
    insertFundFile(ctx, fund.id, { fileType: 'prices', disabled: true, fileName: 'p.csv' });
    refused(() => resetFundFile(ctx, user(), { id: fund.id, fileType: 'holdings' }), 'File h.csv is being processed; use force reset to reset it anyway');
    expect(resetFundFile(ctx, user(), { id: fund.id, fileType: 'holdings', forceReset: true }).files[0].status).toBe('pending');
    refused(() => resetFundFile(ctx, user(), { id: fund.id, fileType: 'prices' }), /File p.csv is not required/);
    expect(() => resetFundFile(ctx, user(), { id: fund.id, fileType: 'share_capital' })).toThrow(`Fund request ${fund.id} has no share_capital input file`);
    expect(() => resetFundFile(ctx, user(), { id: 999, fileType: 'holdings' })).toThrow('No such fund request with id: 999');
  });
});

describe('Release all / Unrelease all', () => {
  it('releases produced, required work papers, skips the others, and unreleases all', () => {
    const fund = insertFund(ctx);
    const ready = insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'a.xlsx' });
    const assigned = insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'assigned', fileName: 'b.xlsx' });
    const off = insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', disabled: true, fileName: 'c.xlsx' });
    const notYet = insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'pending', fileName: 'd.xlsx' });
    const result = releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true });
    expect(result.changed).toBe(2);
    expect(result.skipped).toEqual([
      { id: notYet, fileName: 'd.xlsx', reason: 'Work paper d.xlsx is not ready (pending)' },
      { id: off, fileName: 'c.xlsx', reason: 'Work paper c.xlsx is not required (disabled)' },
    ]);
    expect([ready, assigned, off, notYet].map((id) => fileOf(id)!.released)).toEqual([true, true, false, false]);
    expect(trailOf(fund.id).map((t) => [t.action, (t.before as any).released, (t.after as any).released])).toEqual([
      ['work-paper-release', false, true],
      ['work-paper-release', false, true],
    ]);
    expect(releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true }).changed).toBe(0);
    const undo = releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: false });
    expect(undo.changed).toBe(2);
    expect(undo.files.every((f) => !f.released)).toBe(true);
    expect(trailOf(fund.id).at(-1)!.action).toBe('work-paper-unrelease');
  });

  it('refuses a fund without work papers or none releasable, and an unknown fund', () => {
    const fund = insertFund(ctx);
    refused(() => releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true }), `Fund request ${fund.id} has no work papers`);
    insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', disabled: true, fileName: 'c.xlsx' });
    refused(() => releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true }), 'Work paper c.xlsx is not required (disabled)');
    expect(() => releaseWorkPapers(ctx, user(), { fundRequestId: 555, released: true })).toThrow('No such fund request with id: 555');
  });
});
