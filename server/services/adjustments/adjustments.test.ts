import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalculationValidation } from '../../../pipeline/checks/index.js';
import { fundCodes, fundFiles, processes, trail } from '../../db/schema/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { Engine } from '../../jobs/engine.js';
import { allJobs } from '../../jobs/stages/index.js';
import { fixturesDir } from '../../paths.js';
import { seedFxRates } from '../reference-data/fx-rates.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { importFile } from '../imports/imports.js';
import { createAdjustment, deleteAdjustment, listAdjustments, rerunAdjustments, updateAdjustment } from './adjustments.js';
import { feeAccrual } from '../../testing/adjustments.js';

let ctx: TestContext;
let fundId: number;

const runPipeline = () => new Engine(ctx, allJobs).drain();
const trailOf = (action: string) =>
  ctx.db
    .select()
    .from(trail)
    .where(and(eq(trail.fundRequestId, fundId), eq(trail.action, action)))
    .all();
const calculation = () =>
  ctx.db
    .select()
    .from(fundFiles)
    .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'calculation')))
    .get()!.validation as unknown as CalculationValidation;
const navItem = () => calculation().QA_Rec.find((i) => i.name === 'NAV vs share capital')!;

/** The error items of a ValidationError `fn` rejects with. */
async function problems(fn: () => Promise<unknown>): Promise<unknown[]> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).errors;
  }
  throw new Error('no ValidationError thrown');
}

beforeAll(async () => {
  // the demo TPAs and the real fund requests; the Goldman Sachs Bond Fund's four delivered files
  ctx = await createTestContext();
  seedFxRates(ctx);
  fundId = ctx.db.select().from(fundCodes).where(eq(fundCodes.code, 'S000013795')).get()!.fundRequestId;
  const dir = join(fixturesDir(), 'tpas/meridian_fund_services/inputs');
  for (const fileName of readdirSync(dir).filter((n) => n.startsWith('MFS_') && n.includes('S000013795')))
    await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName, path: join(dir, fileName), userId: null, source: 'cli' });
  await runPipeline();
}, 120_000);
afterAll(() => ctx.dispose());

