/**
 * The tallies a scorecard adds up (docs/decisions/0020-delivery-events-and-scorecards.md): one per
 * bucket (TPA, client, month of data due dates) of the requests a scorecard counts, read from the
 * cache `scorecard_tallies` where it is up to date and computed from the requests' facts where a
 * trigger marked it stale; the refresher writes the stale ones back (refresh.ts). So a scorecard
 * over 100,000 fund requests reads a few thousand rows, and is never older than its events.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { heavyWork } from '../../lib/guard.js';
import { lockRowsForRefresh, rowKey } from './refresh-locks.js';
import { type BucketKey, type FactScope, nextMonthStart, rawRows, requestFacts } from './facts.js';
import type { Figures } from '../../../rules/scorecards.js';
import { emptyTally, FiguresAccumulator, type RequestFacts, type Tally, tallyOf } from './figures.js';

/** A bucket with its tally. */
export interface BucketTally extends BucketKey {
  tally: Tally;
}

/** Stale buckets beyond which a scorecard reads its whole scope from the requests' facts rather than bucket by bucket. */
const LIVE_BUCKETS_ABOVE = 300;
/** Buckets computed from the requests' facts in one statement. */
const BUCKET_CHUNK = 40;

const keyOf = (b: BucketKey) => `${b.administratorId ?? 0}\u0000${b.client}\u0000${b.month}`;

/** The tallies of some requests' facts, one per bucket, in no particular order. */
export function bucketsOf(facts: readonly RequestFacts[]): BucketTally[] {
  const groups = new Map<string, { key: BucketKey; facts: RequestFacts[] }>();
  for (const f of facts) {
    const key: BucketKey = { administratorId: f.administratorId, client: f.client, month: f.dueDate.slice(0, 7) };
    const k = keyOf(key);
    const g = groups.get(k);
    if (g) g.facts.push(f);
    else groups.set(k, { key, facts: [f] });
  }
  return Array.from(groups, ([, { key, facts: list }]) => ({ ...key, tally: tallyOf(list) }));
}

/** The figures of some buckets as of `today` (ISO date). */
export function figuresOfBuckets(buckets: readonly BucketTally[], today: string): Figures {
  const acc = new FiguresAccumulator(today);
  for (const b of buckets) acc.add(b.month, b.tally);
  return acc.figures();
}

interface TallyRow {
  administrator_key: number | string;
  client: string;
  month: string;
  stale: boolean | number;
  requests: number | string;
  completed_late: string | number[] | null;
  open_due: string | number[] | null;
  checked: number | string;
  first_time_right: number | string;
  re_deliveries: number | string;
  chases_sent: number | string;
  chases_open: number | string;
  days_to_answer: string | number[] | null;
}

const parsed = <T>(v: string | T | null, empty: T): T => (v === null ? empty : typeof v === 'string' ? (JSON.parse(v) as T) : v);

function tallyOfRow(r: TallyRow): Tally {
  return {
    requests: Number(r.requests),
    completedLate: parsed(r.completed_late, []),
    openDue: parsed(r.open_due, []),
    checked: Number(r.checked),
    firstTimeRight: Number(r.first_time_right),
    reDeliveries: Number(r.re_deliveries),
    chasesSent: Number(r.chases_sent),
    chasesOpen: Number(r.chases_open),
    daysToAnswer: parsed(r.days_to_answer, []),
  };
}

/** The tallies of some buckets computed from their requests' facts (a bucket without requests left out). */
async function liveBuckets(ctx: AppContext, keys: readonly BucketKey[]): Promise<BucketTally[]> {
  const out: BucketTally[] = [];
  for (let i = 0; i < keys.length; i += BUCKET_CHUNK) out.push(...bucketsOf(await requestFacts(ctx, { buckets: keys.slice(i, i + BUCKET_CHUNK) })));
  return out;
}

/**
 * The tally of every bucket of a scorecard's scope (its months, and a Client user's client), in
 * no particular order; buckets without requests are left out.
 * @param scope `fromDate` and `toDateExclusive` first days of months; `clients` optional
 */
