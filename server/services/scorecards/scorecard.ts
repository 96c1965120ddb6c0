/**
 * TPA and client scorecards (docs/scorecards.md): for a range of months of data due dates, the
 * figures of one TPA or client (or of all), their monthly trend, and every TPA or client of the
 * range ranked worst first, each computed from the recorded events (`facts.ts`, `figures.ts`).
 * A Client user sees only their own client's fund requests: their client's scorecard, and the
 * TPAs' figures over their client's requests alone.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { todayIso } from '../../lib/dates.js';
import {
  DEFAULT_SCORECARD_MONTHS as DEFAULT_MONTHS,
  MAX_SCORECARD_MONTHS as MAX_MONTHS,
  NO_ADMINISTRATOR,
  type ScorecardKind,
} from '../../../rules/scorecards.js';
import type { FactScope } from './facts.js';
import { compareWorstFirst, type Figures, type RequestFacts } from './figures.js';
import { type BucketTally, figuresOfBuckets, scorecardBuckets } from './tallies.js';

export { NO_ADMINISTRATOR, SCORECARD_KINDS, type ScorecardKind } from '../../../rules/scorecards.js';

/** What groups a request: its TPA and client. */
type Grouped = Pick<RequestFacts, 'administratorId' | 'client'>;

/** What is asked for. */
export interface ScorecardInput {
  kind: ScorecardKind;
  /** a TPA's code or name, or a client's name (case-insensitive); omitted: every TPA or client */
  key?: string;
  /** first month, `YYYY-MM` (default: 11 months before `to`) */
  from?: string;
  /** last month, `YYYY-MM` (default: this month) */
  to?: string;
}

/** Who is asking: a Client user is held to their own client. */
export type Viewer = Pick<User, 'role' | 'client'>;

/** A TPA or client of the ranking. */
export interface ScorecardGroup {
  /** the TPA's code (empty for requests without one), or the client's name */
  key: string;
  name: string;
}

export interface Scorecard {
  kind: ScorecardKind;
  from: string;
  to: string;
  /** the day the figures were computed for (ISO date): open requests are late as of then */
  asOf: string;
  /** the TPA or client asked for; null: all */
  group: ScorecardGroup | null;
  /** what the viewer may see: `client` set for a Client user (null `client` with `unlinked` when their user names none) */
  scope: { client: string | null; unlinked: boolean };
  figures: Figures;
  /** one entry per month of the range, oldest first */
  months: Array<{ month: string; figures: Figures }>;
  /** every TPA or client with requests in the range, worst first */
  ranking: Array<ScorecardGroup & { figures: Figures }>;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const addMonths = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 7);
};

/** The months of a range, oldest first. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) out.push(m);
  return out;
}

/**
 * The range of months asked for, checked.
 * @throws ValidationError for a month not written `YYYY-MM`, `from` after `to`, or more than 60 months
 */
export function monthRange(input: Pick<ScorecardInput, 'from' | 'to'>, today = todayIso()): { from: string; to: string } {
  for (const [name, value] of [
    ['from', input.from],
    ['to', input.to],
  ] as const)
    if (value !== undefined && !MONTH.test(value)) throw new ValidationError(`${name} must be a month written YYYY-MM (got '${value}')`);
  const to = input.to ?? (input.from && input.from > today.slice(0, 7) ? input.from : today.slice(0, 7));
  const from = input.from ?? addMonths(to, 1 - DEFAULT_MONTHS);
  if (from > to) throw new ValidationError(`from (${from}) is after to (${to})`);
  if (monthsOf(from, to).length > MAX_MONTHS) throw new ValidationError(`A scorecard covers at most ${MAX_MONTHS} months (${from} to ${to} is more)`);
  return { from, to };
}

/** What a viewer may see: every client, or a Client user's own (`unlinked` when their user names none). */
export function viewerScope(viewer: Viewer | null): Scorecard['scope'] {
  if (viewer?.role !== 'Client') return { client: null, unlinked: false };
  return viewer.client ? { client: viewer.client, unlinked: false } : { client: null, unlinked: true };
}

/** The TPAs' codes and names by id. */
async function administratorsById(ctx: AppContext): Promise<Map<number, { code: string; name: string }>> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db.select({ id: t.administrators.id, code: t.administrators.code, name: t.administrators.name }).from(t.administrators);
  return new Map(rows.map((r) => [r.id, { code: r.code, name: r.name }]));
}

/** The scope of the facts to read, and the group asked for (resolved). */
export interface ResolvedScorecard {
  kind: ScorecardKind;
  from: string;
  to: string;
  group: ScorecardGroup | null;
  scope: Scorecard['scope'];
  /** the requests of the whole range the viewer may see (every group: the ranking) */
  factScope: FactScope;
  /** the requests of the whole range of the group asked for alone (all of `factScope` without one) */
  groupScope: FactScope;
  /** whether a request (or a bucket of requests) is of the group asked for */
  inGroup: (f: Grouped) => boolean;
  /** the group of a request (or a bucket) */
  groupOf: (f: Grouped) => ScorecardGroup;
}

