import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import type { Dialect } from '../../db/dialect.js';
import { ChunkEncoder } from '../../../pipeline/sdm/row-chunks.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { AppEvents } from '../../events.js';
import type { User } from '../auth/tokens.js';
import { insertFund, insertFundFile } from '../../testing/fund-factory.js';
import { openFundTestDatabase, trailOf as trailOfFund, type FundTestDatabase } from '../../testing/fund-setup.js';
import { disableFiles, releaseWorkPapers, removeFiles, resetFundFile, reviewFiles } from './fund-files.js';

let database: FundTestDatabase;
let ctx: AppContext;
let admin: User;
let events: AppEvents['file'][];

/** An empty database of `dialect` with one user, the file events it publishes collected. */
function openEach(dialect: Dialect) {
  beforeEach(async () => {
    database = await openFundTestDatabase(dialect);
    ({ ctx, admin, events } = database);
  });
  afterEach(() => database.dispose());
}

const user = () => admin;
const fileOf = async (id: number) => {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.fundFiles).where(eq(t.fundFiles.id, id));
  return row;
};
const trailOf = (fundId: number) => trailOfFund(ctx, fundId);
const queued = async (fundId: number) => {
  const { db, tables: t } = storeOf(ctx);
  return db
    .select()
    .from(t.processes)
    .where(and(eq(t.processes.fundRequestId, fundId), eq(t.processes.stage, 'standardization')));
};

/** Rows stored for a standardization file (its chunks' row counts). */
const sdmRowCount = async (fileId: number) => {
  const { db, tables: t } = storeOf(ctx);
  const chunks = await db.select({ n: t.sdmChunks.rowCount }).from(t.sdmChunks).where(eq(t.sdmChunks.fundFileId, fileId));
  return chunks.reduce((n, c) => n + c.n, 0);
};

/** Expects a ValidationError whose message and errors name the files. */
async function refused(fn: () => Promise<unknown>, message: string | RegExp): Promise<ValidationError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toMatch(message);
    return err as ValidationError;
  }
  throw new Error('expected a refusal');
}

