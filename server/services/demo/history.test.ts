/**
 * The demo's year of history: on the demo data of a first start, each demo TPA's real funds get a
 * request per month with files on time and late, a failed check chased and answered, and
 * missing-files chases, so the scorecards have a trend; written once, marked the demo's, and out
 * of demo mode's reach (the demo TPA `demo_test` gets none).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { scorecard } from '../scorecards/scorecard.js';
import { planDemoCleanup } from './cleanup.js';
import { DEMO_HISTORY_MONTHS, seedDemoHistory } from './history.js';

const NOW = new Date('2026-12-07T12:00:00Z');
const CODES = ['demo_test', 'keystone_admin', 'meridian_fund_services'];

describeEachDialect('demo history', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: true });
  }, 120_000);
  afterAll(() => ctx?.dispose());

  it('gives each demo TPA a year of requests with late deliveries, a failed check chased and answered, and a trend', async () => {
    const before = await planDemoCleanup(ctx);
    const written = await seedDemoHistory(ctx, CODES, NOW);
    // keystone has two real funds, meridian one: a request per month each
    expect(written.fundRequests).toBe(3 * DEMO_HISTORY_MONTHS);
    expect(written.chases).toBeGreaterThan(5);

    const tpas = await scorecard(ctx, { kind: 'tpa', from: '2026-01', to: '2026-12' }, null, '2026-12-07');
    const meridian = tpas.ranking.find((r) => r.key === 'meridian_fund_services')!;
    const keystone = tpas.ranking.find((r) => r.key === 'keystone_admin')!;
    expect(tpas.ranking.some((r) => r.key === 'demo_test')).toBe(false);
    expect(meridian.figures.requests).toBe(DEMO_HISTORY_MONTHS);
    expect(keystone.figures.requests).toBe(2 * DEMO_HISTORY_MONTHS);
    // meridian is late more often, and worse ranked
    expect(meridian.figures.onTimeRate!).toBeLessThan(keystone.figures.onTimeRate!);
    expect(meridian.figures.late).toBeGreaterThan(0);
    expect(meridian.figures.meanDaysLate!).toBeGreaterThan(0);
    expect(tpas.ranking.findIndex((r) => r.key === 'meridian_fund_services')).toBeLessThan(tpas.ranking.findIndex((r) => r.key === 'keystone_admin'));
    // the failed trial balance: not first time right, re-delivered, chased and answered
    expect(meridian.figures.firstTimeRightRate!).toBeLessThan(100);
    expect(meridian.figures.reDeliveries).toBeGreaterThan(0);
    expect(meridian.figures.chasesSent).toBeGreaterThan(0);
    expect(meridian.figures.chasesAnswered).toBeGreaterThan(0);
    expect(meridian.figures.medianDaysToAnswer).not.toBeNull();
    // last month's share capital has not come: its chase is open
    expect(meridian.figures.chasesOpen).toBe(1);
    expect(keystone.figures.chasesOpen).toBe(0);
    // a trend: every month has requests, and timeliness varies from month to month
    const months = tpas.months.filter((m) => m.figures.requests > 0);
    expect(months.length).toBe(12);
    expect(new Set(months.map((m) => m.figures.onTimeRate)).size).toBeGreaterThan(1);

    // marked the demo's (trail action, event source), and demo mode's reset does not remove them
    const { db, tables: t } = storeOf(ctx);
    const events = await db.select({ source: t.deliveryEvents.source }).from(t.deliveryEvents);
    expect(new Set(events.map((e) => e.source))).toEqual(new Set(['demo']));
    const trail = await db.select({ action: t.trail.action }).from(t.trail).where(eq(t.trail.action, 'demo'));
    expect(trail.length).toBeGreaterThanOrEqual(written.fundRequests);
    expect(await planDemoCleanup(ctx)).toEqual(before);
  });

  it('is written once', async () => {
    expect(await seedDemoHistory(ctx, CODES, NOW)).toEqual({ fundRequests: 0, deliveryEvents: 0, chases: 0 });
  });
});
