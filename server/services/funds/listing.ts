/**
 * Fund request listings: the delivery grid (`POST /funds/listing`, delivery spec sections 2-3) and
 * the auditor grid (`GET /user/funds/:offset/:limit`, `POST /user/fundsByTpa`, auditor spec 2.3
 * and 3). One page of funds is read with one SQL query (filters, search, sort, offset) plus a
 * count, then its derived fields are loaded in batches (`loadFundFacts`). Delivery pages are cached
 * against the listing data version on SQLite; on PostgreSQL every page is computed (listing-cache.ts).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, Column, count, desc, eq, is, ne, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { anyOfPlaceholder, idsValue, runPrepared, storeOf, type DataStore } from '../../db/dialect.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { heavyWork } from '../../lib/guard.js';
import type { User } from '../auth/tokens.js';
import type { FundRow } from './fields.js';
import { cachedListing, cachedListingJson } from '../cache/listing-cache.js';
import { toAuditorRows, toListingRows, type AuditorFundRow, type FundListingRow, type FundPageRow } from './listing-rows.js';

export { toAuditorRow, toAuditorRows, toListingRows, type AuditorFundRow, type FundListingRow, type FundPageRow } from './listing-rows.js';
export { COUNT_CAP, type Pagination } from './listing-page.js';
import { FIELD_ALIASES, listingFields } from './listing-fields.js';
import { decodeCursor, queryFingerprint, type SortKey } from './listing-keyset.js';
import { countFundsCapped, orderByKeys, pageIds, paginationOf, type Pagination } from './listing-page.js';
import { searchCondition } from './listing-search.js';
import { filterCondition, normalizeFilters, normalizeSorting, type FieldRegistry, type ListingFilter, type SortSpec } from '../query/query-filters.js';

/** Listing page size (auditor spec section 9: fund listing 100) and the largest page served. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** Input of `listFunds` (body of POST /funds/listing). */
export const listingInputSchema = z.object({
  filters: z.unknown().optional(),
  sorting: z.unknown().optional(),
  search: z.string().max(200).optional().nullable(),
  offset: z.coerce.number().int().min(0).optional(),
  pagination: z
    .object({
      limit: z.coerce.number().int().min(1).max(MAX_LIMIT).optional(),
      offset: z.coerce.number().int().min(0).optional(),
    })
    .partial()
    .optional(),
  filterId: z.coerce.number().int().positive().optional().nullable(),
  /** the `next` or `previous` cursor of the page shown, to read the page after or before it (`offset` then names that page's offset) */
  cursor: z.string().max(4000).optional().nullable(),
});
export type ListingInput = z.output<typeof listingInputSchema>;

const nameOf = (u: { firstName: string; lastName: string; username: string } | undefined) => (u ? `${u.firstName} ${u.lastName}`.trim() || u.username : null);

/** The statements of a page's names and rows, over the ids of the placeholder `ids` (`idsValue`): prepared once (`runPrepared`). */
const pageQueries = {
  administrators: (store: DataStore) => {
    const { administrators } = store.tables;
    return store.db
      .select({ id: administrators.id, name: administrators.name, code: administrators.code })
      .from(administrators)
      .where(anyOfPlaceholder(store, administrators.id));
  },
  users: (store: DataStore) => {
    const { users } = store.tables;
    return store.db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(users)
      .where(anyOfPlaceholder(store, users.id));
  },
  funds: (store: DataStore) => store.db.select().from(store.tables.fundRequests).where(anyOfPlaceholder(store, store.tables.fundRequests.id)),
};

/** Adds administrator and user names to fund rows (two small queries for a page). */
export async function withNames(ctx: AppContext, funds: FundRow[]): Promise<FundPageRow[]> {
  const store = storeOf(ctx);
  const adminIds = [...new Set(funds.map((f) => f.administratorId).filter((id): id is number => id !== null))];
  const userIds = [...new Set(funds.flatMap((f) => [f.createdById, f.rerunById]).filter((id): id is number => id !== null))];
  const admins = new Map<number, { name: string; code: string }>();
  const people = new Map<number, { firstName: string; lastName: string; username: string }>();
  if (adminIds.length)
    for (const a of await runPrepared(ctx, 'fund_audit_page_administrators', pageQueries.administrators, { ids: idsValue(store, adminIds) }))
      admins.set(a.id, a);
  if (userIds.length)
    for (const u of await runPrepared(ctx, 'fund_audit_page_users', pageQueries.users, { ids: idsValue(store, userIds) })) people.set(u.id, u);
  return funds.map((fund) => {
    const admin = fund.administratorId === null ? undefined : admins.get(fund.administratorId);
    return {
      fund,
      administratorName: admin?.name ?? null,
      administratorCode: admin?.code ?? null,
      createdBy: nameOf(people.get(fund.createdById ?? -1)),
      rerunBy: nameOf(people.get(fund.rerunById ?? -1)),
    };
  });
}

