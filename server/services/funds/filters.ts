/**
 * Saved listing filters (delivery spec sections 2, 3 "Saved filter", 5, 7, 8, 9): the fixed ones
 * (ids 1-3, seeded at bootstrap, owned by nobody) plus each user's own. At most 7 filters in all
 * per user, titles must not be empty, fixed filters cannot be deleted. Filters are returned in the
 * list form `[{field, type, value}]` whatever form they were stored in.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { listingFields } from './listing-fields.js';
import { normalizeFilters, type ListingFilter } from '../query/query-filters.js';

/** Most filters a user can have, fixed ones included (spec section 9). */
export const MAX_FILTERS = 7;

export const SAVED_MESSAGE = 'filter saved';
export const DELETED_MESSAGE = 'filter deleted';

export interface SavedFilter {
  id: number;
  title: string;
  filter: ListingFilter[];
  fixed: boolean;
}

export const saveFilterSchema = z.object({
  title: z.string().max(200).optional().nullable(),
  filter: z.unknown().optional(),
  successMessage: z.string().max(200).optional(),
});
export type SaveFilterInput = z.input<typeof saveFilterSchema>;

const visibleTo = (t: Tables, user: User) => or(eq(t.savedFilters.fixed, true), eq(t.savedFilters.userId, user.id));

function toSaved(t: Tables, row: Tables['savedFilters']['$inferSelect']): SavedFilter {
  let filter: ListingFilter[];
  try {
    filter = normalizeFilters(row.filter, listingFields(t));
  } catch {
    filter = [];
  }
  return { id: row.id, title: row.title, filter, fixed: row.fixed };
}

/** The fixed filters and the user's own, by id (GET /filters). */
export async function listFilters(ctx: AppContext, user: User): Promise<SavedFilter[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db.select().from(t.savedFilters).where(visibleTo(t, user)).orderBy(asc(t.savedFilters.id));
  return rows.map((r) => toSaved(t, r));
}

/**
 * Saves a filter for the user (POST /filter).
 * @returns the saved filter and the success message ('filter saved' unless the client gave its own)
 * @throws ValidationError 'A filter name must not be empty', 'At most 7 filters can be saved', or for an invalid filter
 */
export async function saveFilter(ctx: AppContext, user: User, input: SaveFilterInput): Promise<{ filter: SavedFilter; message: string }> {
  const title = input.title?.trim();
  if (!title) throw new ValidationError('A filter name must not be empty');
  const { tables: t } = storeOf(ctx);
  const filter = normalizeFilters(input.filter ?? [], listingFields(t));
  return transaction(ctx, async (tx) => {
    // two saves of one user take turns (PostgreSQL: the write locks the user's row until commit;
    // SQLite: one write transaction at a time), so the count below sees the other's filter
    await tx
      .update(t.users)
      .set({ updatedAt: sql`${t.users.updatedAt}` })
      .where(eq(t.users.id, user.id));
    const [n] = await tx.select({ n: count() }).from(t.savedFilters).where(visibleTo(t, user));
    if ((n?.n ?? 0) >= MAX_FILTERS) throw new ValidationError(`At most ${MAX_FILTERS} filters can be saved`);
    const [row] = await tx.insert(t.savedFilters).values({ userId: user.id, title, filter, fixed: false }).returning();
    return { filter: toSaved(t, row!), message: input.successMessage?.trim() || SAVED_MESSAGE };
  });
}

/**
 * Deletes one of the user's filters (POST /filter/delete).
 * @throws ConflictError (409) 'Built-in filters cannot be deleted' (not 403, which sends the screens to /unauthorized); NotFoundError for an unknown id or another user's filter
 */
export async function deleteFilter(ctx: AppContext, user: User, id: number): Promise<{ id: number }> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.savedFilters).where(eq(t.savedFilters.id, id));
  if (row?.fixed) throw new ConflictError('Built-in filters cannot be deleted');
  if (!row || row.userId !== user.id) throw new NotFoundError(`No such filter with id: ${id}`);
  await db.delete(t.savedFilters).where(and(eq(t.savedFilters.id, id), eq(t.savedFilters.userId, user.id)));
  return { id };
}
