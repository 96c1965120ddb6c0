/**
 * A fund request's user trail (delivery spec: Fund details, Logs tab "user trail"; section 7
 * `POST /logs/trail`; section 9: logs page size 200, trail newest first). Filters and sorting use
 * the grid model of `query-filters.ts` over the fields id, action, user, userId and date.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { NotFoundError } from '../../errors.js';
import { parseInput } from '../query/validate.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type FieldRegistry } from '../query/query-filters.js';
import { gridPageFields } from '../query/grid-input.js';

/** Trail page size (spec section 9: logs 200). */
export const TRAIL_PAGE_SIZE = 200;

export const trailInputSchema = z.object({
  id: z.coerce.number().int().positive(),
  ...gridPageFields,
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

/** The trail's filterable and sortable fields over the tables of a store. */
function trailFields(t: Tables) {
  const userName = sql<string | null>`case when ${t.users.id} is null then null else trim(${t.users.firstName} || ' ' || ${t.users.lastName}) end`;
  const fields: FieldRegistry = {
    id: { expr: t.trail.id, types: ['number', 'enum'], enumValue: Number },
    action: { expr: t.trail.action, types: ['text', 'enum'] },
    user: { expr: userName, types: ['text', 'enum'] },
    userId: { expr: t.trail.userId, types: ['number', 'enum'], enumValue: Number },
    date: { expr: t.trail.createdAt, types: ['date'] },
  };
  return { userName, fields };
}

/**
 * Lists a fund's trail entries, newest first by default.
 * @returns `{rows, pagination: {offset, limit, count}}`
 * @throws NotFoundError 'No such fund request with id: {id}'; ValidationError for bad filters or sorting
 */
export async function listTrail(
  ctx: AppContext,
  input: TrailInput,
): Promise<{ rows: TrailRow[]; pagination: { offset: number; limit: number; count: number } }> {
  const { id, offset = 0, limit = TRAIL_PAGE_SIZE } = parseInput(trailInputSchema, input);
  const { db, dialect, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ id: t.fundRequests.id }).from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${id}`);
  const { userName, fields } = trailFields(t);
  const filters = normalizeFilters(input.filters, fields);
  const sorting = normalizeSorting(input.sorting, fields, { created_at: 'date', timestamp: 'date' });
  const where = and(eq(t.trail.fundRequestId, id), ...filters.map((f) => filterCondition(f, fields, dialect)));
  const order = [...(sorting.length ? orderTerms(sorting, fields, dialect) : [desc(t.trail.createdAt)]), desc(t.trail.id)];
  const rows = await db
    .select({
      id: t.trail.id,
      user: userName,
      userId: t.trail.userId,
      date: t.trail.createdAt,
      action: t.trail.action,
      before: t.trail.before,
      after: t.trail.after,
    })
    .from(t.trail)
    .leftJoin(t.users, eq(t.users.id, t.trail.userId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(t.trail).leftJoin(t.users, eq(t.users.id, t.trail.userId)).where(where);
  return { rows, pagination: { offset, limit, count: total?.n ?? 0 } };
}