/** The fund page query: filters, search, sort, offset and limit; `limit` null reads every row. */
export async function queryFundPage(ctx: AppContext, where: SQL | undefined, order: SQL[], offset: number, limit: number | null): Promise<FundPageRow[]> {
  const { db, tables: t } = storeOf(ctx);
  if (limit === null)
    return withNames(
      ctx,
      await db
        .select()
        .from(t.fundRequests)
        .where(where)
        .orderBy(...order),
    );
  // sort ids only (a narrow sort), then read the page's rows by id
  const ids = (
    await db
      .select({ id: t.fundRequests.id })
      .from(t.fundRequests)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
  ).map((r) => r.id);
  return withNames(ctx, await fundsByIds(ctx, ids));
}

/** Fund rows by id, in the order of the ids (unknown ids left out). */
export async function fundsByIds(ctx: AppContext, ids: number[]): Promise<FundRow[]> {
  if (!ids.length) return [];
  const rows = new Map<number, FundRow>();
  for (const r of await runPrepared(ctx, 'fund_audit_page_funds', pageQueries.funds, { ids: idsValue(storeOf(ctx), ids) })) rows.set(r.id, r);
  return ids.map((id) => rows.get(id)).filter((r): r is FundRow => !!r);
}

/** Ids of the funds matching a condition, in order. */
export async function queryFundIds(ctx: AppContext, where: SQL | undefined, order: SQL[]): Promise<number[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({ id: t.fundRequests.id })
    .from(t.fundRequests)
    .where(where)
    .orderBy(...order);
  return rows.map((r) => r.id);
}

/** Number of funds matching a condition. */
export async function countFunds(ctx: AppContext, where: SQL | undefined): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select({ n: count() }).from(t.fundRequests).where(where);
  return row?.n ?? 0;
}

/** The filters of a saved filter the user can see (fixed ones or their own). */
async function savedFilterOf(ctx: AppContext, user: User | null, id: number): Promise<unknown> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.savedFilters).where(eq(t.savedFilters.id, id));
  if (!row || (!row.fixed && row.userId !== user?.id)) throw new NotFoundError(`No such filter with id: ${id}`);
  return row.filter;
}

/** A validated listing query: WHERE condition, sort keys (the id last) and their ORDER BY terms. */
export interface FundQuery {
  where: SQL | undefined;
  order: SQL[];
  keys: SortKey[];
  filters: ListingFilter[];
  sorting: SortSpec[];
}

/**
 * The sort keys of validated sorting, `fallback` when there is none, then the fund's id in the
 * direction of the first (the tie-break that makes the order total, which keyset paging needs).
 */
export function sortKeys(sorting: SortSpec[], fields: FieldRegistry, id: SQLWrapper, fallback: SortSpec): SortKey[] {
  const keys: SortKey[] = (sorting.length ? sorting : [fallback]).map((s) => {
    const expr = fields[s.field]!.expr;
    return { expr, order: s.order, notNull: is(expr, Column) && expr.notNull };
  });
  keys.push({ expr: id, order: keys[0]!.order, notNull: true });
  return keys;
}

/**
 * Builds the WHERE and ORDER BY of a listing request. Deleted funds are listed only when a
 * status filter is given (the built-in 'Deleted' filter); the default order is request date
 * descending; ties are broken by the id.
 * @throws ValidationError for an unknown field or a badly shaped filter; NotFoundError for an unknown filterId
 */
export async function buildFundQuery(
  ctx: AppContext,
  user: User | null,
  input: Pick<ListingInput, 'filters' | 'sorting' | 'search' | 'filterId'>,
): Promise<FundQuery> {
  const { dialect, tables: t } = storeOf(ctx);
  const fr = t.fundRequests;
  const fields = listingFields(t);
  const filters = normalizeFilters(input.filters, fields);
  if (input.filterId) filters.push(...normalizeFilters(await savedFilterOf(ctx, user, input.filterId), fields));
  const sorting = normalizeSorting(input.sorting, fields, FIELD_ALIASES);
  const conditions = filters.map((f) => filterCondition(f, fields, dialect));
  if (!filters.some((f) => f.field === 'status')) conditions.push(ne(fr.status, 'Deleted'));
  conditions.push(await searchCondition(ctx, input.search, filters.length > 0));
  const keys = sortKeys(sorting, fields, fr.id, { field: 'requestDate', order: 'desc' });
  return { where: and(...conditions), order: orderByKeys(keys, dialect), keys, filters, sorting };
}

