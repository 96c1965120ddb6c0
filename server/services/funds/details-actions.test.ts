import Database from 'better-sqlite3';
import { asc, eq } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { fundFiles, fundRequests, trail } from '../../db/schema/index.js';
import { sdmRowWriter } from '../../db/sdm-store.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { dbPushPath, reviewAllWorkPapers, setAggregForceRun, triggerDbPush } from './details-actions.js';
import { insertFund, insertFundFile, insertMeridianBondFund } from '../../testing/fund-factory.js';

let ctx: TestContext;
let fundId: number;
let paperIds: number[];

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, isDbPushEnabled: true });
  fundId = (await insertMeridianBondFund(ctx, { periodEnd: '2023-03-31' })).id;
  paperIds = [
    await insertFundFile(ctx, fundId, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' }),
    await insertFundFile(ctx, fundId, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp-old.xlsx', disabled: true }),
    await insertFundFile(ctx, fundId, { kind: 'work_paper', fileType: 'work_papers', status: 'pending', fileName: 'wp-next.xlsx' }),
  ];
  const std = await insertFundFile(ctx, fundId, { kind: 'standardization', fileType: 'holdings', status: 'done', fileName: 'holdings.csv' });
  const rows = sdmRowWriter(ctx, std, 'holdings');
  rows.add({ file: 'holdings.csv', line: 5, security_id: 'US38141W2734', market_value_base: 1000.5 });
  rows.add({ file: 'holdings.csv', line: 6, security_id: 'US912828YK04', market_value_base: 250 });
  await rows.flush();
  await insertFundFile(ctx, fundId, {
    kind: 'calculation',
    fileType: 'calculations',
    status: 'done',
    fileName: 'calc.json',
    validation: { QA_Rec: [{ check: 'nav', status: 'pass', diff: 0 }] },
  });
});
afterAll(() => ctx.dispose());

const reviewed = (id: number) => ctx.db.select().from(fundFiles).where(eq(fundFiles.id, id)).get()!.reviewed;

describe('review all work papers', () => {
  it('reviews the produced, required work papers only, then has nothing left to review', async () => {
    const r = await reviewAllWorkPapers(ctx, ctx.boot.admin, { id: fundId });
    expect(r.files.map((f) => f.filename)).toEqual(['wp.xlsx']);
    expect(paperIds.map(reviewed)).toEqual([true, false, false]);
    const entries = ctx.db
      .select()
      .from(trail)
      .where(eq(trail.fundRequestId, fundId))
      .all()
      .filter((t) => t.action === 'file-review');
    expect(entries.map((e) => (e.after as { filename?: string; fileName?: string; reviewed: boolean }).reviewed)).toEqual([true]);
    await expect(reviewAllWorkPapers(ctx, ctx.boot.admin, { id: fundId })).rejects.toThrow(/No work papers to review/);
    await expect(reviewAllWorkPapers(ctx, ctx.boot.admin, { id: 999_999 })).rejects.toThrow(NotFoundError);
  });

  it('sets the review status of the work papers of a selection of funds, both ways', async () => {
    const r = await reviewAllWorkPapers(ctx, ctx.boot.admin, { ids: [fundId], reviewed: false });
    expect(r.files.map((f) => [f.filename, f.reviewed])).toEqual([['wp.xlsx', false]]);
    await expect(reviewAllWorkPapers(ctx, ctx.boot.admin, { ids: [fundId], reviewed: false })).rejects.toThrow(/No work papers to mark not reviewed/);
    expect((await reviewAllWorkPapers(ctx, ctx.boot.admin, { ids: [fundId] })).files.map((f) => f.reviewed)).toEqual([true]);
    await expect(reviewAllWorkPapers(ctx, ctx.boot.admin, { ids: [fundId, 999_999] })).rejects.toThrow(NotFoundError);
  });
});

describe('forced aggregation rerun', () => {
  it('sets and clears the flag with a trail entry for each change', async () => {
    expect(await setAggregForceRun(ctx, ctx.boot.admin, { id: fundId, value: true })).toEqual({ id: fundId, aggreg_force_run: true });
    expect(ctx.db.select().from(fundRequests).where(eq(fundRequests.id, fundId)).get()!.aggregForceRun).toBe(true);
    await setAggregForceRun(ctx, ctx.boot.admin, { id: fundId, value: true }); // unchanged: no entry
    await setAggregForceRun(ctx, ctx.boot.admin, { id: fundId, value: false });
    const entries = ctx.db
      .select()
      .from(trail)
      .where(eq(trail.fundRequestId, fundId))
      .all()
      .filter((t) => t.action === 'set-aggreg-force-run');
    expect(entries.map((e) => e.after)).toEqual([{ aggreg_force_run: true }, { aggreg_force_run: false }]);
    await expect(setAggregForceRun(ctx, ctx.boot.admin, { id: fundId, value: 'yes' as unknown as boolean })).rejects.toThrow(ValidationError);
  });
});

