/**
 * The scorecard routes (`/scorecards/tpa`, `/scorecards/client`, their drill-down and xlsx export)
 * through the real app: a few fund requests of two TPAs and two clients with deliveries on time
 * and late and a chase, the figures as the API answers them, what a Client user may see, the
 * workbook holding the same figures, and clear errors for a bad range or an unknown TPA.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { insertAdministrator, insertFund } from '../testing/fund-factory.js';
import { daysAgo, insertAnsweredChase, insertDeliveredFund } from '../testing/scorecard-deliveries.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let admin: string;
let clientUser: string;
let unlinkedUser: string;
const today = new Date().toISOString().slice(0, 10);
const month = (iso: string) => iso.slice(0, 7);
const delivered = (administratorId: number, client: string, dueDate: string, lateBy: number, passed: boolean) =>
  insertDeliveredFund(ctx, { administratorId, client, dueDate, lateBy, passed });

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
  admin = await sessionToken(ctx, ctx.boot.admin.id);
  const { db, tables: t } = storeOf(ctx);
  const [linked, unlinked] = await db
    .insert(t.users)
    .values([
      { email: 'cfo@orion.example.com', username: 'cfo', role: 'Client', originalRole: 'Client', client: 'Orion Capital' },
      { email: 'nobody@example.com', username: 'nobody', role: 'Client', originalRole: 'Client' },
    ])
    .returning();
  clientUser = await sessionToken(ctx, linked!.id);
  unlinkedUser = await sessionToken(ctx, unlinked!.id);
  const north = await insertAdministrator(ctx, 'north_admin', 'North Administration');
  const south = await insertAdministrator(ctx, 'south_admin', 'South Administration');
  // North: on time and right; South: late, one failing its checks and chased
  await delivered(north, 'Orion Capital', daysAgo(40), -2, true);
  await delivered(north, 'Helix Partners', daysAgo(35), 0, true);
  await delivered(south, 'Orion Capital', daysAgo(45), 6, true);
  const failed = await delivered(south, 'Helix Partners', daysAgo(30), 3, false);
  // and one of South's never delivered, due 20 days ago
  await insertFund(ctx, { administratorId: south, client: 'Helix Partners', dueDate: daysAgo(20), jobType: 'SOI_ONLY', status: 'Approved' });
  await insertAnsweredChase(ctx, failed, `${daysAgo(26)}T08:00:00.000Z`, `${daysAgo(24)}T20:00:00.000Z`);
});
afterAll(() => ctx.dispose());

const range = `from=${month(daysAgo(60))}&to=${month(today)}`;

describe('scorecard routes', () => {
  it('rank the TPAs worst first with their figures, and give one TPA with its monthly trend', async () => {
    const res = await api.get(`scorecards/tpa?${range}`, admin);
    expect(res.status).toBe(200);
    const card = res.body.payload;
    expect(card.ranking.map((r: { key: string }) => r.key)).toEqual(['south_admin', 'north_admin']);
    const [south, north] = card.ranking;
    expect(north.figures).toMatchObject({ requests: 2, measured: 2, onTime: 2, onTimeRate: 100, firstTimeRightRate: 100, chasesSent: 0 });
    expect(south.figures).toMatchObject({
      requests: 3,
      measured: 3,
      onTime: 0,
      late: 3,
      onTimeRate: 0,
      // 6 and 3 days late delivered, 20 days late still missing
      meanDaysLate: Math.round((10 * (6 + 3 + 20)) / 3) / 10,
      p90DaysLate: 20,
      checked: 2,
      firstTimeRight: 1,
      firstTimeRightRate: 50,
      chasesSent: 1,
      chasesOpen: 1,
      chasesAnswered: 1,
    });
    expect(south.figures.medianDaysToAnswer).toBeCloseTo(2.5, 1);
    expect(card.figures.requests).toBe(5);

    const one = await api.get(`scorecards/tpa?key=South%20Administration&${range}`, admin);
    expect(one.body.payload.group).toEqual({ key: 'south_admin', name: 'South Administration' });
    expect(one.body.payload.figures).toEqual(south.figures);
    const months = one.body.payload.months as Array<{ month: string; figures: { requests: number } }>;
    expect(months.map((m) => m.month)).toEqual(card.months.map((m: { month: string }) => m.month));
    expect(months.reduce((n, m) => n + m.figures.requests, 0)).toBe(3);
  });

  it('list the funds behind a figure: the late ones of a TPA, the chased ones', async () => {
    const late = await api.get(`scorecards/tpa/funds?key=south_admin&filter=late&${range}`, admin);
    expect(late.status).toBe(200);
    expect(late.body.payload.pagination.count).toBe(3);
    expect(late.body.payload.rows.map((r: { daysLate: number }) => r.daysLate)).toEqual([20, 3, 6]);
    const chased = await api.get(`scorecards/tpa/funds?key=south_admin&filter=chased&${range}`, admin);
    expect(chased.body.payload.rows).toEqual([
      expect.objectContaining({ client: 'Helix Partners', chasesSent: 1, firstTimeRight: false, administrator: 'South Administration' }),
    ]);
    const bad = await api.get(`scorecards/tpa/funds?filter=slow&${range}`, admin);
    expect(bad.status).toBe(400);
  });

  it("show a Client user their own client's requests only, and nothing to one linked to no client", async () => {
    const own = await api.get(`scorecards/client?${range}`, clientUser);
    expect(own.status).toBe(200);
    expect(own.body.payload.scope).toEqual({ client: 'Orion Capital', unlinked: false });
    expect(own.body.payload.ranking.map((r: { key: string }) => r.key)).toEqual(['Orion Capital']);
    expect(own.body.payload.figures.requests).toBe(2);
    const tpas = await api.get(`scorecards/tpa?${range}`, clientUser);
    expect(tpas.body.payload.figures.requests).toBe(2);
    expect((await api.get(`scorecards/client?key=Helix%20Partners&${range}`, clientUser)).status).toBe(403);
    const funds = await api.get(`scorecards/tpa/funds?${range}`, clientUser);
    expect(funds.body.payload.rows.map((r: { client: string }) => r.client)).toEqual(['Orion Capital', 'Orion Capital']);
    const none = await api.get(`scorecards/client?${range}`, unlinkedUser);
    expect(none.body.payload).toMatchObject({ scope: { client: null, unlinked: true }, figures: { requests: 0 } });
  });

  it('export the scorecard as a workbook with the same figures, the trend, the ranking and the funds', async () => {
    const res = await api.app.fetch(
      new Request('http://t/api/v2.0/scorecards/tpa/export', {
        method: 'POST',
        headers: { 'x-access-token': admin, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'south_admin', from: month(daysAgo(60)), to: month(today) }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="scorecard_tpa_south_admin_${month(daysAgo(60))}_${month(today)}.xlsx"`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Scorecard', 'Monthly trend', 'Ranking', 'Funds']);
    const summary = wb.getWorksheet('Scorecard')!;
    const value = (label: string) => {
      let found: unknown;
      summary.eachRow((row) => {
        if (row.getCell(1).value === label) found = row.getCell(2).value;
      });
      return found;
    };
    expect(summary.getCell('A1').value).toBe('TPA scorecard: South Administration');
    expect(value('Requests')).toBe(3);
    expect(value('On-time rate')).toBe(0);
    expect(value('First-time-right rate')).toBe(0.5);
    expect(value('90th percentile days late')).toBe(20);
    expect(value('Chases sent')).toBe(1);
    expect(wb.getWorksheet('Ranking')!.getRow(2).getCell(2).value).toBe('South Administration');
    const funds = wb.getWorksheet('Funds')!;
    expect(funds.rowCount).toBe(4);
    expect(funds.getRow(2).getCell(8).value).toBe(20);
  });

  it('refuse a bad range and an unknown TPA with a clear message', async () => {
    const bad = await api.get('scorecards/tpa?from=2026-13', admin);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('from must be a month written YYYY-MM');
    const unknown = await api.get(`scorecards/tpa?key=nobody&${range}`, admin);
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).toContain("No TPA has the code or name 'nobody'");
    expect((await api.get('scorecards/tpa')).status).toBe(401);
  });
});
