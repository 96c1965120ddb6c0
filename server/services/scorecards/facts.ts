/**
 * The facts of each fund request a scorecard counts (docs/scorecards.md, "How the figures are
 * computed"), from its recorded events:
 * - per request, from `delivery_events`: when the last required input type first arrived, how
 *   many files re-delivered a type, and whether its first complete delivery passed its checks
 *   (the first run of its checks whose judged inputs cover every type the request requires now:
 *   a job type corrected or a file marked not required later counts as if it had been so then);
 * - per chase of those requests, from `chase_events`: whether it was mailed, its first mail, its
 *   answer and its latest state.
 * Which input types a request requires is the listing's rule: `requiredInputTypes` of its job
 * type (given to the statement as a table of values), less the types whose newest file is marked
 * not required. Left out of scorecards: deleted and declined requests, requests without a data due
 * date, and parent funds (with child funds: their data is delivered as the children's).
 *
 * `eventFacts` reads them off the events, aggregated in the database; `requestFacts` reads the
 * requests with their cached facts (`scorecard_facts`), computing the stale ones from the events
 * (triggers mark a request stale in the transaction that changes what its facts are made of).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { sql, type SQL } from 'drizzle-orm';
import { isOpenChase } from '../../../rules/chasing.js';
import type { AppContext } from '../../context.js';
import { storeOf, type DataStore } from '../../db/dialect.js';
import { requiredInputTypes } from '../funds/derive.js';
import { heavyWork } from '../../lib/guard.js';
import type { RequestFacts } from './figures.js';

/** One bucket of the cached tallies: a TPA (null: requests without one), a client, a month of data due dates (`YYYY-MM`). */
export interface BucketKey {
  administratorId: number | null;
  client: string;
  month: string;
}

/** The first day of the month after `month` (`YYYY-MM`), ISO date. */
export function nextMonthStart(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/** Which fund requests a scorecard counts. */
export interface FactScope {
  /** first data due date counted, ISO date (with `toDateExclusive`) */
  fromDate?: string;
  /** first data due date not counted, ISO date */
  toDateExclusive?: string;
  /** only these TPAs (administrator ids) */
  administratorIds?: number[];
  /** only these clients (exact names as stored) */
  clients?: string[];
  /** only these fund requests */
  fundRequestIds?: number[];
  /** only the requests of these buckets */
  buckets?: BucketKey[];
  /** every request named, whatever its status, data due date or child funds (the cache keeps them all); default: only those a scorecard counts */
  everyRequest?: boolean;
}

/** A raw statement's rows on either database (node-postgres answers `{rows}`, better-sqlite3 an array). */
export async function rawRows<T>(store: DataStore, query: SQL): Promise<T[]> {
  if (store.dialect === 'postgres') return (await (store.db as unknown as { execute(q: SQL): Promise<{ rows: T[] }> }).execute(query)).rows;
  return (await store.db.all(query)) as T[];
}

/** A boolean column is true (SQLite keeps 0/1). */
const isTrue = (store: DataStore, column: string) => sql.raw(store.dialect === 'postgres' ? `${column}` : `${column} = 1`);

/** The SDM types of a `checked` event's judged inputs (its `inputs` JSON array), as a subquery. */
const judgedTypes = (store: DataStore, column: string) =>
  sql.raw(
    store.dialect === 'postgres'
      ? `select j ->> 'fileType' from jsonb_array_elements(coalesce(${column}, '[]'::jsonb)) j`
      : `select json_extract(j.value, '$.fileType') from json_each(coalesce(${column}, '[]')) j`,
  );

/** The `where` of the requests in scope (alias `f` for fund_requests). */
function scopeWhere(scope: FactScope): SQL {
  const parts: SQL[] = scope.everyRequest
    ? [sql`1 = 1`]
    : [sql`f.status not in ('Deleted', 'Declined')`, sql`f.due_date is not null`, sql`not exists (select 1 from fund_requests c where c.parent_id = f.id)`];
  if (scope.fromDate) parts.push(sql`f.due_date >= ${scope.fromDate}`);
  if (scope.toDateExclusive) parts.push(sql`f.due_date < ${scope.toDateExclusive}`);
  const list = (values: readonly (number | string)[]) =>
    sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    );
  if (scope.administratorIds) parts.push(scope.administratorIds.length ? sql`f.administrator_id in (${list(scope.administratorIds)})` : sql`1 = 0`);
  if (scope.clients) parts.push(scope.clients.length ? sql`f.client in (${list(scope.clients)})` : sql`1 = 0`);
  if (scope.fundRequestIds) parts.push(scope.fundRequestIds.length ? sql`f.id in (${list(scope.fundRequestIds)})` : sql`1 = 0`);
  if (scope.buckets) {
    const one = (b: BucketKey) =>
      sql`(f.due_date >= ${`${b.month}-01`} and f.due_date < ${nextMonthStart(b.month)} and f.client = ${b.client} and ${
        b.administratorId === null ? sql`f.administrator_id is null` : sql`f.administrator_id = ${b.administratorId}`
      })`;
    parts.push(scope.buckets.length ? sql`(${sql.join(scope.buckets.map(one), sql` or `)})` : sql`1 = 0`);
  }
  return sql.join(parts, sql` and `);
}

