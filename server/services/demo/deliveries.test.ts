/**
 * The demo deliveries of a first start, run through the real pipeline on real SQLite, imported
 * once when two processes start at the same time.
 */
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { administrators, fundFiles, fundRequests, importFiles } from '../../db/schema/index.js';
import { Engine } from '../../jobs/engine.js';
import { allJobs } from '../../jobs/stages/index.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect, openDialectDatabase } from '../../testing/dialects.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { addShippedAdministrators } from '../setup/prepare.js';
import { getFundDetails } from '../funds/details.js';
import { ensureAdmin } from '../users/users.js';
import { DEMO_DELIVERIES, markDemoDeliveriesDue, queueDueDemoDeliveries } from './deliveries.js';

const KENTUCKY = 'Kentucky Tax-Free Short-to-Medium Series';
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.dispose());

/** The fund details of a demo fund request of a TPA. */
function fundOf(code: string, name: string) {
  const row = ctx.db
    .select({ id: fundRequests.id })
    .from(fundRequests)
    .innerJoin(administrators, eq(fundRequests.administratorId, administrators.id))
    .where(and(eq(administrators.code, code), eq(fundRequests.name, name)))
    .get();
  if (!row) throw new Error(`no demo fund request of ${code}`);
  return getFundDetails(ctx, row.id);
}

/** Every cell text of a work paper workbook. */
async function workbookText(fileId: number): Promise<string> {
  const file = ctx.db.select().from(fundFiles).where(eq(fundFiles.id, fileId)).get()!;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(ctx.blobs.get(file.blobKey!) as unknown as ArrayBuffer);
  const texts: string[] = [];
  wb.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => texts.push(String(cell.text)))));
  return texts.join('\n');
}

describe('demo deliveries', () => {
  it('are not imported by a bootstrapped data directory alone (test contexts stay fast)', async () => {
    expect(ctx.db.select().from(importFiles).all()).toEqual([]);
  });

  it('go through the pipeline: a work paper without Incomplete data, another on incomplete data with failed checks and a QA validation', async () => {
    expect(await queueDueDemoDeliveries(ctx, ctx.boot.admin.id)).toBe(2);
    const names = ctx.db
      .select({ name: importFiles.fileName })
      .from(importFiles)
      .all()
      .map((r) => r.name);
    expect(names).toEqual(DEMO_DELIVERIES.flatMap((d) => d.files.map((f) => f.slice(f.lastIndexOf('/') + 1))));
    // a later start imports nothing again
    expect(await queueDueDemoDeliveries(ctx, ctx.boot.admin.id)).toBe(0);
    await new Engine(ctx, allJobs).drain();

    const keystone = await fundOf('keystone_admin', KENTUCKY);
    // one input file per sheet of the workbook, each standardized Valid
    expect(keystone.inputFiles.every((f) => f.filename.startsWith('KEYSTONE_5493006TF05454RBY690_20221231.xlsx#'))).toBe(true);
    expect(keystone.inputFiles.map((f) => [f.fileType, f.validation_status]).sort()).toEqual([
      ['holdings', 'Valid'],
      ['prices', 'Valid'],
      ['share_capital', 'Valid'],
      ['trial_balance', 'Valid'],
    ]);
    expect(keystone.standardizationFiles.every((f) => f.validation_status === 'Valid')).toBe(true);
    expect(keystone.workPapers).toHaveLength(1);
    expect(keystone.workPapers[0]!.qa.failed).toEqual([]);
    const text = await workbookText(keystone.workPapers[0]!.id);
    expect(text).toContain('Trial balance sums to zero');
    expect(text).not.toMatch(/Incomplete/i);
    // the demo TPA's fund is left to demo mode
    expect((await fundOf('demo_test', KENTUCKY)).inputFiles).toEqual([]);

    const meridian = await fundOf('meridian_fund_services', 'Goldman Sachs Bond Fund');
    expect(meridian.inputFiles.map((f) => [f.filename, f.validation_status])).toEqual([['MFS_HOLDINGS_unknown_instrument.csv', 'Invalid']]);
    // the QA validation names the unknown instrument code
    expect(JSON.stringify(meridian.standardizationFiles.map((f) => f.validation))).toContain('BANK LOAN');
    expect(meridian.workPapers).toHaveLength(1);
    // no trial balance was delivered: that check could not be performed (listed as such, not as failed)
    const itemNames = (items: (typeof meridian.workPapers)[0]['qa']['failed']) => items.map((f) => ('name' in f ? f.name : f.error));
    expect(itemNames(meridian.workPapers[0]!.qa.notPerformed)).toContain('Trial balance sums to zero');
    expect(itemNames(meridian.workPapers[0]!.qa.failed)).not.toContain('Trial balance sums to zero');
    // the unknown instrument makes the work paper's data incomplete, as its Summary says
    expect(meridian.workPapers[0]!.outcome).toBe('Incomplete data');
    expect(keystone.workPapers[0]!.outcome).not.toBe('Incomplete data');
  }, 60_000);

  it('are not imported with demoDeliveries off, nor later once that start consumed them, nor without demo data', async () => {
    const off = await createTestContext({ demoDeliveries: false });
    const empty = await createTestContext({ seedDemoData: false });
    try {
      expect(await queueDueDemoDeliveries(off, off.boot.admin.id)).toBe(0);
      expect(await queueDueDemoDeliveries(Object.assign(off, { config: { ...off.config, demoDeliveries: true } }), off.boot.admin.id)).toBe(0);
      expect(off.db.select().from(importFiles).all()).toEqual([]);
      expect(await queueDueDemoDeliveries(empty, empty.boot.admin.id)).toBe(0);
      expect(empty.db.select().from(importFiles).all()).toEqual([]);
    } finally {
      await off.dispose();
      await empty.dispose();
    }
  });
});

describeEachDialect('demo deliveries due', (dialect) => {
  it('are imported by one of two processes starting at once', async () => {
    const database = await openDialectDatabase(dialect, { demoDeliveries: true });
    try {
      const other = await database.open();
      await addShippedAdministrators(database.ctx);
      const { user } = await ensureAdmin(database.ctx, 'admin@example.com');
      await markDemoDeliveriesDue(database.ctx);
      await markDemoDeliveriesDue(other);
      const counts = await Promise.all([queueDueDemoDeliveries(database.ctx, user.id), queueDueDemoDeliveries(other, user.id)]);
      expect(counts.sort()).toEqual([0, DEMO_DELIVERIES.flatMap((d) => d.files).length]);
      const { db, tables: t } = storeOf(database.ctx);
      expect((await db.select().from(t.importFiles)).map((f) => f.fileName).sort()).toEqual([
        'KEYSTONE_5493006TF05454RBY690_20221231.xlsx',
        'MFS_HOLDINGS_unknown_instrument.csv',
      ]);
      expect(await queueDueDemoDeliveries(other, user.id)).toBe(0);
      const jobs = await db.select().from(t.processes);
      expect(jobs.map((j) => [j.stage, j.status])).toEqual(DEMO_DELIVERIES.flatMap((d) => d.files).map(() => ['identification', 'pending']));
    } finally {
      await database.dispose();
    }
  });
});
