/**
 * Scorecards against an independent count: a generated half-year of fund requests of three TPAs and
 * three clients, their files received before and after their due dates (re-deliveries, a type
 * marked not required), their checks recorded as the pipeline records them, and their chases; the
 * figures the service computes in the database are recomputed here by a plain loop over the raw
 * rows (requests, input files, delivery events, chase events), with the domain's rules written out
 * again: a full audit requires trial balance, holdings, transactions and share capital, a
 * schedule-of-investments job the first two.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FundStatus } from '../../../rules/statuses.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { recordChaseEvent } from '../chasing/history.js';
import { recordChecksRun, recordFilesReceived } from '../delivery-events/record.js';
import { insertAdministrator, insertFund } from '../../testing/fund-factory.js';
import { eventFacts, requestFacts } from './facts.js';
import { scorecardFunds } from './funds.js';
import { refreshAllScorecardFacts, staleScorecardFacts } from './refresh.js';
import { markScorecardTalliesStale, staleScorecardTallies } from './tallies.js';
import { scorecard, type ScorecardInput, type Viewer } from './scorecard.js';

const TODAY = '2026-06-15';
const MONTHS = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];
const TPAS = ['north_admin', 'south_admin', 'west_admin'];
const CLIENTS = ['Orion Capital', 'Helix Partners', 'Lyra Funds'];
const DAY = 86_400_000;

/** mulberry32: the same funds every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Generates the funds and writes their history through the recording services, fund by fund in time order. */
async function generate(ctx: TestContext): Promise<void> {
  const rand = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const { db, tables: t } = storeOf(ctx);
  const admins = await Promise.all(TPAS.map((code) => insertAdministrator(ctx, code, code.replace('_', ' '))));
  for (let n = 0; n < 90; n++) {
    const adminIndex = Math.floor(rand() * admins.length);
    const month = pick(MONTHS);
    const dueDate = `${month}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
    const jobType = rand() < 0.25 ? 'SOI_ONLY' : 'FULL_AUDIT';
    const status: FundStatus = n % 17 === 5 ? 'Deleted' : n % 19 === 7 ? 'Declined' : pick(['Approved', 'Approved', 'Pending', 'Issued'] as const);
    const fund = await insertFund(ctx, { administratorId: admins[adminIndex], client: pick(CLIENTS), dueDate, jobType, status });
    const due = Date.parse(`${dueDate}T00:00:00Z`);
    const types = ['trial_balance', 'holdings', ...(jobType === 'FULL_AUDIT' ? ['transactions', 'share_capital'] : []), 'prices'];
    // arrivals: a first delivery of each type (some never, some late), some delivered again
    const arrivals: Array<{ at: number; type: string; disabled: boolean }> = [];
    if (jobType === 'FULL_AUDIT' && rand() < 0.15) arrivals.push({ at: due - 20 * DAY, type: 'transactions', disabled: true });
    for (const type of types) {
      if (arrivals.some((a) => a.type === type)) continue;
      if (rand() < 0.1) continue;
      const first = due + Math.round((rand() * 25 - 12) * DAY + rand() * 3_600_000);
      arrivals.push({ at: first, type, disabled: false });
      if (rand() < 0.2) arrivals.push({ at: first + Math.round((1 + rand() * 9) * DAY), type, disabled: false });
    }
    arrivals.sort((a, b) => a.at - b.at);
    for (const a of arrivals) {
      if (a.at > Date.parse(`${TODAY}T12:00:00Z`)) continue;
      const [file] = await db
        .insert(t.fundFiles)
        .values({ fundRequestId: fund.id, kind: 'input', fileType: a.type, fileName: `${a.type}.csv`, status: 'assigned', disabled: a.disabled })
        .returning();
      await recordFilesReceived(ctx, [{ fundRequestId: fund.id, fundFileId: file!.id, fileType: a.type, fileName: file!.fileName, importFileId: null }], {
        at: iso(a.at),
      });
      const invalid = rand() < 0.1;
      await db.insert(t.fundFiles).values({
        fundRequestId: fund.id,
        kind: 'standardization',
        sourceFileId: file!.id,
        fileType: a.type,
        fileName: `${a.type}.csv`,
        status: 'done',
        validationStatus: invalid ? 'Invalid' : 'Valid',
        validation: { QA_Mapping: invalid ? [{ name: 'X' }] : [], rowErrorsTotal: 0 },
      });
      // the checks run after most arrivals, an hour later
      if (rand() < 0.8) {
        const items = [
          { check: 'tb_balance', status: rand() < 0.15 ? 'fail' : 'pass' },
          { check: 'nav', status: rand() < 0.1 ? 'fail' : 'warning' },
        ];
        await recordChecksRun(ctx, fund.id, null, items, { at: iso(a.at + 3_600_000) });
      }
    }
    // chases: about a third of the requests, mailed after their due date, some answered
    for (let c = 0; c < (rand() < 0.35 ? 1 + Math.floor(rand() * 2) : 0); c++) {
      const reason = c === 0 ? 'missing_files' : 'failed_check';
      const [chase] = await db
        .insert(t.chases)
        .values({
          fundRequestId: fund.id,
          administratorId: fund.administratorId,
          client: fund.client,
          reason,
          key: `${reason}:${c}`,
          evidence: {},
          recipients: [],
        })
        .returning();
      const ref = { id: chase!.id, fundRequestId: fund.id, administratorId: fund.administratorId, client: fund.client, reason } as const;
      const opened = due - 3 * DAY + Math.round(rand() * DAY);
      await recordChaseEvent(ctx, ref, 'scheduled', { at: iso(opened) });
      if (rand() < 0.85) {
        const sent = opened + Math.round((1 + rand() * 4) * DAY);
        await recordChaseEvent(ctx, ref, 'sent', { at: iso(sent) });
        if (rand() < 0.4) await recordChaseEvent(ctx, ref, 'sent', { at: iso(sent + 3 * DAY), note: 'reminder 2' });
        const fate = rand();
        if (fate < 0.45) {
          const answered = sent + Math.round(rand() * 8 * DAY);
          await recordChaseEvent(ctx, ref, 'answered', { at: iso(answered) });
          if (rand() < 0.7) await recordChaseEvent(ctx, ref, 'resolved', { at: iso(answered + DAY) });
        } else if (fate < 0.6) await recordChaseEvent(ctx, ref, 'resolved', { at: iso(sent + 2 * DAY) });
        else if (fate < 0.7) await recordChaseEvent(ctx, ref, 'cancelled', { at: iso(sent + DAY) });
      } else if (rand() < 0.5) await recordChaseEvent(ctx, ref, 'cancelled', { at: iso(opened + DAY) });
    }
  }
  // a parent fund (its children are the deliveries) and a request without a due date: neither counted
  const parent = await insertFund(ctx, { administratorId: admins[0], client: CLIENTS[0], dueDate: '2026-03-10', status: 'Approved' });
  await insertFund(ctx, { administratorId: admins[0], client: CLIENTS[0], dueDate: '2026-03-12', status: 'Approved', parentId: parent.id });
  await insertFund(ctx, { administratorId: admins[1], client: CLIENTS[1], dueDate: null, status: 'Approved' });
}

/** The raw rows the expected figures are computed from. */
interface Raw {
  funds: Array<{
    id: number;
    administratorId: number | null;
    client: string;
    dueDate: string | null;
    jobType: string | null;
    status: string;
    parentId: number | null;
  }>;
  admins: Map<number, string>;
  inputs: Array<{ id: number; fundRequestId: number; fileType: string; disabled: boolean }>;
  events: Array<{
    id: number;
    fundRequestId: number;
    kind: string;
    at: string;
    fileType: string | null;
    fundFileId: number | null;
    outcome: string | null;
    inputs: unknown;
  }>;
  chaseEvents: Array<{ id: number; chaseId: number; fundRequestId: number; state: string; at: string }>;
}

async function readRaw(ctx: TestContext): Promise<Raw> {
  const { db, tables: t } = storeOf(ctx);
  const admins = new Map((await db.select().from(t.administrators)).map((a) => [a.id, a.code]));
  return {
    funds: await db.select().from(t.fundRequests).orderBy(asc(t.fundRequests.id)),
    admins,
    inputs: (await db.select().from(t.fundFiles).orderBy(asc(t.fundFiles.id))).filter((f) => f.kind === 'input').map((f) => ({ ...f, disabled: !!f.disabled })),
    events: await db.select().from(t.deliveryEvents).orderBy(asc(t.deliveryEvents.id)),
    chaseEvents: await db.select().from(t.chaseEvents).orderBy(asc(t.chaseEvents.id)),
  };
}

/** One request's expected facts, by a plain walk over its rows. */
function expectedFacts(raw: Raw, fund: Raw['funds'][number]) {
  const required = fund.jobType === 'SOI_ONLY' ? ['trial_balance', 'holdings'] : ['trial_balance', 'holdings', 'transactions', 'share_capital'];
  const files = raw.inputs.filter((f) => f.fundRequestId === fund.id);
  const newestOf = (type: string) => files.filter((f) => f.fileType === type).pop();
  const needed = required.filter((type) => !newestOf(type)?.disabled);
  const byTime = (a: { at: string; id: number }, b: { at: string; id: number }) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id - b.id);
  const events = raw.events.filter((e) => e.fundRequestId === fund.id).sort(byTime);
  const received = events.filter((e) => e.kind === 'received');
  const first = new Map<string, (typeof received)[number]>();
  for (const e of received) if (!first.has(e.fileType!)) first.set(e.fileType!, e);
  const complete = needed.every((type) => first.has(type));
  const completedAt = complete
    ? needed
        .map((type) => first.get(type)!.at)
        .sort()
        .pop()!
    : null;
  let firstTimeRight: boolean | null = null;
  for (const e of events.filter((x) => x.kind === 'checked')) {
    const judged = e.inputs as Array<{ fundFileId: number; fileType: string }>;
    if (!needed.every((type) => judged.some((j) => j.fileType === type))) continue;
    firstTimeRight = e.outcome === 'passed' && judged.every((j) => first.get(j.fileType)?.fundFileId === j.fundFileId);
    break;
  }
  const due = fund.dueDate!;
  const days = (a: string, b: string) => Math.round((Date.parse(b.slice(0, 10)) - Date.parse(a.slice(0, 10))) / DAY);
  let onTime: boolean | null = null;
  let daysLate: number | null = null;
  if (completedAt) {
    daysLate = Math.max(0, days(due, completedAt));
    onTime = daysLate === 0;
  } else if (due < TODAY) {
    onTime = false;
    daysLate = days(due, TODAY);
  }
  const chases = new Map<number, Array<{ state: string; at: string; id: number }>>();
  for (const c of raw.chaseEvents.filter((x) => x.fundRequestId === fund.id)) chases.set(c.chaseId, [...(chases.get(c.chaseId) ?? []), c]);
  let sent = 0;
  let open = 0;
  const answers: number[] = [];
  for (const list of chases.values()) {
    list.sort(byTime);
    const firstSent = list.find((c) => c.state === 'sent');
    if (['scheduled', 'sent', 'answered'].includes(list[list.length - 1]!.state)) open++;
    if (!firstSent) continue;
    sent++;
    const answer = list.find((c) => ['answered', 'resolved'].includes(c.state) && c.at >= firstSent.at);
    if (answer) answers.push((Date.parse(answer.at) - Date.parse(firstSent.at)) / DAY);
  }
  return { onTime, daysLate, firstTimeRight, reDeliveries: received.length - first.size, sent, open, answers };
}

/** The figures of some requests, written out plainly. */
function expectedFigures(raw: Raw, funds: Raw['funds']) {
  const facts = funds.map((f) => expectedFacts(raw, f));
  const measured = facts.filter((f) => f.onTime !== null);
  const late = measured.filter((f) => !f.onTime).map((f) => f.daysLate!);
  late.sort((a, b) => a - b);
  const checked = facts.filter((f) => f.firstTimeRight !== null);
  const answers = facts.flatMap((f) => f.answers).sort((a, b) => a - b);
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const mid = answers.length >> 1;
  const reDeliveries = facts.reduce((n, f) => n + f.reDeliveries, 0);
  return {
    requests: funds.length,
    measured: measured.length,
    onTime: measured.length - late.length,
    late: late.length,
    onTimeRate: measured.length ? r1((100 * (measured.length - late.length)) / measured.length) : null,
    meanDaysLate: late.length ? r1(late.reduce((a, b) => a + b, 0) / late.length) : null,
    p90DaysLate: late.length ? late[Math.ceil(0.9 * late.length) - 1]! : null,
    checked: checked.length,
    firstTimeRight: checked.filter((f) => f.firstTimeRight).length,
    firstTimeRightRate: checked.length ? r1((100 * checked.filter((f) => f.firstTimeRight).length) / checked.length) : null,
    reDeliveries,
    reDeliveriesPerRequest: funds.length ? Math.round((100 * reDeliveries) / funds.length) / 100 : null,
    chasesSent: facts.reduce((n, f) => n + f.sent, 0),
    chasesOpen: facts.reduce((n, f) => n + f.open, 0),
    chasesAnswered: answers.length,
    medianDaysToAnswer: answers.length ? r1(answers.length % 2 ? answers[mid]! : (answers[mid - 1]! + answers[mid]!) / 2) : null,
  };
}

/** The requests a scorecard counts, by the rules of the docs: due in the range, not deleted or declined, not a parent. */
function inScope(raw: Raw, from: string, to: string) {
  const parents = new Set(raw.funds.map((f) => f.parentId).filter((p) => p !== null));
  return raw.funds.filter(
    (f) => f.dueDate && f.dueDate.slice(0, 7) >= from && f.dueDate.slice(0, 7) <= to && !['Deleted', 'Declined'].includes(f.status) && !parents.has(f.id),
  );
}

describeEachDialect('scorecards', (dialect) => {
  let ctx: TestContext;
  let raw: Raw;
  const card = (input: ScorecardInput, viewer: Viewer | null = null) => scorecard(ctx, input, viewer, TODAY);

  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    await generate(ctx);
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
