/**
 * The fund requests behind a scorecard's figures (docs/scorecards.md, "Drill-down"): the requests
 * of the TPA or client asked for (or of all), of one month or the whole range, narrowed to those
 * a figure counts (late, not first-time right, re-delivered, chased ...), with each request's own
 * figures, newest data due date first, a page at a time.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { ValidationError } from '../../errors.js';
import type { FundFilter } from '../../../rules/scorecards.js';
import { todayIso } from '../../lib/dates.js';
import { nextMonthStart, requestFacts } from './facts.js';
import { median, timeliness, type RequestFacts } from './figures.js';
import { resolveScorecard, type ScorecardInput, type Viewer } from './scorecard.js';

export { FUND_FILTER_LABELS, FUND_FILTERS, type FundFilter } from '../../../rules/scorecards.js';

/** Most rows a page of the drill-down holds. */
export const MAX_FUND_ROWS = 500;

export interface ScorecardFundsInput extends ScorecardInput {
  /** one month of the range, `YYYY-MM`; omitted: the whole range */
  month?: string;
  filter?: FundFilter;
  offset?: number;
  limit?: number;
}

/** One fund request with its own figures. */
export interface ScorecardFundRow {
  id: number;
  fundCode: string | null;
  name: string;
  client: string;
  administrator: string | null;
  /** ISO date */
  dueDate: string;
  /** when the last required file first arrived (ISO timestamp); null while one is missing */
  completedAt: string | null;
  /** null: not judged yet (incomplete, not due) */
  onTime: boolean | null;
  daysLate: number | null;
  /** null: the first complete delivery was not checked yet */
  firstTimeRight: boolean | null;
  reDeliveries: number;
  chasesSent: number;
  chasesOpen: number;
  /** median days from chase to answer over the request's answered chases */
  medianDaysToAnswer: number | null;
}

export interface ScorecardFundPage {
  rows: ScorecardFundRow[];
  pagination: { offset: number; limit: number; count: number };
}

/** Whether a request is one a filter lists, as of `today`. */
export function matchesFilter(f: RequestFacts, filter: FundFilter, today: string): boolean {
  const t = timeliness(f, today);
  switch (filter) {
    case 'all':
      return true;
    case 'measured':
      return t.onTime !== null;
    case 'on_time':
      return t.onTime === true;
    case 'late':
      return t.onTime === false;
    case 'not_measured':
      return t.onTime === null;
    case 'checked':
      return f.firstTimeRight !== null;
    case 'first_time_right':
      return f.firstTimeRight === true;
    case 'not_first_time_right':
      return f.firstTimeRight === false;
    case 'redelivered':
      return f.reDeliveries > 0;
    case 'chased':
      return f.chasesSent > 0;
    case 'open_chases':
      return f.chasesOpen > 0;
    case 'answered':
      return f.daysToAnswer.length > 0;
  }
}

/**
 * The requests of a scorecard a filter lists, newest data due date first, with names, main codes and TPAs.
 * @param today ISO date the figures are computed for (tests)
 * @throws ValidationError for a month outside the range or a bad page; see `resolveScorecard`
 */
export async function scorecardFunds(ctx: AppContext, input: ScorecardFundsInput, viewer: Viewer | null, today = todayIso()): Promise<ScorecardFundPage> {
  const r = await resolveScorecard(ctx, input, viewer, today);
  if (input.month !== undefined && (input.month < r.from || input.month > r.to || !/^\d{4}-\d{2}$/.test(input.month)))
    throw new ValidationError(`month must be a month of the range ${r.from} to ${r.to} (got '${input.month}')`);
  const offset = input.offset ?? 0;
  const limit = input.limit ?? 100;
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > MAX_FUND_ROWS)
    throw new ValidationError(`offset must be a whole number from 0 and limit from 1 to ${MAX_FUND_ROWS}`);
  const filter = input.filter ?? 'all';
  // only the group's requests (and the month's) are read: a TPA's funds, not every TPA's of the range
  const scope = input.month === undefined ? r.groupScope : { ...r.groupScope, fromDate: `${input.month}-01`, toDateExclusive: nextMonthStart(input.month) };
  const facts = (await requestFacts(ctx, scope))
    .filter(r.inGroup)
    .filter((f) => input.month === undefined || f.dueDate.startsWith(input.month))
    .filter((f) => matchesFilter(f, filter, today))
    .sort((a, b) => b.dueDate.localeCompare(a.dueDate) || b.id - a.id);
  const page = facts.slice(offset, offset + limit);
  return { rows: await fundRows(ctx, page, today), pagination: { offset, limit, count: facts.length } };
}

/** Rows of some requests' facts with their names, main codes and TPAs, in the order given. */
export async function fundRows(ctx: AppContext, facts: RequestFacts[], today: string): Promise<ScorecardFundRow[]> {
  if (!facts.length) return [];
  const { db, tables: t } = storeOf(ctx);
  const ids = facts.map((f) => f.id);
  const names = new Map<number, { name: string; administrator: string | null }>();
  const codes = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const funds = await db
      .select({ id: t.fundRequests.id, name: t.fundRequests.name, administrator: t.administrators.name })
      .from(t.fundRequests)
      .leftJoin(t.administrators, eq(t.fundRequests.administratorId, t.administrators.id))
      .where(inArray(t.fundRequests.id, part));
    for (const f of funds) names.set(f.id, { name: f.name, administrator: f.administrator });
    const main = await db
      .select({ id: t.fundCodes.fundRequestId, code: t.fundCodes.code })
      .from(t.fundCodes)
      .where(and(inArray(t.fundCodes.fundRequestId, part), eq(t.fundCodes.main, true)));
    for (const c of main) if (!codes.has(c.id)) codes.set(c.id, c.code);
  }
  return facts.map((f) => {
    const time = timeliness(f, today);
    const m = median(f.daysToAnswer);
    return {
      id: f.id,
      fundCode: codes.get(f.id) ?? null,
      name: names.get(f.id)?.name ?? '',
      client: f.client,
      administrator: names.get(f.id)?.administrator ?? null,
      dueDate: f.dueDate,
      completedAt: f.completedAt,
      onTime: time.onTime,
      daysLate: time.daysLate,
      firstTimeRight: f.firstTimeRight,
      reDeliveries: f.reDeliveries,
      chasesSent: f.chasesSent,
      chasesOpen: f.chasesOpen,
      medianDaysToAnswer: m === null ? null : Math.round(m * 10) / 10,
    };
  });
}