describe('adjustments of a fund', () => {
  it('refuses bad input with a message naming each field', async () => {
    const admin = ctx.boot.admin;
    expect(await problems(() => createAdjustment(ctx, admin, fundId, { ...feeAccrual, type: 'tax' }))).toEqual([
      {
        column: 'type',
        message:
          'Type must be one of Bond adjustment, UK apportionment, Main adjustment, HMRC adjustment, Distributions, Target funds (preview), UK distributions, Flexible, Derivatives',
      },
    ]);
    expect(
      await problems(() =>
        createAdjustment(ctx, admin, fundId, {
          type: 'main',
          description: ' ',
          bookedByTpa: 'maybe',
          lines: [
            { account: '', target: 'tb_balance', amount: 10.005 },
            { account: '11000', target: 'holding_value', securityId: 'US3138W7WP51', amount: 5 },
          ],
        }),
      ),
    ).toEqual([
      { column: 'description', message: 'Description is required' },
      { column: 'bookedByTpa', message: "Booked by TPA must be 'yes' or 'no'" },
      { column: 'lines[0].account', message: 'Line 1: account is required' },
      { column: 'lines[0].amount', message: 'Line 1: amount has more than two decimals (fund currency, to the cent)' },
      { column: 'lines[1].target', message: "Line 2: target must be 'Trial balance: closing balance of the account' for Main adjustment" },
    ]);
    expect(
      await problems(() =>
        createAdjustment(ctx, admin, fundId, { ...feeAccrual, lines: [feeAccrual.lines[0], { ...feeAccrual.lines[1], amount: -249_999.99 }] }),
      ),
    ).toEqual([{ column: 'lines', message: 'Main adjustment is a double entry: its trial balance lines must net to zero, they net to 0.01' }]);
    await expect(createAdjustment(ctx, admin, 999_999, feeAccrual)).rejects.toThrow(new NotFoundError('No such fund request with id: 999999'));
    // nothing was stored, nothing written to the trail
    expect(await listAdjustments(ctx, fundId)).toEqual([]);
    expect(trailOf('adjustment-create')).toEqual([]);
  });

  it('writes every create, update and delete to the fund trail, with the author and the before and after', async () => {
    const admin = ctx.boot.admin;
    const created = await createAdjustment(ctx, admin, fundId, { ...feeAccrual, description: '  Audit fee  ' });
    expect(created).toMatchObject({ fundRequestId: fundId, type: 'main', description: 'Audit fee', bookedByTpa: false, lines: feeAccrual.lines });
    expect(created.author).toBeTruthy();
    expect(trailOf('adjustment-create')).toMatchObject([{ userId: admin.id, before: null, after: { id: created.id, description: 'Audit fee' } }]);

    const updated = await updateAdjustment(ctx, admin, fundId, created.id, feeAccrual);
    expect(updated.description).toBe('Audit fee accrual');
    expect(trailOf('adjustment-update')).toMatchObject([{ before: { description: 'Audit fee' }, after: { description: 'Audit fee accrual' } }]);

    const hmrc = await createAdjustment(ctx, admin, fundId, {
      type: 'hmrc',
      description: 'Reportable income',
      bookedByTpa: false,
      lines: [{ account: 'INCOME_OTHER', target: 'tb_balance', amount: -1_000 }],
    });
    expect(await deleteAdjustment(ctx, admin, fundId, hmrc.id)).toEqual({ id: hmrc.id, deleted: true });
    expect(trailOf('adjustment-delete')).toMatchObject([{ before: { id: hmrc.id, type: 'hmrc' }, after: null }]);
    await expect(deleteAdjustment(ctx, admin, fundId, hmrc.id)).rejects.toThrow(`No such adjustment with id: ${hmrc.id} on fund request ${fundId}`);
    expect((await listAdjustments(ctx, fundId)).map((a) => a.id)).toEqual([created.id]);
  });

  it('rerun queues the calculations; the work paper lists the unbooked accrual, and a booked write-down moves NAV', async () => {
    const admin = ctx.boot.admin;
    expect(navItem()).toMatchObject({ status: 'pass', diff: 0 });
    // the TPA booked a write-down of 1,000,000 on its investments against unrealised gains
    await createAdjustment(ctx, admin, fundId, {
      type: 'main',
      description: 'Write-down of investments',
      bookedByTpa: true,
      lines: [
        { account: '11000', target: 'tb_balance', amount: -1_000_000 },
        { account: 'UNREALIZED_GL', target: 'tb_balance', amount: 1_000_000 },
      ],
    });
    const result = await rerunAdjustments(ctx, admin, fundId, 'adjustments');
    expect(result).toMatchObject({ fundRequestId: fundId, rerun: 'adjustments', adjustments: 2, booked: 1 });
    expect(ctx.db.select().from(processes).where(eq(processes.id, result.processId)).get()).toMatchObject({
      fundRequestId: fundId,
      stage: 'calculations',
      status: 'pending',
      forceRun: true,
    });
    expect(trailOf('rerun-adjustments')).toMatchObject([{ userId: admin.id, after: { processId: result.processId, queued: 'calculations' } }]);
    await runPipeline();
    // the checks ran on the written-down ledger: NAV is now 1,000,000 below the share register
    expect(navItem()).toMatchObject({ status: 'warning', diff: -1_000_000 });
    // and the calculations queued the work paper, whose schedule lists the accrual the TPA did not book
    const paper = ctx.db
      .select()
      .from(fundFiles)
      .where(and(eq(fundFiles.fundRequestId, fundId), eq(fundFiles.kind, 'work_paper')))
      .get()!;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(ctx.blobs.get(paper.blobKey!) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.getWorksheet('Unadjusted differences')!.eachRow((r) => rows.push((r.values as unknown[]).slice(1, 6)));
    expect(rows).toContainEqual([
      'Proposed adjustment (not booked by the TPA)',
      expect.stringMatching(/^#\d+ Main adjustment: Audit fee accrual$/),
      250_000,
      250_000,
      'Above SAD: accumulated',
    ]);
    expect(rows.find((r) => r[0] === 'Booked adjustment')).toEqual([
      'Booked adjustment',
      expect.stringMatching(/Write-down of investments$/),
      1_000_000,
      undefined,
      undefined,
    ]);
  }, 120_000);

  it('a rerun of a deleted fund is refused', async () => {
    const status = ctx.sqlite.prepare('select status from fund_requests where id = ?').pluck().get(fundId);
    ctx.sqlite.prepare("update fund_requests set status = 'Deleted' where id = ?").run(fundId);
    try {
      await expect(rerunAdjustments(ctx, ctx.boot.admin, fundId, 'apportionment')).rejects.toThrow(
        new ConflictError(`Fund request ${fundId} is deleted: restore it before recalculating its adjustments`),
      );
    } finally {
      ctx.sqlite.prepare('update fund_requests set status = ? where id = ?').run(status, fundId);
    }
  });
});
