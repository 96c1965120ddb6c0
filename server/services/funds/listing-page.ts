/**
 * Which funds a listing page holds, and how many funds match (delivery spec section 2 "pagination
 * control", section 3 "Pagination"; auditor spec 2.3): the page's ids in the sort order, read by
 * offset or, for the next and previous pages, from a keyset cursor (listing-keyset.ts); and the
 * number of matching funds counted up to `COUNT_CAP`, past which the answer says only that there
 * are more (the grids show "10,000+"; `countFundsExact` gives the exact number when asked for).
 * Counting every match of a broad filter over a million funds costs more than the page itself;
 * counting up to the cap costs at most the cap's rows.
 *
 * A search's first pages are read with their count in one statement: up to `COUNT_CAP + 1`
 * matching rows, counted and sorted (a search matches few rows, and its index gives them at once);
 * when there are more, the page is read again in the sort's order, which a broad search fills
 * from the first rows of the sort's index.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { rawRows, storeOf, type Dialect } from '../../db/dialect.js';
import { afterSegments, encodeCursor, reversedKeys, type Cursor, type KeyValue, type SortKey } from './listing-keyset.js';

/** Most funds a listing counts: past it, a page's count is `COUNT_CAP` with `countCapped` true. */
export const COUNT_CAP = 10_000;

/** A count of matching funds up to `COUNT_CAP`: `capped` when there are more than `count`. */
export interface CappedCount {
  count: number;
  capped: boolean;
}

/** The paging fields of a listing answer (`pagination`). */
export interface Pagination {
  offset: number;
  limit: number;
  /** matching funds, or `COUNT_CAP` when there are more (`countCapped`) */
  count: number;
  /** whether there are more matching funds than `count` */
  countCapped: boolean;
  /** cursor of the page after this one, null on the last page */
  next: string | null;
  /** cursor of the page before this one, null on the first page */
  previous: string | null;
}

/** The ids of a page and what its paging fields are made of. */
export interface PageIds {
  ids: number[];
  /** the page's offset: the one asked for, or 0 for a previous page found to be the first */
  offset: number;
  hasNext: boolean;
  hasPrevious: boolean;
  /** sort values of the page's first and last rows (their cursors' boundaries) */
  first?: KeyValue[];
  last?: KeyValue[];
  /** the count, when the page's statement gave it */
  total?: CappedCount;
}

/** ORDER BY terms of sort keys: empty values first ascending and last descending, on both databases. */
export function orderByKeys(keys: readonly SortKey[], dialect: Dialect): SQL[] {
  return keys.map((k) => {
    // a column that is never empty keeps PostgreSQL's plain order, which its indexes are built in
    if (dialect === 'postgres' && !k.notNull) return k.order === 'desc' ? sql`${k.expr} desc nulls last` : sql`${k.expr} asc nulls first`;
    return k.order === 'desc' ? sql`${k.expr} desc` : sql`${k.expr} asc`;
  });
}

const alias = (i: number) => sql.identifier(`k${i}`);
const keyList = (keys: readonly SortKey[]) =>
  sql.join(
    keys.map((k, i) => sql`${k.expr} as ${alias(i)}`),
    sql`, `,
  );
const whereOf = (where: SQL | undefined) => (where ? sql` where ${where}` : sql``);
const valuesOf = (row: Record<string, unknown>, n: number) => Array.from({ length: n }, (_, i) => row[`k${i}`] as KeyValue);

/** The sort values (the id last) of the funds passing `where`, in the keys' order, from `offset`. */
async function readKeys(ctx: AppContext, where: SQL | undefined, keys: readonly SortKey[], limit: number, offset: number): Promise<KeyValue[][]> {
  const { dialect, tables: t } = storeOf(ctx);
  const rows = await rawRows(
    storeOf(ctx),
    sql`select ${keyList(keys)} from ${t.fundRequests}${whereOf(where)} order by ${sql.join(orderByKeys(keys, dialect), sql`, `)} limit ${limit} offset ${offset}`,
  );
  return rows.map((r) => valuesOf(r, keys.length));
}