/** The required input types of the job types in scope, as the rows of a `req(jt, ft)` table of values. */
async function requiredTypesTable(store: DataStore, where: SQL): Promise<SQL | null> {
  const jobTypes = await rawRows<{ jt: string }>(store, sql`select distinct upper(coalesce(f.job_type, '')) as jt from fund_requests f where ${where}`);
  if (!jobTypes.length) return null;
  const rows = jobTypes.flatMap(({ jt }) => requiredInputTypes(jt).map((ft) => sql`(${jt}, ${ft})`));
  return sql`req(jt, ft) as (values ${sql.join(rows, sql`, `)})`;
}

interface RequestRow {
  id: number;
  administrator_id: number | null;
  client: string;
  due_date: string;
  missing: number | string | null;
  completed_at: string | null;
  redeliveries: number | string | null;
  ftr: number | string | null;
}

interface ChaseRow {
  chase_id: number;
  fid: number;
  first_sent: string | null;
  answered_at: string | null;
  state: string;
}

const DAY_MS = 86_400_000;

/**
 * The facts of every fund request in scope read off its events (see the module header), in id order.
 * @returns one entry per request; empty when none is in scope
 */
export async function eventFacts(ctx: AppContext, scope: FactScope): Promise<RequestFacts[]> {
  const store = storeOf(ctx);
  const where = scopeWhere(scope);
  const req = await requiredTypesTable(store, where);
  if (!req) return [];
  const scopeCte = sql`scope as (select f.id, f.administrator_id, f.client, f.due_date, upper(coalesce(f.job_type, '')) as jt from fund_requests f where ${where})`;
  const requests = await rawRows<RequestRow>(
    store,
    sql`with ${scopeCte}, ${req},
firsts as (
  select e.fund_request_id as fid, e.file_type as ft, min(e.at) as first_at, max(e.fund_file_id) as newest, count(*) as n
  from delivery_events e
  where e.fund_request_id in (select id from scope) and e.kind = 'received'
  group by e.fund_request_id, e.file_type
),
needed as (
  select s.id as fid, r.ft, fi.first_at
  from scope s
  join req r on r.jt = s.jt
  left join firsts fi on fi.fid = s.id and fi.ft = r.ft
  left join fund_files nr on nr.id = fi.newest and ${isTrue(store, 'nr.disabled')}
  where nr.id is null
),
timeliness as (
  select fid, sum(case when first_at is null then 1 else 0 end) as missing, max(first_at) as completed_at
  from needed
  group by fid
),
redelivered as (select fid, sum(n) - count(*) as redeliveries from firsts group by fid),
complete_checks as (
  select c.fund_request_id as fid, c.outcome, c.first_delivery,
    row_number() over (partition by c.fund_request_id order by c.at, c.id) as rn
  from delivery_events c
  where c.fund_request_id in (select id from scope) and c.kind = 'checked'
    and not exists (
      select 1 from needed n
      where n.fid = c.fund_request_id and n.ft not in (${judgedTypes(store, 'c.inputs')})
    )
)
select s.id, s.administrator_id, s.client, s.due_date, t.missing, t.completed_at, rd.redeliveries,
  case when cc.fid is null then null when ${isTrue(store, 'cc.first_delivery')} and cc.outcome = 'passed' then 1 else 0 end as ftr
from scope s
left join timeliness t on t.fid = s.id
left join redelivered rd on rd.fid = s.id
left join complete_checks cc on cc.fid = s.id and cc.rn = 1
order by s.id`,
  );
  const chases = await rawRows<ChaseRow>(
    store,
    sql`with ${scopeCte},
ch as (
  select ce.chase_id, min(ce.fund_request_id) as fid, min(case when ce.state = 'sent' then ce.at end) as first_sent
  from chase_events ce
  where ce.fund_request_id in (select id from scope)
  group by ce.chase_id
)
select ch.chase_id, ch.fid, ch.first_sent,
  (select min(a.at) from chase_events a where a.chase_id = ch.chase_id and a.state in ('answered', 'resolved') and a.at >= ch.first_sent) as answered_at,
  (select l.state from chase_events l where l.chase_id = ch.chase_id order by l.at desc, l.id desc limit 1) as state
from ch`,
  );
  const byId = new Map<number, RequestFacts>();
  const facts = requests.map((r) => {
    const f: RequestFacts = {
      id: Number(r.id),
      administratorId: r.administrator_id === null ? null : Number(r.administrator_id),
      client: r.client,
      dueDate: r.due_date,
      completedAt: Number(r.missing ?? 0) === 0 ? r.completed_at : null,
      reDeliveries: Number(r.redeliveries ?? 0),
      firstTimeRight: r.ftr === null ? null : Number(r.ftr) === 1,
      chasesSent: 0,
      chasesOpen: 0,
      daysToAnswer: [],
    };
    byId.set(f.id, f);
    return f;
  });
  for (const c of chases) {
    const f = byId.get(Number(c.fid));
    if (!f) continue;
    if (c.first_sent) f.chasesSent++;
    if (isOpenChase(c.state)) f.chasesOpen++;
    if (c.first_sent && c.answered_at) f.daysToAnswer.push((Date.parse(c.answered_at) - Date.parse(c.first_sent)) / DAY_MS);
  }
  return facts;
}

