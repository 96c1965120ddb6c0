/**
 * Delivery events written by the pipeline itself: the Meridian delivery of the Goldman Sachs Bond
 * Fund (real N-PORT data) identified, standardized and checked by the stage handlers, then the
 * broken holdings file (an instrument type the mapping does not know) delivered again; and the
 * backfill of a database whose files were stored before events were recorded.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { enqueue, type EnqueueInput } from '../../queue/enqueue.js';
import { allJobs } from '../../jobs/stages/index.js';
import { fixturesDir } from '../../paths.js';
import { seedFxRates } from '../reference-data/fx-rates.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { chaseEvents } from '../chasing/history.js';
import { importFile } from '../imports/imports.js';
import { scorecard } from '../scorecards/scorecard.js';
import { BACKFILL_KEY, backfillDeliveryEvents } from './backfill.js';

const MERIDIAN = join(fixturesDir(), 'tpas/meridian_fund_services');

let ctx: TestContext;
let fundId: number;

/** Runs every pending job in queue order through its stage handler (work papers left out), queueing its next jobs. */
async function runJobs(): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  for (;;) {
    const [job] = await db.select().from(t.processes).where(eq(t.processes.status, 'pending')).orderBy(asc(t.processes.id)).limit(1);
    if (!job) return;
    await db.update(t.processes).set({ status: 'running' }).where(eq(t.processes.id, job.id));
    const out = job.stage === 'visualization' ? {} : await allJobs[job.stage]!(ctx, job, new AbortController().signal);
    await db.update(t.processes).set({ status: 'done' }).where(eq(t.processes.id, job.id));
    for (const next of out.next ?? []) if (next.stage !== 'visualization') await enqueue(ctx, { ...next, stage: next.stage as EnqueueInput['stage'] });
  }
}

async function events() {
  const { db, tables: t } = storeOf(ctx);
  return db.select().from(t.deliveryEvents).where(eq(t.deliveryEvents.fundRequestId, fundId)).orderBy(asc(t.deliveryEvents.id));
}

async function inputFiles() {
  const { db, tables: t } = storeOf(ctx);
  return db
    .select()
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fundId), eq(t.fundFiles.kind, 'input')))
    .orderBy(asc(t.fundFiles.id));
}

async function calculationItems() {
  const { db, tables: t } = storeOf(ctx);
  const [calc] = await db
    .select()
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fundId), eq(t.fundFiles.kind, 'calculation')));
  return { id: calc!.id, items: (calc!.validation as { QA_Rec: Array<{ check: string; status: string }> }).QA_Rec };
}

beforeAll(async () => {
  ctx = await createTestContext();
  seedFxRates(ctx);
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ id: t.fundCodes.fundRequestId }).from(t.fundCodes).where(eq(t.fundCodes.code, 'S000013795'));
  fundId = fund!.id;
  // the delivery has no transactions file: a schedule-of-investments job requires the trial balance and holdings only
  await db.update(t.fundRequests).set({ jobType: 'SOI_ONLY' }).where(eq(t.fundRequests.id, fundId));
}, 60_000);
afterAll(() => ctx?.dispose());