describeEachDialect('file actions', (dialect) => {
  openEach(dialect);

  describe('review and disable rules (delivery spec 4 "Files")', () => {
    it('refuses review and disable while a file is pending or processing, naming the file, and changes nothing', async () => {
      const fund = await insertFund(ctx);
      const pending = await insertFundFile(ctx, fund.id, { fileType: 'holdings', status: 'pending', fileName: 'hold.csv' });
      const busy = await insertFundFile(ctx, fund.id, { fileType: 'trial_balance', status: 'processing', fileName: 'tb.csv' });
      const ok = await insertFundFile(ctx, fund.id, { fileType: 'transactions', fileName: 'tx.csv' });
      await refused(() => reviewFiles(ctx, user(), { ids: [pending], reviewed: true }), 'File hold.csv is still pending');
      await refused(() => disableFiles(ctx, user(), { ids: [busy], disabled: true }), 'File tb.csv is still being processed');
      const err = await refused(() => reviewFiles(ctx, user(), { ids: [ok, pending, busy], reviewed: true }), 'File hold.csv is still pending (and 1 more)');
      expect(err.errors).toEqual(['File hold.csv is still pending', 'File tb.csv is still being processed']);
      expect((await fileOf(ok))!.reviewed).toBe(false);
      expect(await trailOf(fund.id)).toEqual([]);
      expect(events).toEqual([]);
    });

    it('reviewing writes a trail entry with before/after per changed file and publishes a file event', async () => {
      const fund = await insertFund(ctx);
      const a = await insertFundFile(ctx, fund.id, { fileType: 'holdings', fileName: 'hold.csv' });
      const b = await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', reviewed: true, fileName: 'wp.xlsx' });
      const result = await reviewFiles(ctx, user(), { ids: [a, b], reviewed: true, fundRequestId: fund.id });
      expect(result.files.map((f) => [f.id, f.reviewed])).toEqual([
        [a, true],
        [b, true],
      ]);
      expect(result.queued).toEqual([]);
      expect(await trailOf(fund.id)).toMatchObject([
        {
          action: 'file-review',
          userId: user().id,
          before: { id: a, fileName: 'hold.csv', fileType: 'holdings', kind: 'input', reviewed: false },
          after: { id: a, fileName: 'hold.csv', fileType: 'holdings', kind: 'input', reviewed: true },
        },
      ]);
      expect(events).toEqual([{ id: a, fundRequestId: fund.id, kind: 'input', status: 'assigned', fileName: 'hold.csv' }]);
      await reviewFiles(ctx, user(), { ids: [a], reviewed: false });
      expect((await trailOf(fund.id)).at(-1)).toMatchObject({ action: 'file-unreview', before: { reviewed: true }, after: { reviewed: false } });
    });

    it('with fundRequestId every file must belong to that fund; unknown ids and funds are 404', async () => {
      const fund = await insertFund(ctx);
      const other = await insertFund(ctx);
      const f = await insertFundFile(ctx, other.id, { fileType: 'holdings', fileName: 'x.csv' });
      await refused(
        () => reviewFiles(ctx, user(), { ids: [f], reviewed: true, fundRequestId: fund.id }),
        `File x.csv does not belong to fund request ${fund.id}`,
      );
      await expect(reviewFiles(ctx, user(), { ids: [f, 9999], reviewed: true })).rejects.toThrow(new NotFoundError('No such file with id: 9999'));
      await expect(disableFiles(ctx, user(), { ids: [9998], disabled: true })).rejects.toThrow('No such file with id: 9998');
      await expect(reviewFiles(ctx, user(), { ids: [f], reviewed: true, fundRequestId: 777 })).rejects.toThrow('No such fund request with id: 777');
      await expect(reviewFiles(ctx, user(), { ids: [], reviewed: true })).rejects.toThrow(ValidationError);
    });

    it('a no-op change writes no trail and queues nothing; only input files and work papers can be disabled', async () => {
      const fund = await insertFund(ctx);
      const input = await insertFundFile(ctx, fund.id, { fileType: 'holdings', disabled: true });
      const calc = await insertFundFile(ctx, fund.id, { kind: 'calculation', fileType: 'calculations', status: 'done', fileName: 'calculations.json' });
      expect((await disableFiles(ctx, user(), { ids: [input], disabled: true })).queued).toEqual([]);
      expect(await trailOf(fund.id)).toEqual([]);
      await refused(
        () => disableFiles(ctx, user(), { ids: [calc], disabled: true }),
        'File calculations.json is a calculation file; only input files and work papers can be marked not required',
      );
    });
  });

  describe('Release all / Unrelease all', () => {
    it('releases produced, required work papers, skips the others, and unreleases all', async () => {
      const fund = await insertFund(ctx);
      const ready = await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'a.xlsx' });
      const assigned = await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'assigned', fileName: 'b.xlsx' });
      const off = await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', disabled: true, fileName: 'c.xlsx' });
      const notYet = await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'pending', fileName: 'd.xlsx' });
      const result = await releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true });
      expect(result.changed).toBe(2);
      expect(result.skipped).toEqual([
        { id: notYet, fileName: 'd.xlsx', reason: 'Work paper d.xlsx is not ready (pending)' },
        { id: off, fileName: 'c.xlsx', reason: 'Work paper c.xlsx is not required (disabled)' },
      ]);
      expect(await Promise.all([ready, assigned, off, notYet].map(async (id) => (await fileOf(id))!.released))).toEqual([true, true, false, false]);
      expect((await trailOf(fund.id)).map((t) => [t.action, (t.before as any).released, (t.after as any).released])).toEqual([
        ['work-paper-release', false, true],
        ['work-paper-release', false, true],
      ]);
      expect((await releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true })).changed).toBe(0);
      const undo = await releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: false });
      expect(undo.changed).toBe(2);
      expect(undo.files.every((f) => !f.released)).toBe(true);
      expect((await trailOf(fund.id)).at(-1)!.action).toBe('work-paper-unrelease');
    });

    it('refuses a fund without work papers or none releasable, and an unknown fund', async () => {
      const fund = await insertFund(ctx);
      await refused(() => releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true }), `Fund request ${fund.id} has no work papers`);
      await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', disabled: true, fileName: 'c.xlsx' });
      await refused(() => releaseWorkPapers(ctx, user(), { fundRequestId: fund.id, released: true }), 'Work paper c.xlsx is not required (disabled)');
      await expect(releaseWorkPapers(ctx, user(), { fundRequestId: 555, released: true })).rejects.toThrow('No such fund request with id: 555');
    });
  });
});