interface CachedRow {
  id: number;
  administrator_id: number | null;
  client: string;
  due_date: string;
  stale: boolean | number | null;
  completed_at: string | null;
  re_deliveries: number | string | null;
  first_time_right: boolean | number | null;
  chases_sent: number | string | null;
  chases_open: number | string | null;
  days_to_answer: string | number[] | null;
}

/** Stale requests beyond which a scorecard reads its whole scope from the events rather than request by request. */
const LIVE_SCOPE_ABOVE = 5000;
/** Requests read from the events in one statement. */
const LIVE_CHUNK = 1000;

/**
 * The facts of every fund request in scope (see the module header), in id order: the cached facts
 * of each, those of a request without a row (no event recorded: nothing received, checked or
 * chased), and those of stale rows read off the events.
 */
export async function requestFacts(ctx: AppContext, scope: FactScope): Promise<RequestFacts[]> {
  heavyWork('scorecard facts');
  const store = storeOf(ctx);
  const rows = await rawRows<CachedRow>(
    store,
    sql`select f.id, f.administrator_id, f.client, f.due_date, p.stale, p.completed_at, p.re_deliveries, p.first_time_right, p.chases_sent, p.chases_open, p.days_to_answer
from fund_requests f left join scorecard_facts p on p.fund_request_id = f.id
where ${scopeWhere(scope)}
order by f.id`,
  );
  const stale = rows.filter((r) => r.stale === true || r.stale === 1).map((r) => Number(r.id));
  if (stale.length > LIVE_SCOPE_ABOVE) return eventFacts(ctx, scope);
  const live = new Map<number, RequestFacts>();
  for (let i = 0; i < stale.length; i += LIVE_CHUNK)
    for (const f of await eventFacts(ctx, { fundRequestIds: stale.slice(i, i + LIVE_CHUNK) })) live.set(f.id, f);
  return rows.map((r) => {
    const id = Number(r.id);
    const fromEvents = live.get(id);
    if (fromEvents) return fromEvents;
    const days = r.days_to_answer;
    return {
      id,
      administratorId: r.administrator_id === null ? null : Number(r.administrator_id),
      client: r.client,
      dueDate: r.due_date,
      completedAt: r.completed_at,
      reDeliveries: Number(r.re_deliveries ?? 0),
      firstTimeRight: r.first_time_right === null ? null : r.first_time_right === true || r.first_time_right === 1,
      chasesSent: Number(r.chases_sent ?? 0),
      chasesOpen: Number(r.chases_open ?? 0),
      daysToAnswer: days === null ? [] : typeof days === 'string' ? (JSON.parse(days) as number[]) : days,
    };
  });
}
