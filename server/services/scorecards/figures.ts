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

/** The figures of a set of requests. Rates are percentages 0-100 (one decimal); days one decimal; null when nothing to measure. */
export interface Figures {
  requests: number;
  /** requests whose timeliness is judged: complete, or due date passed */
  measured: number;
  onTime: number;
  late: number;
  onTimeRate: number | null;
  meanDaysLate: number | null;
  p90DaysLate: number | null;
  /** requests whose first complete delivery was checked */
  checked: number;
  firstTimeRight: number;
  firstTimeRightRate: number | null;
  reDeliveries: number;
  /** re-deliveries per request, two decimals */
  reDeliveriesPerRequest: number | null;
  chasesSent: number;
  chasesOpen: number;
  /** chases answered after their first mail */
  chasesAnswered: number;
  medianDaysToAnswer: number | null;
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

/** The nearest-rank percentile `p` (0-100) of some numbers; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The median of some numbers (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;
const rate = (part: number, whole: number) => (whole ? round((100 * part) / whole, 1) : null);

/** The figures of some requests as of `today` (ISO date). */
export function figuresOf(requests: readonly RequestFacts[], today: string): Figures {
  let measured = 0;
  let onTime = 0;
  const lateDays: number[] = [];
  let checked = 0;
  let ftr = 0;
  let reDeliveries = 0;
  let chasesSent = 0;
  let chasesOpen = 0;
  const answers: number[] = [];
  for (const r of requests) {
    const t = timeliness(r, today);
    if (t.onTime !== null) {
      measured++;
      if (t.onTime) onTime++;
      else lateDays.push(t.daysLate!);
    }
    if (r.firstTimeRight !== null) {
      checked++;
      if (r.firstTimeRight) ftr++;
    }
    reDeliveries += r.reDeliveries;
    chasesSent += r.chasesSent;
    chasesOpen += r.chasesOpen;
    answers.push(...r.daysToAnswer);
  }
  const meanLate = lateDays.length ? lateDays.reduce((a, b) => a + b, 0) / lateDays.length : null;
  const medianAnswer = median(answers);
  return {
    requests: requests.length,
    measured,
    onTime,
    late: lateDays.length,
    onTimeRate: rate(onTime, measured),
    meanDaysLate: meanLate === null ? null : round(meanLate, 1),
    p90DaysLate: percentile(lateDays, 90),
    checked,
    firstTimeRight: ftr,
    firstTimeRightRate: rate(ftr, checked),
    reDeliveries,
    reDeliveriesPerRequest: requests.length ? round(reDeliveries / requests.length, 2) : null,
    chasesSent,
    chasesOpen,
    chasesAnswered: answers.length,
    medianDaysToAnswer: medianAnswer === null ? null : round(medianAnswer, 1),
  };
}

/** The measures a scorecard shows, in the order of its table and charts, with their labels and units. */
export const MEASURES = [
  { key: 'requests', label: 'Requests', unit: 'count' },
  { key: 'onTimeRate', label: 'On-time rate', unit: 'percent' },
  { key: 'meanDaysLate', label: 'Mean days late', unit: 'days' },
  { key: 'p90DaysLate', label: '90th percentile days late', unit: 'days' },
  { key: 'firstTimeRightRate', label: 'First-time-right rate', unit: 'percent' },
  { key: 'reDeliveriesPerRequest', label: 'Re-deliveries per request', unit: 'ratio' },
  { key: 'chasesSent', label: 'Chases sent', unit: 'count' },
  { key: 'chasesOpen', label: 'Chases open', unit: 'count' },
  { key: 'medianDaysToAnswer', label: 'Median days from chase to answer', unit: 'days' },
] as const satisfies ReadonlyArray<{ key: keyof Figures; label: string; unit: string }>;

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
