/**
 * Fund request listings: the delivery grid (`POST /funds/listing`, delivery spec sections 2-3) and
 * the auditor grid (`GET /user/funds/:offset/:limit`, `POST /user/fundsByTpa`, auditor spec 2.3
 * and 3). One page of funds is read with one SQL query (filters, search, sort, offset) plus a
 * count, then its derived fields are loaded in batches (`loadFundFacts`). Delivery pages are cached
 * against the listing data version (listing-cache.ts).
 */
import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { administrators, fundRequests as fr, savedFilters, users } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { heavyWork } from '../../threads/guard.js';
import type { User } from '../auth/tokens.js';
import type { FundRow } from './fields.js';
import { cachedListing, cachedListingJson } from './listing-cache.js';
import { toAuditorRows, toListingRows, type AuditorFundRow, type FundListingRow, type FundPageRow, type Pagination } from './listing-rows.js';

export { toAuditorRow, toAuditorRows, toListingRows, type AuditorFundRow, type FundListingRow, type FundPageRow, type Pagination } from './listing-rows.js';
import { FIELD_ALIASES, LISTING_FIELDS } from './listing-fields.js';
import { searchCondition } from './listing-search.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type ListingFilter, type SortSpec } from './query-filters.js';

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
});
export type ListingInput = z.output<typeof listingInputSchema>;

const nameOf = (u: { firstName: string; lastName: string; username: string } | undefined) => (u ? `${u.firstName} ${u.lastName}`.trim() || u.username : null);

/** Adds administrator and user names to fund rows (two small queries for a page). */
export function withNames(ctx: AppContext, funds: FundRow[]): FundPageRow[] {
  const adminIds = [...new Set(funds.map((f) => f.administratorId).filter((id): id is number => id !== null))];
  const userIds = [...new Set(funds.flatMap((f) => [f.createdById, f.rerunById]).filter((id): id is number => id !== null))];
  const admins = new Map<number, { name: string; code: string }>();
  const people = new Map<number, { firstName: string; lastName: string; username: string }>();
  for (let i = 0; i < adminIds.length; i += 500) {
    for (const a of ctx.db
      .select({ id: administrators.id, name: administrators.name, code: administrators.code })
      .from(administrators)
      .where(inArray(administrators.id, adminIds.slice(i, i + 500)))
      .all())
      admins.set(a.id, a);
  }
  for (let i = 0; i < userIds.length; i += 500) {
    for (const u of ctx.db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
      .from(users)
      .where(inArray(users.id, userIds.slice(i, i + 500)))
      .all())
      people.set(u.id, u);
  }
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
export function queryFundPage(ctx: AppContext, where: SQL | undefined, order: SQL[], offset: number, limit: number | null): FundPageRow[] {
  if (limit === null)
    return withNames(
      ctx,
      ctx.db
        .select()
        .from(fr)
        .where(where)
        .orderBy(...order)
        .all(),
    );
  // sort ids only (a narrow sort), then read the page's rows by id
  const ids = ctx.db
    .select({ id: fr.id })
    .from(fr)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)
    .all()
    .map((r) => r.id);
  return withNames(ctx, fundsByIds(ctx, ids));
}

const fundsByIdsStatements = new WeakMap<AppContext, { all(params: { ids: string }): FundRow[] }>();

/** Fund rows by id, in the order of the ids (unknown ids left out). */
export function fundsByIds(ctx: AppContext, ids: number[]): FundRow[] {
  if (!ids.length) return [];
  let stmt = fundsByIdsStatements.get(ctx);
  if (!stmt) {
    // one statement prepared once per context, the ids passed as one JSON array
    stmt = ctx.db
      .select()
      .from(fr)
      .where(sql`${fr.id} in (select value from json_each(${sql.placeholder('ids')}))`)
      .prepare();
    fundsByIdsStatements.set(ctx, stmt);
  }
  const rows = new Map<number, FundRow>();
  for (const r of stmt.all({ ids: JSON.stringify(ids) })) rows.set(r.id, r);
  return ids.map((id) => rows.get(id)).filter((r): r is FundRow => !!r);
}