export async function scorecardBuckets(ctx: AppContext, scope: FactScope): Promise<BucketTally[]> {
  heavyWork('scorecard tallies');
  if (!scope.fromDate || !scope.toDateExclusive) throw new Error('scorecardBuckets needs a range of months');
  const store = storeOf(ctx);
  const where: SQL[] = [sql`month >= ${scope.fromDate.slice(0, 7)}`, sql`month < ${scope.toDateExclusive.slice(0, 7)}`];
  if (scope.clients)
    where.push(
      scope.clients.length
        ? sql`client in (${sql.join(
            scope.clients.map((c) => sql`${c}`),
            sql`, `,
          )})`
        : sql`1 = 0`,
    );
  const rows = await rawRows<TallyRow>(store, sql`select * from scorecard_tallies where ${sql.join(where, sql` and `)}`);
  const fresh: BucketTally[] = [];
  const stale: BucketKey[] = [];
  for (const r of rows) {
    const key: BucketKey = { administratorId: Number(r.administrator_key) || null, client: r.client, month: r.month };
    if (r.stale === true || r.stale === 1) stale.push(key);
    else if (Number(r.requests) > 0) fresh.push({ ...key, tally: tallyOfRow(r) });
  }
  if (stale.length > LIVE_BUCKETS_ABOVE) return bucketsOf(await requestFacts(ctx, scope));
  return [...fresh, ...(await liveBuckets(ctx, stale))];
}

/** Buckets refreshed in one batch. */
export const TALLY_BATCH = 120;

/**
 * Rewrites the tallies of up to `limit` stale buckets from their requests' facts, computed outside
 * any transaction; each is written back only if no trigger marked it again meanwhile (`mark`
 * unchanged), in one short transaction (see `refreshScorecardFacts`).
 * @returns how many stale buckets were taken (fewer than `limit`: none is left)
 */
export async function refreshScorecardTallies(ctx: AppContext, limit = TALLY_BATCH): Promise<number> {
  const { db, tables } = storeOf(ctx);
  const t = tables.scorecardTallies;
  const taken = await db
    .select({ administratorKey: t.administratorKey, client: t.client, month: t.month, mark: t.mark })
    .from(t)
    .where(eq(t.stale, true))
    .orderBy(t.month, t.administratorKey, t.client)
    .limit(limit);
  if (!taken.length) return 0;
  const keys: BucketKey[] = taken.map((r) => ({ administratorId: r.administratorKey || null, client: r.client, month: r.month }));
  const live = new Map((await liveBuckets(ctx, keys)).map((b) => [keyOf(b), b.tally]));
  const now = new Date().toISOString();
  await transaction(ctx, async (tx) => {
    const locked = await lockRowsForRefresh(
      ctx,
      'scorecard_tallies',
      ['administrator_key', 'client', 'month'],
      taken.map((r) => [r.administratorKey, r.client, r.month]),
    );
    for (const r of taken) {
      if (locked && !locked.has(rowKey([r.administratorKey, r.client, r.month]))) continue;
      const tally = live.get(keyOf({ administratorId: r.administratorKey || null, client: r.client, month: r.month })) ?? emptyTally();
      await tx
        .update(t)
        .set({
          stale: false,
          requests: tally.requests,
          completedLate: tally.completedLate,
          openDue: tally.openDue,
          checked: tally.checked,
          firstTimeRight: tally.firstTimeRight,
          reDeliveries: tally.reDeliveries,
          chasesSent: tally.chasesSent,
          chasesOpen: tally.chasesOpen,
          daysToAnswer: tally.daysToAnswer,
          refreshedAt: now,
        })
        .where(and(eq(t.administratorKey, r.administratorKey), eq(t.client, r.client), eq(t.month, r.month), eq(t.mark, r.mark)));
    }
  });
  return taken.length;
}

/** How many buckets' tallies are stale (of some months, `YYYY-MM`, when given). */
export async function staleScorecardTallies(ctx: AppContext, months?: { from: string; to: string }): Promise<number> {
  const { db, tables } = storeOf(ctx);
  const t = tables.scorecardTallies;
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(t)
    .where(and(eq(t.stale, true), months ? and(gte(t.month, months.from), lt(t.month, nextMonthStart(months.to).slice(0, 7))) : undefined));
  return Number(row?.n ?? 0);
}

/** Marks every bucket of some months stale (tests and the benchmark: the path a scorecard takes before the refresher caught up). */
export async function markScorecardTalliesStale(ctx: AppContext, months?: string[]): Promise<void> {
  const { db, tables } = storeOf(ctx);
  const t = tables.scorecardTallies;
  await db
    .update(t)
    .set({ stale: true })
    .where(months ? inArray(t.month, months) : undefined);
}
