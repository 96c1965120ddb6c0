/**
 * A fund request's user trail (delivery spec: Fund details, Logs tab "user trail"; section 7
 * `POST /logs/trail`; section 9: logs page size 200, trail newest first). Filters and sorting use
 * the grid model of `query-filters.ts` over the fields id, action, user, userId and date.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { fundRequests, trail, users } from '../../db/schema/index.js';
import { NotFoundError } from '../../errors.js';
import { parseInput } from './validate.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type FieldRegistry } from './query-filters.js';

/** Trail page size (spec section 9: logs 200). */
export const TRAIL_PAGE_SIZE = 200;

export const trailInputSchema = z.object({
  id: z.coerce.number().int().positive(),
  filters: z.unknown().optional(),
  sorting: z.unknown().optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type TrailInput = z.input<typeof trailInputSchema>;

/** One trail entry on the wire. */
export interface TrailRow {
  id: number;
  /** full name of the user, null for system actions */
  user: string | null;
  userId: number | null;
  /** ISO timestamp */
  date: string;
  action: string;
  before: unknown;
  after: unknown;
}

const userName = sql<string | null>`case when ${users.id} is null then null else trim(${users.firstName} || ' ' || ${users.lastName}) end`;

const TRAIL_FIELDS: FieldRegistry = {
  id: { expr: trail.id, types: ['number', 'enum'], enumValue: Number },
  action: { expr: trail.action, types: ['text', 'enum'] },
  user: { expr: userName, types: ['text', 'enum'] },
  userId: { expr: trail.userId, types: ['number', 'enum'], enumValue: Number },
  date: { expr: trail.createdAt, types: ['date'] },
};

/**
 * Lists a fund's trail entries, newest first by default.
 * @returns `{rows, pagination: {offset, limit, count}}`
 * @throws NotFoundError 'No such fund request with id: {id}'; ValidationError for bad filters or sorting
 */
export function listTrail(ctx: AppContext, input: TrailInput): { rows: TrailRow[]; pagination: { offset: number; limit: number; count: number } } {
  const { id, offset = 0, limit = TRAIL_PAGE_SIZE } = parseInput(trailInputSchema, input);
  if (!ctx.db.select({ id: fundRequests.id }).from(fundRequests).where(eq(fundRequests.id, id)).get()) {
    throw new NotFoundError(`No such fund request with id: ${id}`);
  }
  const filters = normalizeFilters(input.filters, TRAIL_FIELDS);
  const sorting = normalizeSorting(input.sorting, TRAIL_FIELDS, { created_at: 'date', timestamp: 'date' });
  const where = and(eq(trail.fundRequestId, id), ...filters.map((f) => filterCondition(f, TRAIL_FIELDS)));
  const order = [...(sorting.length ? orderTerms(sorting, TRAIL_FIELDS) : [desc(trail.createdAt)]), desc(trail.id)];
  const rows = ctx.db
    .select({ id: trail.id, user: userName, userId: trail.userId, date: trail.createdAt, action: trail.action, before: trail.before, after: trail.after })
    .from(trail)
    .leftJoin(users, eq(users.id, trail.userId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)
    .all();
  const count = ctx.db.select({ n: sql<number>`count(*)` }).from(trail).leftJoin(users, eq(users.id, trail.userId)).where(where).get()!.n;
  return { rows, pagination: { offset, limit, count } };
}