/** Ids of the funds matching a condition, in order. */
export function queryFundIds(ctx: AppContext, where: SQL | undefined, order: SQL[]): number[] {
  return ctx.db
    .select({ id: fr.id })
    .from(fr)
    .where(where)
    .orderBy(...order)
    .all()
    .map((r) => r.id);
}

/** Number of funds matching a condition. */
export function countFunds(ctx: AppContext, where: SQL | undefined): number {
  return ctx.db.select({ n: sql<number>`count(*)` }).from(fr).where(where).get()!.n;
}

/** The filters of a saved filter the user can see (fixed ones or their own). */
function savedFilterOf(ctx: AppContext, user: User | null, id: number): unknown {
  const row = ctx.db.select().from(savedFilters).where(eq(savedFilters.id, id)).get();
  if (!row || (!row.fixed && row.userId !== user?.id)) throw new NotFoundError(`No such filter with id: ${id}`);
  return row.filter;
}

/** A validated listing query: WHERE condition and ORDER BY terms. */
export interface FundQuery {
  where: SQL | undefined;
  order: SQL[];
  filters: ListingFilter[];
  sorting: SortSpec[];
}

/**
 * Builds the WHERE and ORDER BY of a listing request. Deleted funds are listed only when a
 * status filter is given (the built-in 'Deleted' filter); the default order is request date
 * descending, then id.
 * @throws ValidationError for an unknown field or a badly shaped filter; NotFoundError for an unknown filterId
 */
export function buildFundQuery(ctx: AppContext, user: User | null, input: Pick<ListingInput, 'filters' | 'sorting' | 'search' | 'filterId'>): FundQuery {
  const filters = normalizeFilters(input.filters, LISTING_FIELDS);
  if (input.filterId) filters.push(...normalizeFilters(savedFilterOf(ctx, user, input.filterId), LISTING_FIELDS));
  const sorting = normalizeSorting(input.sorting, LISTING_FIELDS, FIELD_ALIASES);
  const conditions = filters.map((f) => filterCondition(f, LISTING_FIELDS));
  if (!filters.some((f) => f.field === 'status')) conditions.push(ne(fr.status, 'Deleted'));
  conditions.push(searchCondition(ctx, input.search, filters.length > 0));
  const order = sorting.length ? orderTerms(sorting, LISTING_FIELDS) : [desc(fr.requestDate)];
  const first = sorting[0]?.order ?? 'desc';
  order.push(first === 'desc' ? desc(fr.id) : asc(fr.id));
  return { where: and(...conditions), order, filters, sorting };
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
 * @returns `{rows, pagination: {offset, limit, count}}`, count being every matching fund; read-only
 * @throws ValidationError for bad filters, sorting or page bounds; NotFoundError for an unknown filterId
 */
export function listFunds(ctx: AppContext, user: User | null, input: ListingInput = {}): { rows: FundListingRow[]; pagination: Pagination } {
  const { offset, limit } = pageOf(input);
  return cachedListing(ctx, listingKey(user, input, offset, limit), () => queryListing(ctx, user, input, offset, limit));
}

/** `listFunds` answered as JSON text (`{json}`): what the HTTP route sends, serialised once per cached page. */
export function listFundsJson(ctx: AppContext, user: User | null, input: ListingInput = {}): { readonly json: string } {
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
  ]);
}

/**
 * The uncached listing query behind `listFunds` (the read pool runs it for requests).
 * @throws ValidationError for bad filters or sorting; NotFoundError for an unknown filterId
 */
