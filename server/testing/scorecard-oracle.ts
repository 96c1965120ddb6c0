/**
 * Test support: the scorecard figures recomputed independently of the service, by a plain loop over
 * the raw rows (requests, input files, delivery events, chase events) with the domain's rules written
 * out again: a full audit requires trial balance, holdings, transactions and share capital, a
 * schedule-of-investments job the first two (docs/scorecards.md).
 */
import { asc } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { DAY, TODAY } from './scorecard-history.js';

/** The raw rows the expected figures are computed from. */
export interface Raw {
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

/** Reads the raw rows of the database, in id order. */
export async function readRaw(ctx: AppContext): Promise<Raw> {
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
export function expectedFacts(raw: Raw, fund: Raw['funds'][number]) {
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
export function expectedFigures(raw: Raw, funds: Raw['funds']) {
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
export function inScope(raw: Raw, from: string, to: string) {
  const parents = new Set(raw.funds.map((f) => f.parentId).filter((p) => p !== null));
  return raw.funds.filter(
    (f) => f.dueDate && f.dueDate.slice(0, 7) >= from && f.dueDate.slice(0, 7) <= to && !['Deleted', 'Declined'].includes(f.status) && !parents.has(f.id),
  );
}
