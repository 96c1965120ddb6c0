/**
 * The scorecard figures of a set of fund requests (docs/scorecards.md, "The figures"), from each
 * request's facts as `requestFacts` reads them off the recorded events. Pure functions: no database.
 *
 * - requests: fund requests whose data due date falls in the period;
 * - on time: every required input file received on or before the data due date (UTC dates); a
 *   request is judged once it is complete or its due date has passed (`measured`); one still
 *   incomplete after its due date is late;
 * - days late: calendar days from the data due date to the day the last required file first
 *   arrived, or to today while one is still missing; mean and 90th percentile (nearest rank) over
 *   the late requests;
 * - first-time right: the first run of the checks that covered every required type judged only
 *   first deliveries and passed; over the requests whose first complete delivery was checked;
 * - re-deliveries: files received of a type the request had received before, per request;
 * - chases: chases of the requests mailed at least once (sent), still open now (open), and the
 *   median days from a chase's first mail to its answer (answered or resolved).
 */

import type { Figures } from '../../../rules/scorecards.js';
import type { DayCounts } from '../../db/schema/deliveries.js';

export { MEASURES, type Figures } from '../../../rules/scorecards.js';

/** What the figures need of one fund request (`requestFacts`). */
export interface RequestFacts {
  id: number;
  administratorId: number | null;
  client: string;
  /** data due date, ISO `YYYY-MM-DD` */
  dueDate: string;
  /** when the last required type first arrived (ISO timestamp); null while one is missing */
  completedAt: string | null;
  /** files received of a type received before */
  reDeliveries: number;
  /** the first complete delivery's checks: true passed as first deliveries, false not, null not checked yet */
  firstTimeRight: boolean | null;
  /** chases of the request mailed at least once */
  chasesSent: number;
  /** chases of the request whose latest state is open */
  chasesOpen: number;
  /** days from first mail to answer of each answered chase */
  daysToAnswer: number[];
}

/** The timeliness of one request on `today` (ISO date). */
export interface Timeliness {
  /** null: not judged yet (incomplete, due date not passed) */
  onTime: boolean | null;
  /** whole days late (0 when on time); null when not judged */
  daysLate: number | null;
}

const DAY_MS = 86_400_000;

/** Whole calendar days from ISO date `a` to ISO date `b` (both `YYYY-MM-DD`, UTC). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b.slice(0, 10)}T00:00:00Z`) - Date.parse(`${a.slice(0, 10)}T00:00:00Z`)) / DAY_MS);
}

/** Whether the request was on time, and how many days late, as of `today` (ISO date). */
export function timeliness(r: Pick<RequestFacts, 'dueDate' | 'completedAt'>, today: string): Timeliness {
  if (r.completedAt) {
    const late = Math.max(0, daysBetween(r.dueDate, r.completedAt));
    return { onTime: late === 0, daysLate: late };
  }
  if (r.dueDate < today) return { onTime: false, daysLate: daysBetween(r.dueDate, today) };
  return { onTime: null, daysLate: null };
}

/** The median of some numbers (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;
const rate = (part: number, whole: number) => (whole ? round((100 * part) / whole, 1) : null);

/**
 * What the figures of the requests of one bucket (a TPA, a client, a month of data due dates) are
 * made of, independent of the day they are computed for: complete requests by days late,
 * incomplete ones by day of data due date (judged late once it has passed), and the sums. A
 * scorecard adds up the tallies of its buckets (`FiguresAccumulator`); they are cached in
 * `scorecard_tallies`. Day counts are flat pairs, `[days, count, days, count, ...]`, ascending.
 */
export interface Tally {
  requests: number;
  /** complete requests by whole days late (0: on time), as pairs */
  completedLate: DayCounts;
  /** requests with a required file still missing, by day of the month of their data due date (1-31), as pairs */
  openDue: DayCounts;
  checked: number;
  firstTimeRight: number;
  reDeliveries: number;
  chasesSent: number;
  chasesOpen: number;
  /** days from first mail to answer of each answered chase */
  daysToAnswer: number[];
}

/** An empty tally. */
export const emptyTally = (): Tally => ({
  requests: 0,
  completedLate: [],
  openDue: [],
  checked: 0,
  firstTimeRight: 0,
  reDeliveries: 0,
  chasesSent: 0,
  chasesOpen: 0,
  daysToAnswer: [],
});

/** Counts by key as ascending flat pairs. */
function pairs(counts: Map<number, number>): DayCounts {
  const out: number[] = [];
  for (const k of [...counts.keys()].sort((a, b) => a - b)) out.push(k, counts.get(k)!);
  return out;
}

