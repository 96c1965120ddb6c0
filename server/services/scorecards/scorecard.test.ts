/**
 * Scorecards against an independent count: a generated half-year of fund requests of three TPAs and
 * three clients (server/testing/scorecard-history.ts); the figures the service computes in the
 * database are recomputed by a plain loop over the raw rows (server/testing/scorecard-oracle.ts).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { recordChaseEvent } from '../chasing/history.js';
import { insertFund } from '../../testing/fund-factory.js';
import { CLIENTS, MONTHS, TODAY, TPAS, generateScorecardHistory } from '../../testing/scorecard-history.js';
import { expectedFacts, expectedFigures, inScope, readRaw, type Raw } from '../../testing/scorecard-oracle.js';
import { eventFacts, requestFacts } from './facts.js';
import { scorecardFunds } from './funds.js';
import { refreshAllScorecardFacts, staleScorecardFacts } from './refresh.js';
import { markScorecardTalliesStale, staleScorecardTallies } from './tallies.js';
import { scorecard, type ScorecardInput, type Viewer } from './scorecard.js';

describeEachDialect('scorecards', (dialect) => {
  let ctx: TestContext;
  let raw: Raw;
  const card = (input: ScorecardInput, viewer: Viewer | null = null) => scorecard(ctx, input, viewer, TODAY);

  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    await generateScorecardHistory(ctx);
    raw = await readRaw(ctx);
  }, 120_000);
  afterAll(() => ctx?.dispose());

  it('ranks every TPA of the range with the figures recomputed from the raw events, worst on-time rate first', async () => {
    const result = await card({ kind: 'tpa', from: '2026-01', to: '2026-06' });
    const funds = inScope(raw, '2026-01', '2026-06');
    expect(result.figures).toEqual(expectedFigures(raw, funds));
    expect(result.figures.requests).toBeGreaterThan(60);
    expect(result.figures.late).toBeGreaterThan(5);
    expect(result.figures.chasesSent).toBeGreaterThan(5);
    expect(result.ranking.map((r) => r.key).sort()).toEqual([...TPAS].sort());
    for (const row of result.ranking)
      expect(row.figures, row.key).toEqual(
        expectedFigures(
          raw,
          funds.filter((f) => raw.admins.get(f.administratorId!) === row.key),
        ),
      );
    const rates = result.ranking.map((r) => r.figures.onTimeRate ?? 101);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
  });

  it("gives one TPA's figures and its monthly trend", async () => {
    const result = await card({ kind: 'tpa', key: 'SOUTH_ADMIN', from: '2026-02', to: '2026-06' });
    expect(result.group).toEqual({ key: 'south_admin', name: 'south admin' });
    const mine = inScope(raw, '2026-02', '2026-06').filter((f) => raw.admins.get(f.administratorId!) === 'south_admin');
    expect(result.figures).toEqual(expectedFigures(raw, mine));
    expect(result.months.map((m) => m.month)).toEqual(MONTHS.slice(1));
    for (const m of result.months)
      expect(m.figures, m.month).toEqual(
        expectedFigures(
          raw,
          mine.filter((f) => f.dueDate!.startsWith(m.month)),
        ),
      );
  });

  it("gives a client's figures, and a Client user only their own client's, TPAs included", async () => {
    const client = CLIENTS[1]!;
    const funds = inScope(raw, '2026-01', '2026-06');
    const mine = funds.filter((f) => f.client === client);
    const result = await card({ kind: 'client', key: client.toUpperCase(), from: '2026-01', to: '2026-06' });
    expect(result.group).toEqual({ key: client, name: client });
    expect(result.figures).toEqual(expectedFigures(raw, mine));
    expect(result.ranking.map((r) => r.key).sort()).toEqual([...CLIENTS].sort());

    const viewer: Viewer = { role: 'Client', client };
    const own = await card({ kind: 'client', from: '2026-01', to: '2026-06' }, viewer);
    expect(own.scope).toEqual({ client, unlinked: false });
    expect(own.ranking.map((r) => r.key)).toEqual([client]);
    expect(own.figures).toEqual(expectedFigures(raw, mine));
    const tpas = await card({ kind: 'tpa', key: 'north_admin', from: '2026-01', to: '2026-06' }, viewer);
    expect(tpas.figures).toEqual(
      expectedFigures(
        raw,
        mine.filter((f) => raw.admins.get(f.administratorId!) === 'north_admin'),
      ),
    );
    await expect(card({ kind: 'client', key: CLIENTS[0]!, from: '2026-01', to: '2026-06' }, viewer)).rejects.toThrow(/own client/);
    const unlinked = await card({ kind: 'tpa', from: '2026-01', to: '2026-06' }, { role: 'Client', client: null });
    expect(unlinked.scope).toEqual({ client: null, unlinked: true });
    expect(unlinked.figures.requests).toBe(0);
  });

  it('lists the funds behind a figure: the late ones of a month, the ones not first time right, the chased ones', async () => {
    const funds = inScope(raw, '2026-01', '2026-06').filter((f) => raw.admins.get(f.administratorId!) === 'north_admin');
    const base = { kind: 'tpa' as const, key: 'north_admin', from: '2026-01', to: '2026-06' };
    const late = await scorecardFunds(ctx, { ...base, month: '2026-03', filter: 'late', limit: 500 }, null, TODAY);
    const expectedLate = funds.filter((f) => f.dueDate!.startsWith('2026-03') && expectedFacts(raw, f).onTime === false);
    expect(late.pagination.count).toBe(expectedLate.length);
    expect(late.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(expectedLate.map((f) => f.id));
    for (const r of late.rows) expect(r.daysLate).toBe(expectedFacts(raw, funds.find((f) => f.id === r.id)!).daysLate);
    const dues = late.rows.map((r) => r.dueDate);
    expect(dues).toEqual([...dues].sort().reverse());

    const wrong = await scorecardFunds(ctx, { ...base, filter: 'not_first_time_right', limit: 500 }, null, TODAY);
    expect(wrong.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(funds.filter((f) => expectedFacts(raw, f).firstTimeRight === false).map((f) => f.id));
    const chased = await scorecardFunds(ctx, { ...base, filter: 'chased', limit: 2 }, null, TODAY);
    expect(chased.pagination.count).toBe(funds.filter((f) => expectedFacts(raw, f).sent > 0).length);
    expect(chased.rows).toHaveLength(2);
    expect(chased.rows[0]).toMatchObject({ administrator: 'north admin', fundCode: expect.stringMatching(/^F\d+$/) });
  });

  it('refuses a bad range, an unknown TPA or client, a month outside the range', async () => {
    await expect(card({ kind: 'tpa', from: '2026-13' })).rejects.toThrow(/YYYY-MM/);
    await expect(card({ kind: 'tpa', from: '2026-05', to: '2026-01' })).rejects.toThrow(/after/);
    await expect(card({ kind: 'tpa', from: '2020-01', to: '2026-01' })).rejects.toThrow(/at most 60 months/);
    await expect(card({ kind: 'tpa', key: 'nobody' })).rejects.toThrow(/No TPA has the code or name 'nobody'/);
    await expect(card({ kind: 'client', key: 'Nobody Ltd' })).rejects.toThrow(/No fund request with a data due date has the client 'Nobody Ltd'/);
    await expect(scorecardFunds(ctx, { kind: 'tpa', from: '2026-01', to: '2026-03', month: '2026-05' }, null, TODAY)).rejects.toThrow(/month must be/);
  });

  it('defaults to the last 12 months and answers an empty range with nothing measured', async () => {
    const result = await card({ kind: 'client', to: '2025-06' });
    expect(result.from).toBe('2024-07');
    expect(result.months).toHaveLength(12);
    expect(result.figures).toMatchObject({ requests: 0, onTimeRate: null, meanDaysLate: null, firstTimeRightRate: null, medianDaysToAnswer: null });
    expect(result.ranking).toEqual([]);
  });

  it('keeps the cached facts a cache: refreshed from the events, marked stale by a new event, a file marked not required or a job type changed, and the figures always those of the events', async () => {
    const full = { kind: 'tpa' as const, from: '2026-01', to: '2026-06' };
    const expectAll = async () => {
      const result = await card(full);
      const funds = inScope(raw, '2026-01', '2026-06');
      expect(result.figures).toEqual(expectedFigures(raw, funds));
      for (const row of result.ranking)
        expect(row.figures, row.key).toEqual(
          expectedFigures(
            raw,
            funds.filter((f) => raw.admins.get(f.administratorId!) === row.key),
          ),
        );
      const client = await card({ kind: 'client', key: CLIENTS[2]!, from: '2026-01', to: '2026-06' });
      for (const m of client.months)
        expect(m.figures, m.month).toEqual(
          expectedFigures(
            raw,
            funds.filter((f) => f.client === CLIENTS[2] && f.dueDate!.startsWith(m.month)),
          ),
        );
    };
    expect(await staleScorecardFacts(ctx)).toBeGreaterThan(50);
    expect(await staleScorecardTallies(ctx)).toBeGreaterThan(20);
    const refreshed = await refreshAllScorecardFacts(ctx);
    expect(refreshed.requests).toBeGreaterThan(50);
    expect(refreshed.buckets).toBeGreaterThan(20);
    expect(await staleScorecardFacts(ctx)).toBe(0);
    expect(await staleScorecardTallies(ctx)).toBe(0);
    await expectAll();
    const scope = { fromDate: '2026-01-01', toDateExclusive: '2026-07-01' };
    expect(await requestFacts(ctx, scope)).toEqual(await eventFacts(ctx, scope));

    // three changes of what the facts are made of: a chase mailed and answered, a required file marked not required, a job type changed
    const { db, tables: t } = storeOf(ctx);
    const funds = inScope(raw, '2026-01', '2026-06');
    const chased = funds.find((f) => expectedFacts(raw, f).sent === 0)!;
    const [chase] = await db
      .insert(t.chases)
      .values({
        fundRequestId: chased.id,
        administratorId: chased.administratorId,
        client: chased.client,
        reason: 'returned',
        key: 'returned:late',
        evidence: {},
        recipients: [],
      })
      .returning();
    const ref = { id: chase!.id, fundRequestId: chased.id, administratorId: chased.administratorId, client: chased.client, reason: 'returned' } as const;
    await recordChaseEvent(ctx, ref, 'scheduled', { at: '2026-06-01T08:00:00.000Z' });
    await recordChaseEvent(ctx, ref, 'sent', { at: '2026-06-01T09:00:00.000Z' });
    await recordChaseEvent(ctx, ref, 'answered', { at: '2026-06-03T21:00:00.000Z' });
    const incomplete = funds.find(
      (f) =>
        f.id !== chased.id &&
        f.jobType === 'FULL_AUDIT' &&
        expectedFacts(raw, f).onTime === false &&
        raw.inputs.some((i) => i.fundRequestId === f.id && i.fileType === 'share_capital'),
    )!;
    await db
      .update(t.fundFiles)
      .set({ disabled: true })
      .where(and(eq(t.fundFiles.fundRequestId, incomplete.id), eq(t.fundFiles.kind, 'input'), eq(t.fundFiles.fileType, 'share_capital')));
    const retyped = funds.find((f) => f.jobType === 'FULL_AUDIT' && ![incomplete.id, chased.id].includes(f.id))!;
    await db.update(t.fundRequests).set({ jobType: 'SOI_ONLY' }).where(eq(t.fundRequests.id, retyped.id));
    expect(await staleScorecardFacts(ctx)).toBe(3);

    // four changes of which bucket a request counts in: deleted, due a month later, another TPA, made the parent of another
    const touched = new Set([chased.id, incomplete.id, retyped.id]);
    const [deleted, moved, transferred, parent] = funds.filter((f) => !touched.has(f.id) && f.dueDate! < '2026-06-01');
    await db.update(t.fundRequests).set({ status: 'Deleted' }).where(eq(t.fundRequests.id, deleted!.id));
    await db
      .update(t.fundRequests)
      .set({ dueDate: `2026-06-${moved!.dueDate!.slice(8)}` })
      .where(eq(t.fundRequests.id, moved!.id));
    const other = [...raw.admins.keys()].find((id) => id !== transferred!.administratorId)!;
    await db.update(t.fundRequests).set({ administratorId: other }).where(eq(t.fundRequests.id, transferred!.id));
    await insertFund(ctx, { administratorId: other, client: CLIENTS[2], dueDate: '2026-04-20', status: 'Approved', parentId: parent!.id });
    expect(await staleScorecardTallies(ctx)).toBeGreaterThanOrEqual(6);

    raw = await readRaw(ctx);
    expect(expectedFacts(raw, raw.funds.find((f) => f.id === chased.id)!)).toMatchObject({ sent: 1, answers: [2.5] });
    // stale rows are read from the events at once, before the refresher ran
    await expectAll();
    const again = await refreshAllScorecardFacts(ctx);
    expect(again.requests).toBeGreaterThanOrEqual(3);
    expect(await staleScorecardTallies(ctx)).toBe(0);
    await expectAll();
    // and with every bucket stale, the whole scope is read from the requests' facts
    await markScorecardTalliesStale(ctx);
    await expectAll();
  });
});