export function queryListing(
  ctx: AppContext,
  user: User | null,
  input: ListingInput,
  offset: number,
  limit: number,
): { rows: FundListingRow[]; pagination: Pagination } {
  heavyWork('an uncached listing query');
  const q = buildFundQuery(ctx, user, input);
  let ids: Array<{ id: number; total?: number }>;
  if (input.search?.trim()) {
    // a search reads every match anyway: count them in the same pass
    ids = ctx.db
      .select({ id: fr.id, total: sql<number>`count(*) over ()` })
      .from(fr)
      .where(q.where)
      .orderBy(...q.order)
      .limit(limit)
      .offset(offset)
      .all();
  } else {
    ids = ctx.db
      .select({ id: fr.id })
      .from(fr)
      .where(q.where)
      .orderBy(...q.order)
      .limit(limit)
      .offset(offset)
      .all();
  }
  // a full page (or one past the end) needs the count: one per distinct filter and search, whatever the page and sort
  const count =
    ids[0]?.total ??
    (ids.length < limit && (ids.length > 0 || offset === 0)
      ? offset + ids.length
      : cachedListing(
          ctx,
          JSON.stringify([
            'delivery-count',
            input.filters ?? null,
            input.search?.trim() || null,
            input.filterId ?? null,
            input.filterId ? (user?.id ?? null) : null,
          ]),
          () => countFunds(ctx, q.where),
        ));
  return {
    rows: toListingRows(
      ctx,
      withNames(
        ctx,
        fundsByIds(
          ctx,
          ids.map((r) => r.id),
        ),
      ),
    ),
    pagination: { offset, limit, count },
  };
}

/** Auditor sorting: a field of the auditor row (or listing field) and order; default dueDate descending. */
export interface AuditorListInput {
  offset?: number;
  limit?: number;
  sort?: { field: string; order?: 'asc' | 'desc' } | null;
  /** administrator code or id */
  tpa?: string | number;
}

/**
 * One page of the auditor listing (GET /user/funds/:offset/:limit, POST /user/fundsByTpa):
 * deleted funds excluded; default sort data due date descending, then id.
 * @returns `{rows, pagination: {offset, limit, count}}`
 * @throws ValidationError for bad bounds or sort field; NotFoundError for an unknown TPA
 */
export function listFundsForAuditor(ctx: AppContext, input: AuditorListInput): { rows: AuditorFundRow[]; pagination: Pagination } {
  heavyWork('an auditor listing query');
  const { offset, limit } = pageOf({ offset: input.offset, pagination: { limit: input.limit ?? DEFAULT_LIMIT } });
  const sorting = normalizeSorting(
    input.sort ? [{ field: input.sort.field, order: input.sort.order ?? 'asc' }] : [{ field: 'dataDue', order: 'desc' }],
    LISTING_FIELDS,
    FIELD_ALIASES,
  );
  const conditions: Array<SQL | undefined> = [ne(fr.status, 'Deleted')];
  if (input.tpa !== undefined) conditions.push(eq(fr.administratorId, administratorIdOf(ctx, input.tpa)));
  const where = and(...conditions);
  const order = [...orderTerms(sorting, LISTING_FIELDS), sorting[0].order === 'desc' ? desc(fr.id) : asc(fr.id)];
  const page = queryFundPage(ctx, where, order, offset, limit);
  return { rows: toAuditorRows(ctx, page), pagination: { offset, limit, count: countFunds(ctx, where) } };
}

/** The id of an administrator given by code or id. @throws NotFoundError */
export function administratorIdOf(ctx: AppContext, tpa: string | number): number {
  const asId = typeof tpa === 'number' ? tpa : /^\d+$/.test(tpa) ? Number(tpa) : null;
  const row = ctx.db
    .select({ id: administrators.id })
    .from(administrators)
    .where(asId !== null ? or(eq(administrators.id, asId), eq(administrators.code, String(tpa))) : eq(administrators.code, String(tpa).trim().toLowerCase()))
    .get();
  if (!row) throw new NotFoundError(`No such administrator: ${tpa}`);
  return row.id;
}