/** The tally of the facts of the requests of one bucket (all due in one month). */
export function tallyOf(requests: readonly RequestFacts[]): Tally {
  const t = emptyTally();
  const late = new Map<number, number>();
  const open = new Map<number, number>();
  for (const r of requests) {
    t.requests++;
    if (r.completedAt) {
      const days = Math.max(0, daysBetween(r.dueDate, r.completedAt));
      late.set(days, (late.get(days) ?? 0) + 1);
    } else {
      const day = Number(r.dueDate.slice(8, 10));
      open.set(day, (open.get(day) ?? 0) + 1);
    }
    if (r.firstTimeRight !== null) {
      t.checked++;
      if (r.firstTimeRight) t.firstTimeRight++;
    }
    t.reDeliveries += r.reDeliveries;
    t.chasesSent += r.chasesSent;
    t.chasesOpen += r.chasesOpen;
    for (const d of r.daysToAnswer) t.daysToAnswer.push(d);
  }
  t.completedLate = pairs(late);
  t.openDue = pairs(open);
  return t;
}

/**
 * Adds up the tallies of buckets into the figures as of `today` (ISO date): an incomplete request
 * is late once its data due date has passed, by the calendar days since.
 */
export class FiguresAccumulator {
  private readonly todayMs: number;
  private requests = 0;
  /** judged requests by days late (index 0: on time) */
  private byDaysLate = new Float64Array(512);
  private checked = 0;
  private firstTimeRight = 0;
  private reDeliveries = 0;
  private chasesSent = 0;
  private chasesOpen = 0;
  private readonly answers: number[] = [];

  constructor(today: string) {
    this.todayMs = Date.parse(`${today.slice(0, 10)}T00:00:00Z`);
  }

  private count(days: number, n: number): void {
    if (days >= this.byDaysLate.length) {
      const grown = new Float64Array(Math.max(days + 1, this.byDaysLate.length * 2));
      grown.set(this.byDaysLate);
      this.byDaysLate = grown;
    }
    this.byDaysLate[days]! += n;
  }

  /** Adds the tally of the bucket of `month` (`YYYY-MM`). */
  add(month: string, t: Tally): this {
    this.requests += t.requests;
    const late = t.completedLate;
    for (let i = 0; i < late.length; i += 2) this.count(late[i]!, late[i + 1]!);
    if (t.openDue.length) {
      const monthMs = Date.parse(`${month}-01T00:00:00Z`);
      const open = t.openDue;
      for (let i = 0; i < open.length; i += 2) {
        const days = Math.round((this.todayMs - (monthMs + (open[i]! - 1) * DAY_MS)) / DAY_MS);
        if (days > 0) this.count(days, open[i + 1]!);
      }
    }
    this.checked += t.checked;
    this.firstTimeRight += t.firstTimeRight;
    this.reDeliveries += t.reDeliveries;
    this.chasesSent += t.chasesSent;
    this.chasesOpen += t.chasesOpen;
    for (const d of t.daysToAnswer) this.answers.push(d);
    return this;
  }

  /** The figures of what was added. */
  figures(): Figures {
    const hist = this.byDaysLate;
    const onTime = hist[0]!;
    let late = 0;
    let lateSum = 0;
    for (let d = 1; d < hist.length; d++) {
      late += hist[d]!;
      lateSum += d * hist[d]!;
    }
    // nearest rank: the ceil(0.9 n)-th smallest of the late requests
    let p90: number | null = null;
    if (late) {
      const rank = Math.max(1, Math.ceil(0.9 * late));
      let seen = 0;
      for (let d = 1; d < hist.length && p90 === null; d++) {
        seen += hist[d]!;
        if (seen >= rank) p90 = d;
      }
    }
    const measured = onTime + late;
    const medianAnswer = median(this.answers);
    return {
      requests: this.requests,
      measured,
      onTime,
      late,
      onTimeRate: rate(onTime, measured),
      meanDaysLate: late ? round(lateSum / late, 1) : null,
      p90DaysLate: p90,
      checked: this.checked,
      firstTimeRight: this.firstTimeRight,
      firstTimeRightRate: rate(this.firstTimeRight, this.checked),
      reDeliveries: this.reDeliveries,
      reDeliveriesPerRequest: this.requests ? round(this.reDeliveries / this.requests, 2) : null,
      chasesSent: this.chasesSent,
      chasesOpen: this.chasesOpen,
      chasesAnswered: this.answers.length,
      medianDaysToAnswer: medianAnswer === null ? null : round(medianAnswer, 1),
    };
  }
}

/**
 * Worst first: lowest on-time rate, then lowest first-time-right rate, then most mean days late,
 * then most re-deliveries per request; a measure with nothing measured sorts after those with a value.
 */
export function compareWorstFirst(a: Figures, b: Figures): number {
  const asc = (x: number | null, y: number | null) => (x === y ? 0 : x === null ? 1 : y === null ? -1 : x - y);
  const desc = (x: number | null, y: number | null) => (x === y ? 0 : x === null ? 1 : y === null ? -1 : y - x);
  return (
    asc(a.onTimeRate, b.onTimeRate) ||
    asc(a.firstTimeRightRate, b.firstTimeRightRate) ||
    desc(a.meanDaysLate, b.meanDaysLate) ||
    desc(a.reDeliveriesPerRequest, b.reDeliveriesPerRequest)
  );
}
