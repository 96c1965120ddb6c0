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
import { todayIso } from '../funds/derive.js';
import { requestFacts, type FactScope } from './facts.js';
import { compareWorstFirst, figuresOf, type Figures, type RequestFacts } from './figures.js';

/** Whose figures: per TPA (administrator) or per client. */
export const SCORECARD_KINDS = ['tpa', 'client'] as const;
export type ScorecardKind = (typeof SCORECARD_KINDS)[number];

/** Longest range of months a scorecard covers. */
export const MAX_MONTHS = 60;

/** Months a scorecard covers when none are given: the last 12, this one included. */
export const DEFAULT_MONTHS = 12;

/** Label of the requests without an administrator in TPA scorecards. */
export const NO_ADMINISTRATOR = 'No administrator';

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
  /** the requests of the group asked for, among those */
  inGroup: (f: RequestFacts) => boolean;
  /** the group of a request */
  groupOf: (f: RequestFacts) => ScorecardGroup;
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
    const groupOf = (f: RequestFacts): ScorecardGroup => {
      const a = f.administratorId === null ? undefined : admins.get(f.administratorId);
      return a ? { key: a.code, name: a.name } : { key: '', name: NO_ADMINISTRATOR };
    };
    if (!key) return { kind: 'tpa', from, to, group: null, scope, factScope, inGroup: () => true, groupOf };
    const wanted = key.toLowerCase();
    const match = [...admins].find(([, a]) => a.code.toLowerCase() === wanted) ?? [...admins].find(([, a]) => a.name.toLowerCase() === wanted);
    if (!match) throw new NotFoundError(`No TPA has the code or name '${key}'`);
    const [id, a] = match;
    return { kind: 'tpa', from, to, group: { key: a.code, name: a.name }, scope, factScope, inGroup: (f) => f.administratorId === id, groupOf };
  }
  const groupOf = (f: RequestFacts): ScorecardGroup => ({ key: f.client, name: f.client });
  if (!key) return { kind: 'client', from, to, group: null, scope, factScope, inGroup: () => true, groupOf };
  if (scope.client !== null && scope.client.toLowerCase() !== key.toLowerCase())
    throw new ForbiddenError('A Client user sees the scorecard of their own client only');
  if (scope.unlinked) throw new ForbiddenError('Your user is not linked to a client: ask an administrator to link it (fund-audit users client)');
  const { db, tables: t } = storeOf(ctx);
  const names = await db
    .selectDistinct({ client: t.fundRequests.client })
    .from(t.fundRequests)
    .where(eq(sql`lower(${t.fundRequests.client})`, key.toLowerCase()));
  if (!names.length) throw new NotFoundError(`No fund request has the client '${key}'`);
  const exact = names.map((n) => n.client);
  const name = exact.find((c) => c === key) ?? exact[0]!;
  return { kind: 'client', from, to, group: { key: name, name }, scope, factScope, inGroup: (f) => exact.includes(f.client), groupOf };
}

/**
 * A scorecard: the figures of the TPA or client asked for (or of all), their monthly trend and the ranking.
 * @param today ISO date the figures are computed for (tests)
 * @throws see `resolveScorecard`
 */
export async function scorecard(ctx: AppContext, input: ScorecardInput, viewer: Viewer | null, today = todayIso()): Promise<Scorecard> {
  const r = await resolveScorecard(ctx, input, viewer, today);
  const all = await requestFacts(ctx, r.factScope);
  return assemble(r, all, today);
}

/** The scorecard of resolved facts (the pure part of `scorecard`). */
export function assemble(r: ResolvedScorecard, all: RequestFacts[], today: string): Scorecard {
  const mine = all.filter(r.inGroup);
  const byMonth = new Map<string, RequestFacts[]>();
  for (const f of mine) {
    const m = f.dueDate.slice(0, 7);
    const list = byMonth.get(m);
    if (list) list.push(f);
    else byMonth.set(m, [f]);
  }
  const byGroup = new Map<string, { group: ScorecardGroup; facts: RequestFacts[] }>();
  for (const f of all) {
    const g = r.groupOf(f);
    const entry = byGroup.get(g.key);
    if (entry) entry.facts.push(f);
    else byGroup.set(g.key, { group: g, facts: [f] });
  }
  const ranking = Array.from(byGroup, ([, { group, facts }]) => ({ ...group, figures: figuresOf(facts, today) })).sort(
    (a, b) => compareWorstFirst(a.figures, b.figures) || a.name.localeCompare(b.name),
  );
  return {
    kind: r.kind,
    from: r.from,
    to: r.to,
    asOf: today,
    group: r.group,
    scope: r.scope,
    figures: figuresOf(mine, today),
    months: monthsOf(r.from, r.to).map((month) => ({ month, figures: figuresOf(byMonth.get(month) ?? [], today) })),
    ranking,
  };
}