describeEachDialect('file actions that queue standardization', (dialect) => {
  openEach(dialect);

  describe('disable an input file', () => {
    it('a reviewed file cannot be disabled and a disabled file cannot be reviewed', async () => {
      const fund = await insertFund(ctx);
      const reviewed = await insertFundFile(ctx, fund.id, { fileType: 'holdings', reviewed: true, fileName: 'hold.csv' });
      const disabled = await insertFundFile(ctx, fund.id, { fileType: 'trial_balance', disabled: true, fileName: 'tb.csv' });
      await refused(() => disableFiles(ctx, user(), { ids: [reviewed], disabled: true }), /File hold.csv is reviewed/);
      await refused(() => reviewFiles(ctx, user(), { ids: [disabled], reviewed: true }), /File tb.csv is not required/);
      // the reverse moves are allowed: unreview, then disable; enable, then review
      await reviewFiles(ctx, user(), { ids: [reviewed], reviewed: false });
      await disableFiles(ctx, user(), { ids: [reviewed], disabled: true });
      await disableFiles(ctx, user(), { ids: [disabled], disabled: false });
      await reviewFiles(ctx, user(), { ids: [disabled], reviewed: true });
      expect(await fileOf(reviewed)).toMatchObject({ reviewed: false, disabled: true });
      expect(await fileOf(disabled)).toMatchObject({ reviewed: true, disabled: false });
    });

    it('disabling or enabling an input file queues standardization with force run; a work paper does not', async () => {
      const fund = await insertFund(ctx);
      const input = await insertFundFile(ctx, fund.id, { fileType: 'transactions', fileName: 'tx.csv' });
      const wp = await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' });
      expect((await disableFiles(ctx, user(), { ids: [wp], disabled: true })).queued).toEqual([]);
      expect(await queued(fund.id)).toEqual([]);
      const result = await disableFiles(ctx, user(), { ids: [input], disabled: true });
      expect(await queued(fund.id)).toMatchObject([{ status: 'pending', forceRun: true, createdById: user().id }]);
      expect(result.queued).toEqual([{ fundRequestId: fund.id, processId: (await queued(fund.id))[0].id }]);
      expect((await trailOf(fund.id)).map((t) => [t.action, t.before, t.after])).toEqual([
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
      await disableFiles(ctx, user(), { ids: [input], disabled: false });
      expect(await queued(fund.id)).toHaveLength(1); // the pending job is reused
      expect((await trailOf(fund.id)).at(-1)!.action).toBe('file-enable');
    });
  });

  describe('remove', () => {
    async function withStandardization(fundId: number, fileType: string) {
      const input = await insertFundFile(ctx, fundId, { fileType, fileName: `${fileType}.raw.csv` });
      const { db, tables: t } = storeOf(ctx);
      const [{ id: std }] = await db
        .insert(t.fundFiles)
        .values({
          fundRequestId: fundId,
          kind: 'standardization',
          sourceFileId: input,
          fileType,
          fileName: `${fileType}.csv`,
          status: 'done',
          validationStatus: 'Valid',
        })
        .returning({ id: t.fundFiles.id });
      const encoder = new ChunkEncoder();
      for (const line of [1, 2, 3]) encoder.add({ file: `${fileType}.csv`, line });
      const chunk = encoder.flush()!;
      await db
        .insert(t.sdmChunks)
        .values({ fundFileId: std, sdmType: fileType, firstLine: chunk.firstLine, lastLine: chunk.lastLine, rowCount: chunk.rowCount, data: chunk.data });
      return { input, std };
    }

    it('deletes an input file with its standardization file and SDM rows, writes the trail and queues standardization', async () => {
      const fund = await insertFund(ctx);
      const tb = await withStandardization(fund.id, 'trial_balance');
      const kept = await withStandardization(fund.id, 'holdings');
      const result = await removeFiles(ctx, user(), { ids: [tb.input] });
      expect(result.removed).toEqual([tb.input]);
      expect(await fileOf(tb.input)).toBeUndefined();
      expect(await fileOf(tb.std)).toBeUndefined();
      expect(await sdmRowCount(tb.std)).toBe(0);
      expect(await fileOf(kept.input)).toBeDefined();
      expect(await sdmRowCount(kept.std)).toBe(3);
      expect(await queued(fund.id)).toMatchObject([{ stage: 'standardization', status: 'pending', forceRun: true }]);
      expect(result.queued).toEqual([{ fundRequestId: fund.id, processId: (await queued(fund.id))[0].id }]);
      expect(await trailOf(fund.id)).toMatchObject([
        { action: 'file-remove', before: { id: tb.input, filename: 'trial_balance.raw.csv', standardizationFileIds: [tb.std] }, after: null },
      ]);
      expect(events).toEqual([{ id: tb.input, fundRequestId: fund.id, kind: 'input', status: 'removed', fileName: 'trial_balance.raw.csv' }]);
    });

    it('removes only input files, not while they are processed; nothing changes on a refusal', async () => {
      const fund = await insertFund(ctx);
      const wp = await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' });
      const busy = await insertFundFile(ctx, fund.id, { fileType: 'holdings', status: 'processing', fileName: 'h.csv' });
      const ok = await insertFundFile(ctx, fund.id, { fileType: 'transactions' });
      const err = await refused(() => removeFiles(ctx, user(), { ids: [ok, wp, busy] }), /File wp.xlsx is a work_paper file; only input files can be removed/);
      expect(err.errors).toHaveLength(2);
      expect(await fileOf(ok)).toBeDefined();
      expect(await queued(fund.id)).toEqual([]);
      await expect(removeFiles(ctx, user(), { ids: [4242] })).rejects.toThrow('No such file with id: 4242');
    });
  });

  describe('reset of a file type', () => {
    it('puts the current input file of the type back to pending and unreviewed and queues standardization with force run', async () => {
      const fund = await insertFund(ctx);
      const older = await insertFundFile(ctx, fund.id, { fileType: 'holdings', fileName: 'old.csv' });
      const current = await insertFundFile(ctx, fund.id, { fileType: 'holdings', reviewed: true, fileName: 'new.csv' });
      const result = await resetFundFile(ctx, user(), { id: fund.id, fileType: 'holdings' });
      expect(await fileOf(current)).toMatchObject({ status: 'pending', reviewed: false });
      expect(await fileOf(older)).toMatchObject({ status: 'assigned' });
      expect(result.files.map((f) => f.id)).toEqual([current]);
      expect(await queued(fund.id)).toMatchObject([{ forceRun: true }]);
      expect(await trailOf(fund.id)).toMatchObject([
        {
          action: 'file-reset',
          before: { id: current, status: 'assigned', reviewed: true },
          after: { id: current, status: 'pending', reviewed: false, forceReset: false },
        },
      ]);
    });

    it('needs forceReset while the file is processed; refuses a disabled type; 404 for unknown fund or type', async () => {
      const fund = await insertFund(ctx);
      await insertFundFile(ctx, fund.id, { fileType: 'holdings', status: 'processing', fileName: 'h.csv' });
      await insertFundFile(ctx, fund.id, { fileType: 'prices', disabled: true, fileName: 'p.csv' });
      await refused(
        () => resetFundFile(ctx, user(), { id: fund.id, fileType: 'holdings' }),
        'File h.csv is being processed; use force reset to reset it anyway',
      );
      expect((await resetFundFile(ctx, user(), { id: fund.id, fileType: 'holdings', forceReset: true })).files[0].status).toBe('pending');
      await refused(() => resetFundFile(ctx, user(), { id: fund.id, fileType: 'prices' }), /File p.csv is not required/);
      await expect(resetFundFile(ctx, user(), { id: fund.id, fileType: 'share_capital' })).rejects.toThrow(
        `Fund request ${fund.id} has no share_capital input file`,
      );
      await expect(resetFundFile(ctx, user(), { id: 999, fileType: 'holdings' })).rejects.toThrow('No such fund request with id: 999');
    });
  });
});