/**
 * Resolves what a scorecard is about: the range, the TPA or client asked for, what the viewer may see.
 * @throws ValidationError for a bad range; NotFoundError for an unknown TPA or client; ForbiddenError
 *   when a Client user asks for another client
 */
export async function resolveScorecard(ctx: AppContext, input: ScorecardInput, viewer: Viewer | null, today = todayIso()): Promise<ResolvedScorecard> {
  const { from, to } = monthRange(input, today);
  const scope = viewerScope(viewer);
  const factScope: FactScope = { fromDate: `${from}-01`, toDateExclusive: `${addMonths(to, 1)}-01` };
  if (scope.client) factScope.clients = [scope.client];
  if (scope.unlinked) factScope.clients = [];
  const admins = await administratorsById(ctx);
  const key = input.key?.trim();
  if (input.kind === 'tpa') {
    const groupOf = (f: Grouped): ScorecardGroup => {
      const a = f.administratorId === null ? undefined : admins.get(f.administratorId);
      return a ? { key: a.code, name: a.name } : { key: '', name: NO_ADMINISTRATOR };
    };
    if (!key) return { kind: 'tpa', from, to, group: null, scope, factScope, groupScope: factScope, inGroup: () => true, groupOf };
    const wanted = key.toLowerCase();
    const match = [...admins].find(([, a]) => a.code.toLowerCase() === wanted) ?? [...admins].find(([, a]) => a.name.toLowerCase() === wanted);
    if (!match) throw new NotFoundError(`No TPA has the code or name '${key}'`);
    const [id, a] = match;
    const groupScope: FactScope = { ...factScope, administratorIds: [id] };
    return { kind: 'tpa', from, to, group: { key: a.code, name: a.name }, scope, factScope, groupScope, inGroup: (f) => f.administratorId === id, groupOf };
  }
  const groupOf = (f: Grouped): ScorecardGroup => ({ key: f.client, name: f.client });
  if (!key) return { kind: 'client', from, to, group: null, scope, factScope, groupScope: factScope, inGroup: () => true, groupOf };
  if (scope.client !== null && scope.client.toLowerCase() !== key.toLowerCase())
    throw new ForbiddenError('A Client user sees the scorecard of their own client only');
  if (scope.unlinked) throw new ForbiddenError('Your user is not linked to a client: ask an administrator to link it (fund-audit users client)');
  const { db, tables: t } = storeOf(ctx);
  // the clients of every request with a data due date (one tally row per TPA, client and month: a short read)
  const names = await db
    .selectDistinct({ client: t.scorecardTallies.client })
    .from(t.scorecardTallies)
    .where(eq(sql`lower(${t.scorecardTallies.client})`, key.toLowerCase()));
  if (!names.length) throw new NotFoundError(`No fund request with a data due date has the client '${key}'`);
  const exact = names.map((n) => n.client);
  const name = exact.find((c) => c === key) ?? exact[0]!;
  // a Client user's own client only (checked above), so the group's names are within what they may see
  const groupScope: FactScope = { ...factScope, clients: exact };
  return { kind: 'client', from, to, group: { key: name, name }, scope, factScope, groupScope, inGroup: (f) => exact.includes(f.client), groupOf };
}

/**
 * A scorecard: the figures of the TPA or client asked for (or of all), their monthly trend and the ranking.
 * @param today ISO date the figures are computed for (tests)
 * @throws see `resolveScorecard`
 */
export async function scorecard(ctx: AppContext, input: ScorecardInput, viewer: Viewer | null, today = todayIso()): Promise<Scorecard> {
  const r = await resolveScorecard(ctx, input, viewer, today);
  return assemble(r, await scorecardBuckets(ctx, r.factScope), today);
}

/** The scorecard of resolved buckets (the pure part of `scorecard`). */
export function assemble(r: ResolvedScorecard, buckets: readonly BucketTally[], today: string): Scorecard {
  const mine = buckets.filter(r.inGroup);
  const byMonth = new Map<string, BucketTally[]>();
  for (const b of mine) {
    const list = byMonth.get(b.month);
    if (list) list.push(b);
    else byMonth.set(b.month, [b]);
  }
  const byGroup = new Map<string, { group: ScorecardGroup; buckets: BucketTally[] }>();
  for (const b of buckets) {
    const g = r.groupOf(b);
    const entry = byGroup.get(g.key);
    if (entry) entry.buckets.push(b);
    else byGroup.set(g.key, { group: g, buckets: [b] });
  }
  const figures = (list: readonly BucketTally[]) => figuresOfBuckets(list, today);
  const ranking = Array.from(byGroup, ([, { group, buckets: list }]) => ({ ...group, figures: figures(list) })).sort(
    (a, b) => compareWorstFirst(a.figures, b.figures) || a.name.localeCompare(b.name),
  );
  return {
    kind: r.kind,
    from: r.from,
    to: r.to,
    asOf: today,
    group: r.group,
    scope: r.scope,
    figures: figures(mine),
    months: monthsOf(r.from, r.to).map((month) => ({ month, figures: figures(byMonth.get(month) ?? []) })),
    ranking,
  };
}