describe('delivery events of the pipeline', () => {
  it('records each file received and the checks run on them, judged complete and first delivery', async () => {
    const before = Date.now();
    for (const name of readdirSync(join(MERIDIAN, 'inputs')).sort())
      await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: name, path: join(MERIDIAN, 'inputs', name), userId: null, source: 'cli' });
    await runJobs();
    const inputs = await inputFiles();
    const all = await events();
    const received = all.filter((e) => e.kind === 'received');
    expect(received.map((e) => [e.fundFileId, e.fileType, e.fileName, e.source])).toEqual(inputs.map((f) => [f.id, f.fileType, f.fileName, 'pipeline']));
    expect(received.map((e) => e.fileType).sort()).toEqual(['holdings', 'prices', 'share_capital', 'trial_balance']);
    for (const e of received) expect(Date.parse(e.at)).toBeGreaterThanOrEqual(before - 1000);

    const checked = all.filter((e) => e.kind === 'checked');
    expect(checked.length).toBeGreaterThan(0);
    const last = checked[checked.length - 1]!;
    const calc = await calculationItems();
    const failing = [...new Set(calc.items.filter((i) => i.status === 'fail').map((i) => i.check))].sort();
    expect(last).toMatchObject({
      fundFileId: calc.id,
      outcome: failing.length ? 'failed' : 'passed',
      failedChecks: failing,
      complete: true,
      firstDelivery: true,
      inputs: inputs.map((f) => ({ fundFileId: f.id, fileType: f.fileType })).sort((a, b) => a.fileType.localeCompare(b.fileType)),
    });
    expect(Date.parse(last.at)).toBeGreaterThanOrEqual(Date.parse(received[received.length - 1]!.at));
  }, 180_000);

  it('records a file delivered again as a re-delivery, and its failed checks with the unmapped code as a failed check', async () => {
    const name = 'MFS_HOLDINGS_unknown_instrument.csv';
    await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: name, path: join(MERIDIAN, 'broken', name), userId: null, source: 'cli' });
    await runJobs();
    const all = await events();
    const holdings = all.filter((e) => e.kind === 'received' && e.fileType === 'holdings');
    expect(holdings.map((e) => e.fileName)).toEqual(['MFS_HOLDINGS_S000013795_20230331.csv', name]);
    const last = all.filter((e) => e.kind === 'checked').pop()!;
    expect(last.outcome).toBe('failed');
    expect(last.failedChecks).toContain('unmapped_codes');
    expect(last.complete).toBe(true);
    // the holdings judged are the second delivery of the type
    expect(last.firstDelivery).toBe(false);
    expect(last.inputs).toContainEqual({ fundFileId: holdings[1]!.fundFileId, fileType: 'holdings' });
  }, 120_000);

  it("gives the TPA's scorecard the delivery: late (due 2023-04-30), one re-delivery, first time right as its first complete checks were", async () => {
    const all = await events();
    const firstComplete = all.find((e) => e.kind === 'checked' && e.complete)!;
    const completedDay = all.filter((e) => e.kind === 'received' && ['trial_balance', 'holdings'].includes(e.fileType!))[1]!.at.slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    // the demo's missing-files chase of the fund and any the pipeline's review opened: those mailed count as sent
    const history = await chaseEvents(ctx, { fundRequestId: fundId });
    const mailed = new Set(history.filter((e) => e.state === 'sent').map((e) => e.chaseId));
    const card = await scorecard(ctx, { kind: 'tpa', key: 'Meridian Fund Services', from: '2023-04', to: '2023-04' }, null, today);
    expect(card.group).toEqual({ key: 'meridian_fund_services', name: 'Meridian Fund Services' });
    expect(card.figures).toMatchObject({
      requests: 1,
      measured: 1,
      onTime: 0,
      late: 1,
      onTimeRate: 0,
      meanDaysLate: Math.round((Date.parse(completedDay) - Date.parse('2023-04-30')) / 86_400_000),
      checked: 1,
      firstTimeRight: firstComplete.outcome === 'passed' ? 1 : 0,
      reDeliveries: 1,
      reDeliveriesPerRequest: 1,
      chasesSent: mailed.size,
    });
  });
});

describe('delivery events of files stored before they were recorded', () => {
  it('are written once from the input and calculation files: arrivals when attached, the checks when calculated', async () => {
    const { db, tables: t } = storeOf(ctx);
    const inputs = await inputFiles();
    const calc = await calculationItems();
    await db.delete(t.deliveryEvents);
    await db.delete(t.settings).where(eq(t.settings.key, BACKFILL_KEY));
    const outcome = await backfillDeliveryEvents(ctx);
    const [calcRow] = await db.select().from(t.fundFiles).where(eq(t.fundFiles.id, calc.id));
    const allFunds = await db.select({ id: t.fundFiles.id }).from(t.fundFiles).where(eq(t.fundFiles.kind, 'input'));
    expect(outcome.received).toBe(allFunds.length);
    const all = await events();
    expect(all.filter((e) => e.kind === 'received').map((e) => [e.fundFileId, e.at, e.source])).toEqual(inputs.map((f) => [f.id, f.createdAt, 'backfill']));
    expect(all.filter((e) => e.kind === 'checked')).toMatchObject([
      { fundFileId: calc.id, at: calcRow!.createdAt, outcome: 'failed', complete: true, source: 'backfill' },
    ]);
    // once only: a second start writes nothing
    expect(await backfillDeliveryEvents(ctx)).toEqual({ received: 0, checked: 0 });
    expect((await events()).length).toBe(all.length);
  });
});