describe('db push', () => {
  it("writes the fund's standardized rows and checks into its own SQLite file", async () => {
    const r = await triggerDbPush(ctx, ctx.boot.admin, { fundId });
    expect(r).toMatchObject({ fundId, rows: 2, checks: 1 });
    expect(r.file).toBe(dbPushPath(ctx, fundId));
    const pushed = ctx.db
      .select()
      .from(trail)
      .where(eq(trail.fundRequestId, fundId))
      .all()
      .filter((t) => t.action === 'db-push');
    expect(pushed.map((e) => e.after)).toEqual([{ file: r.file, rows: 2, checks: 1 }]);
    const db = new Database(r.file, { readonly: true });
    try {
      expect(db.prepare('SELECT name, period_end FROM fund').get()).toEqual({ name: 'Goldman Sachs Bond Fund', period_end: '2023-03-31' });
      const rows = db.prepare('SELECT file, line, data FROM sdm_rows ORDER BY line').all() as Array<{ file: string; line: number; data: string }>;
      expect(rows.map((x) => [x.file, x.line, JSON.parse(x.data).security_id])).toEqual([
        ['holdings.csv', 5, 'US38141W2734'],
        ['holdings.csv', 6, 'US912828YK04'],
      ]);
    } finally {
      db.close();
    }
  });

  it('is refused when not enabled, for an unknown fund, and for a fund with nothing standardized', async () => {
    const off = await createTestContext({ seedDemoData: false });
    try {
      await expect(triggerDbPush(off, off.boot.admin, { fundId: 1 })).rejects.toThrow(ConflictError);
    } finally {
      await off.dispose();
    }
    await expect(triggerDbPush(ctx, ctx.boot.admin, { fundId: 999_999 })).rejects.toThrow(NotFoundError);
    const empty = (await insertFund(ctx, { name: 'Empty', client: 'X', fundCode: 'EMPTY1' })).id;
    await expect(triggerDbPush(ctx, ctx.boot.admin, { fundId: empty })).rejects.toThrow(/no standardized data/);
    expect(existsSync(dbPushPath(ctx, empty))).toBe(false);
  });
});

describeEachDialect('work paper review and forced aggregation rerun', (dialect) => {
  let local: TestContext;
  beforeAll(async () => {
    local = await createTestContext({ dialect, seedDemoData: false });
  });
  afterAll(() => local.dispose());

  const trailActions = async (id: number, action: string) => {
    const { db, tables: t } = storeOf(local);
    const rows = await db.select().from(t.trail).where(eq(t.trail.fundRequestId, id)).orderBy(asc(t.trail.id));
    return rows.filter((r) => r.action === action).map((r) => r.after);
  };

  it('reviews the produced, required work papers and switches the flag, with their trail entries', async () => {
    const id = (await insertFund(local, { status: 'Approved' })).id;
    const done = await insertFundFile(local, id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' });
    await insertFundFile(local, id, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'old.xlsx', disabled: true });
    const r = await reviewAllWorkPapers(local, local.boot.admin, { id });
    expect(r.files.map((f) => [f.id, f.filename, f.reviewed])).toEqual([[done, 'wp.xlsx', true]]);
    await expect(reviewAllWorkPapers(local, local.boot.admin, { id })).rejects.toThrow(/No work papers to review/);
    expect(await trailActions(id, 'file-review')).toHaveLength(1);

    expect(await setAggregForceRun(local, local.boot.admin, { id, value: true })).toEqual({ id, aggreg_force_run: true });
    await setAggregForceRun(local, local.boot.admin, { id, value: true });
    await setAggregForceRun(local, local.boot.admin, { id, value: false });
    expect(await trailActions(id, 'set-aggreg-force-run')).toEqual([{ aggreg_force_run: true }, { aggreg_force_run: false }]);
    await expect(setAggregForceRun(local, local.boot.admin, { id: 999_999, value: true })).rejects.toThrow(NotFoundError);
  });

  it("pushes a fund's standardized rows, read back a chunk at a time, into its own SQLite file", async () => {
    const pushing = await createTestContext({ dialect, seedDemoData: false, isDbPushEnabled: true });
    try {
      const id = (await insertFund(pushing, { status: 'Approved' })).id;
      const std = await insertFundFile(pushing, id, { kind: 'standardization', fileType: 'holdings', status: 'done', fileName: 'holdings.csv' });
      const rows = sdmRowWriter(pushing, std, 'holdings');
      for (let i = 0; i < 2500; i++) rows.add({ file: 'holdings.csv', line: i + 5, security_id: `US${i}`, market_value_base: i / 4, cost_base: null });
      await rows.flush();
      const r = await triggerDbPush(pushing, pushing.boot.admin, { fundId: id });
      expect(r).toMatchObject({ fundId: id, rows: 2500, checks: 0 });
      const db = new Database(r.file, { readonly: true });
      try {
        const out = db.prepare('SELECT line, data FROM sdm_rows ORDER BY rowid').all() as Array<{ line: number; data: string }>;
        expect(out.map((x) => x.line)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 5));
        expect(JSON.parse(out[1234].data)).toEqual({ file: 'holdings.csv', line: 1239, security_id: 'US1234', market_value_base: 308.5, cost_base: null });
      } finally {
        db.close();
      }
    } finally {
      await pushing.dispose();
    }
  });
});