/** Up to `limit` rows after the boundary `values` in the keys' order (the keyset segments read one after the other). */
async function readAfter(ctx: AppContext, where: SQL | undefined, keys: readonly SortKey[], values: KeyValue[], limit: number): Promise<KeyValue[][]> {
  const out: KeyValue[][] = [];
  for (const segment of afterSegments(keys, values)) {
    out.push(...(await readKeys(ctx, and(where, segment), keys, limit - out.length, 0)));
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Up to `limit` rows from `offset` in the keys' order with the number of matching funds: one
 * statement reads up to `COUNT_CAP + 1` matches in any order, counts them and sorts them.
 * @returns the rows and their count (`total` undefined when no row was read: none matched, or the
 *   offset is past the end), or `'capped'` when more than `COUNT_CAP` match (the page must then
 *   be read in the sort's order)
 */
async function readCounted(
  ctx: AppContext,
  where: SQL | undefined,
  keys: readonly SortKey[],
  limit: number,
  offset: number,
): Promise<{ rows: KeyValue[][]; total?: number } | 'capped'> {
  const { dialect, tables: t } = storeOf(ctx);
  const aliased = keys.map((k, i) => ({ ...k, expr: sql`m.${alias(i)}` }));
  const rows = await rawRows(
    storeOf(ctx),
    sql`select m.*, count(*) over () as total from (select ${keyList(keys)} from ${t.fundRequests}${whereOf(where)} limit ${COUNT_CAP + 1}) m
        order by ${sql.join(orderByKeys(aliased, dialect), sql`, `)} limit ${limit} offset ${offset}`,
  );
  const total = rows.length ? Number(rows[0]!.total) : undefined;
  if (total !== undefined && total > COUNT_CAP) return 'capped';
  return { rows: rows.map((r) => valuesOf(r, keys.length)), total };
}

/**
 * The ids of a listing page.
 * @param q the query's condition and sort keys (the id last)
 * @param page `offset` and `limit`; `cursor` to read the page after or before a row; `counted` to
 *   read a first page with its count in one statement (searches, which match few rows)
 */
export async function pageIds(
  ctx: AppContext,
  q: { where: SQL | undefined; keys: SortKey[] },
  page: { offset: number; limit: number; cursor?: Cursor; counted?: boolean },
): Promise<PageIds> {
  const { where, keys } = q;
  const { limit } = page;
  const shaped = (rows: KeyValue[][], offset: number, hasNext: boolean, hasPrevious: boolean, total?: CappedCount): PageIds => ({
    ids: rows.map((r) => Number(r[r.length - 1])),
    offset,
    hasNext,
    hasPrevious,
    first: rows[0],
    last: rows[rows.length - 1],
    total,
  });
  const byOffset = async (offset: number) => {
    const counted = page.counted ? await readCounted(ctx, where, keys, limit + 1, offset) : undefined;
    if (counted && counted !== 'capped') {
      const total = counted.total === undefined ? undefined : { count: counted.total, capped: false };
      return shaped(counted.rows.slice(0, limit), offset, counted.rows.length > limit, offset > 0, total);
    }
    const rows = await readKeys(ctx, where, keys, limit + 1, offset);
    // a counted read that found more than the cap told the count: capped
    return shaped(rows.slice(0, limit), offset, rows.length > limit, offset > 0, counted === 'capped' ? { count: COUNT_CAP, capped: true } : undefined);
  };
  const { cursor } = page;
  if (!cursor) return byOffset(page.offset);
  if (cursor.direction === 'next') {
    const rows = await readAfter(ctx, where, keys, cursor.values, limit + 1);
    return shaped(rows.slice(0, limit), page.offset, rows.length > limit, true);
  }
  const before = await readAfter(ctx, where, reversedKeys(keys), cursor.values, limit + 1);
  if (before.length > limit) return shaped(before.slice(0, limit).reverse(), page.offset, true, true);
  // no page before this one: it is the first page (read again from the start when the rows
  // before the boundary no longer fill it)
  if (before.length === limit) return shaped(before.reverse(), 0, true, false);
  return byOffset(0);
}

/** The number of funds passing `where`, counted up to `COUNT_CAP`. */
export async function countFundsCapped(ctx: AppContext, where: SQL | undefined): Promise<CappedCount> {
  const { tables: t } = storeOf(ctx);
  const [row] = await rawRows<{ n: number | string }>(
    storeOf(ctx),
    sql`select count(*) as n from (select 1 from ${t.fundRequests}${whereOf(where)} limit ${COUNT_CAP + 1}) c`,
  );
  const n = Number(row?.n ?? 0);
  return n > COUNT_CAP ? { count: COUNT_CAP, capped: true } : { count: n, capped: false };
}

/**
 * The paging fields of a page: its count (from the page, from what the page shows about the end,
 * or `count()` when neither tells) and its cursors.
 * @param count the capped count of the query, read only when the page does not tell it
 */
export async function paginationOf(page: PageIds, limit: number, fingerprint: string, count: () => Promise<CappedCount>, keyset: boolean): Promise<Pagination> {
  // an offset page that is the last one tells the count: everything before it and its rows
  const total =
    page.total ??
    (!keyset && !page.hasNext && (page.ids.length > 0 || page.offset === 0) ? { count: page.offset + page.ids.length, capped: false } : await count());
  return {
    offset: page.offset,
    limit,
    count: total.count,
    countCapped: total.capped,
    next: page.hasNext && page.last ? encodeCursor('next', page.last, fingerprint) : null,
    previous: page.hasPrevious && page.first ? encodeCursor('previous', page.first, fingerprint) : null,
  };
}