/** Page bounds of a request: offset (top level or in pagination), limit 1..1000 (default 100). */
export function pageOf(input: Pick<ListingInput, 'offset' | 'pagination'>): { offset: number; limit: number } {
  const offset = input.offset ?? input.pagination?.offset ?? 0;
  const limit = input.pagination?.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError('offset must be a whole number from 0');
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new ValidationError(`limit must be between 1 and ${MAX_LIMIT}`);
  return { offset, limit };
}

/**
 * One page of the delivery listing (POST /funds/listing), served from the listing cache while no
 * write touched what it reads (see listing-cache.ts).
 * @returns `{rows, pagination: {offset, limit, count, countCapped, next, previous}}`: count being the
 *   matching funds up to `COUNT_CAP` (more: `countCapped`), next and previous the cursors of the
 *   pages around this one (null at the ends); read-only
 * @throws ValidationError for bad filters, sorting, page bounds or cursor; NotFoundError for an unknown filterId
 */
export async function listFunds(ctx: AppContext, user: User | null, input: ListingInput = {}): Promise<{ rows: FundListingRow[]; pagination: Pagination }> {
  const { offset, limit } = pageOf(input);
  return cachedListing(ctx, listingKey(user, input, offset, limit), () => queryListing(ctx, user, input, offset, limit));
}

/** `listFunds` answered as JSON text (`{json}`): what the HTTP route sends, serialised once per cached page. */
export async function listFundsJson(ctx: AppContext, user: User | null, input: ListingInput = {}): Promise<{ readonly json: string }> {
  const { offset, limit } = pageOf(input);
  return cachedListingJson(ctx, listingKey(user, input, offset, limit), () => queryListing(ctx, user, input, offset, limit));
}

/** The cache key of a listing request; a saved filter of one user is that user's, so the key names the user only then. */
export function listingKey(user: User | null, input: ListingInput, offset: number, limit: number): string {
  return JSON.stringify([
    'delivery',
    input.filters ?? null,
    input.sorting ?? null,
    input.search?.trim() || null,
    offset,
    limit,
    input.filterId ?? null,
    input.filterId ? (user?.id ?? null) : null,
    input.cursor ?? null,
  ]);
}

/** The cache key of what a listing request's count depends on: filters, search and saved filter, whatever the page and sort. */
function countKey(kind: string, user: User | null, input: Pick<ListingInput, 'filters' | 'search' | 'filterId'>): string {
  return JSON.stringify([kind, input.filters ?? null, input.search?.trim() || null, input.filterId ?? null, input.filterId ? (user?.id ?? null) : null]);
}

/**
 * The uncached listing query behind `listFunds` (the read pool runs it for requests).
 * @throws ValidationError for bad filters or sorting; NotFoundError for an unknown filterId
 */
export async function queryListing(
  ctx: AppContext,
  user: User | null,
  input: ListingInput,
  offset: number,
  limit: number,
): Promise<{ rows: FundListingRow[]; pagination: Pagination }> {
  heavyWork('an uncached listing query');
  const q = await buildFundQuery(ctx, user, input);
  const search = input.search?.trim().toLowerCase() || null;
  const fingerprint = queryFingerprint(['delivery', q.filters, q.sorting, search, input.filterId ?? null]);
  const cursor = input.cursor ? decodeCursor(input.cursor, q.keys, fingerprint) : undefined;
  // a search matches few funds: its first pages are read with their count in one statement
  const page = await pageIds(ctx, q, { offset, limit, cursor, counted: !!search });
  const pagination = await paginationOf(
    page,
    limit,
    fingerprint,
    () => cachedListing(ctx, countKey('delivery-count', user, input), () => countFundsCapped(ctx, q.where)),
    !!cursor,
  );
  const funds = await fundsByIds(ctx, page.ids);
  return { rows: await toListingRows(ctx, await withNames(ctx, funds)), pagination };
}

/** The cache key of `countListing`. */
export function countListingKey(user: User | null, input: Pick<ListingInput, 'filters' | 'search' | 'filterId'>): string {
  return countKey('delivery-count-exact', user, input);
}

