/**
 * Keyset paging of the fund listings (delivery spec section 2 "pagination control", auditor spec
 * 2.3): the next or previous page is asked for with a cursor naming the sort values of the row it
 * starts after (or before), so the database starts reading at that row through the sort's index
 * instead of reading and dropping every row of the pages before it, as an offset does. A jump to
 * any page is still asked for by its offset.
 *
 * A cursor is opaque to clients: base64url of `{d, v, q}`, the direction (`n` next, `p` previous),
 * the boundary row's sort values (the last one its id) and a fingerprint of the query (filters,
 * search, sort) it was made for, so a cursor of another query is refused instead of answering a
 * page of the wrong rows.
 *
 * Sort order on both databases: empty values first ascending and last descending
 * (query-filters.ts `orderTerms`), so an empty value counts as the smallest, and ties are broken by
 * the fund's id in the direction of the first sort.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { createHash } from 'node:crypto';
import { and, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ValidationError } from '../../errors.js';

/** One term of a listing's sort: its SQL, direction, and whether its value is never empty (a NOT NULL column). */
export interface SortKey {
  expr: SQLWrapper;
  order: 'asc' | 'desc';
  notNull: boolean;
}

/** A sort value as a cursor holds it (the database's own value: text, number, 0/1 or boolean, or null). */
export type KeyValue = string | number | boolean | null;

/** A decoded cursor: which page it asks for and the sort values of the row that page starts after (next) or before (previous). */
export interface Cursor {
  direction: 'next' | 'previous';
  values: KeyValue[];
}

/** A short fingerprint of what a page's rows depend on besides the data (normalised filters, search, sort, saved filter). */
export function queryFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 12);
}

/** The cursor of the page after (`next`) or before (`previous`) a row with sort values `values`. */
export function encodeCursor(direction: Cursor['direction'], values: KeyValue[], fingerprint: string): string {
  return Buffer.from(JSON.stringify({ d: direction === 'next' ? 'n' : 'p', v: values, q: fingerprint })).toString('base64url');
}

const isKeyValue = (v: unknown): v is KeyValue =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * Reads a cursor given by a client for a query with `keys` (the id last) and `fingerprint`.
 * @throws ValidationError when the cursor is not one this listing made, or was made for another filter, search or sort
 */
export function decodeCursor(text: string, keys: readonly SortKey[], fingerprint: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const c = parsed as { d?: unknown; v?: unknown; q?: unknown } | null;
  if (
    !c ||
    (c.d !== 'n' && c.d !== 'p') ||
    !Array.isArray(c.v) ||
    c.v.length !== keys.length ||
    !c.v.every(isKeyValue) ||
    !Number.isInteger(c.v[c.v.length - 1])
  )
    throw new ValidationError('The page cursor is not valid', ['cursor: not a page cursor of this listing; ask for the page by its offset']);
  if (c.q !== fingerprint)
    throw new ValidationError('The page cursor belongs to another filter, search or sort', [
      'cursor: made for another filter, search or sort; ask for the page by its offset',
    ]);
  return { direction: c.d === 'n' ? 'next' : 'previous', values: c.v };
}

/** The keys in the opposite order (a previous page is read backwards from its boundary). */
export function reversedKeys(keys: readonly SortKey[]): SortKey[] {
  return keys.map((k) => ({ ...k, order: k.order === 'asc' ? 'desc' : 'asc' }));
}

/** `k` equals `v` (both empty, or the same value). */
const same = (k: SQLWrapper, v: KeyValue): SQL => (v === null ? sql`${k} is null` : sql`${k} = ${v}`);

/** `k` comes after `v` in the key's order (an empty value being the smallest), or undefined when nothing can. */
function beyond(key: SortKey, v: KeyValue): SQL | undefined {
  const k = key.expr;
  if (key.order === 'asc') return v === null ? sql`${k} is not null` : sql`${k} > ${v}`;
  if (v === null) return undefined;
  return key.notNull ? sql`${k} < ${v}` : sql`(${k} < ${v} or ${k} is null)`;
}

/** Rows after `values` on the keys from `from` on, given equal values before it: the expanded row comparison. */
function afterFrom(keys: readonly SortKey[], values: readonly KeyValue[], from: number): SQL | undefined {
  const terms: SQL[] = [];
  for (let i = from; i < keys.length; i++) {
    const step = beyond(keys[i]!, values[i]!);
    if (!step) continue;
    const equal = keys.slice(from, i).map((k, j) => same(k.expr, values[from + j]!));
    terms.push(equal.length ? and(...equal, step)! : step);
  }
  if (!terms.length) return sql`1 = 0`;
  return terms.length === 1 ? terms[0] : or(...terms);
}

/**
 * The rows after the boundary `values` in the order of `keys`, as conditions to read one after
 * the other, in that order, until a page is full: each holds a range of the first key an index in
 * that order can start at (`k >= v`, `k <= v`, `k is null`), with the rest of the comparison on
 * the rows it starts with. Empty values come last descending and first ascending, outside the
 * range of the others, so a nullable first key takes a second condition for them.
 * @param keys the sort, the id last (never empty)
 * @param values the boundary row's values of `keys`
 */
export function afterSegments(keys: readonly SortKey[], values: readonly KeyValue[]): SQL[] {
  const [first] = keys;
  const v = values[0]!;
  const k = first!.expr;
  const rest = keys.length > 1 ? afterFrom(keys, values, 1) : sql`1 = 0`;
  if (first!.order === 'asc') {
    if (v !== null) return [sql`${k} >= ${v} and (${k} > ${v} or ${rest})`];
    return [sql`${k} is null and ${rest}`, sql`${k} is not null`];
  }
  if (v === null) return [sql`${k} is null and ${rest}`];
  const inRange = sql`${k} <= ${v} and (${k} < ${v} or ${rest})`;
  return first!.notNull ? [inRange] : [inRange, sql`${k} is null`];
}