/**
 * The exact number of funds a delivery listing request matches (`POST /funds/listing/count`), for
 * a page whose count was capped ("10,000+"): every match counted, whatever the page and sort;
 * cached with the listing pages.
 * @throws ValidationError for bad filters; NotFoundError for an unknown filterId
 */
export async function countListing(
  ctx: AppContext,
  user: User | null,
  input: Pick<ListingInput, 'filters' | 'search' | 'filterId'>,
): Promise<{ count: number }> {
  return cachedListing(ctx, countListingKey(user, input), async () => {
    heavyWork('an exact listing count');
    const q = await buildFundQuery(ctx, user, input);
    return { count: await countFunds(ctx, q.where) };
  });
}

/** Auditor sorting: a field of the auditor row (or listing field) and order; default dueDate descending. */
export interface AuditorListInput {
  offset?: number;
  limit?: number;
  sort?: { field: string; order?: 'asc' | 'desc' } | null;
  /** administrator code or id */
  tpa?: string | number;
  /** the `next` or `previous` cursor of the page shown (`offset` then names the page's offset) */
  cursor?: string | null;
}

/** The condition of an auditor listing: funds not deleted, of one administrator when given. */
async function auditorWhere(ctx: AppContext, tpa: AuditorListInput['tpa']): Promise<{ where: SQL | undefined; administratorId: number | null }> {
  const fr = storeOf(ctx).tables.fundRequests;
  const administratorId = tpa === undefined ? null : await administratorIdOf(ctx, tpa);
  return { where: and(ne(fr.status, 'Deleted'), administratorId === null ? undefined : eq(fr.administratorId, administratorId)), administratorId };
}

/**
 * One page of the auditor listing (GET /user/funds/:offset/:limit, POST /user/fundsByTpa):
 * deleted funds excluded; default sort data due date descending; ties broken by the id.
 * @returns `{rows, pagination: {offset, limit, count, countCapped, next, previous}}` (as `listFunds`)
 * @throws ValidationError for bad bounds, sort field or cursor; NotFoundError for an unknown TPA
 */
export async function listFundsForAuditor(ctx: AppContext, input: AuditorListInput): Promise<{ rows: AuditorFundRow[]; pagination: Pagination }> {
  heavyWork('an auditor listing query');
  const { tables: t } = storeOf(ctx);
  const fields = listingFields(t);
  const { offset, limit } = pageOf({ offset: input.offset, pagination: { limit: input.limit ?? DEFAULT_LIMIT } });
  const sorting = normalizeSorting(input.sort ? [{ field: input.sort.field, order: input.sort.order ?? 'asc' }] : [], fields, FIELD_ALIASES);
  const keys = sortKeys(sorting, fields, t.fundRequests.id, { field: 'dataDue', order: 'desc' });
  const { where, administratorId } = await auditorWhere(ctx, input.tpa);
  const fingerprint = queryFingerprint(['auditor', sorting, administratorId]);
  const cursor = input.cursor ? decodeCursor(input.cursor, keys, fingerprint) : undefined;
  const page = await pageIds(ctx, { where, keys }, { offset, limit, cursor });
  const pagination = await paginationOf(page, limit, fingerprint, () => countFundsCapped(ctx, where), !!cursor);
  const funds = await withNames(ctx, await fundsByIds(ctx, page.ids));
  return { rows: await toAuditorRows(ctx, funds), pagination };
}

/**
 * The exact number of funds of the auditor listing (`GET /user/funds/count`): every fund not
 * deleted, of one administrator when given, for a page whose count was capped.
 * @throws NotFoundError for an unknown TPA
 */
export async function countFundsForAuditor(ctx: AppContext, input: Pick<AuditorListInput, 'tpa'> = {}): Promise<{ count: number }> {
  heavyWork('an exact auditor listing count');
  return { count: await countFunds(ctx, (await auditorWhere(ctx, input.tpa)).where) };
}

/** The id of an administrator given by code or id. @throws NotFoundError */
export async function administratorIdOf(ctx: AppContext, tpa: string | number): Promise<number> {
  const asId = typeof tpa === 'number' ? tpa : /^\d+$/.test(tpa) ? Number(tpa) : null;
  const { db, tables: t } = storeOf(ctx);
  const a = t.administrators;
  const [row] = await db
    .select({ id: a.id })
    .from(a)
    .where(asId !== null ? or(eq(a.id, asId), eq(a.code, String(tpa))) : eq(a.code, String(tpa).trim().toLowerCase()))
    .limit(1);
  if (!row) throw new NotFoundError(`No such administrator: ${tpa}`);
  return row.id;
}
