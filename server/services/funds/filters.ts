/**
 * Saved listing filters (delivery spec sections 2, 3 "Saved filter", 5, 7, 8, 9): the fixed ones
 * (ids 1-3, seeded at bootstrap, owned by nobody) plus each user's own. At most 7 filters in all
 * per user, titles must not be empty, fixed filters cannot be deleted. Filters are returned in the
 * list form `[{field, type, value}]` whatever form they were stored in.
 */
import { and, asc, count, eq, or } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { savedFilters } from '../../db/schema/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { LISTING_FIELDS } from './listing-fields.js';
import { normalizeFilters, type ListingFilter } from './query-filters.js';

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

const visibleTo = (user: User) => or(eq(savedFilters.fixed, true), eq(savedFilters.userId, user.id));

function toSaved(row: typeof savedFilters.$inferSelect): SavedFilter {
  let filter: ListingFilter[];
  try {
    filter = normalizeFilters(row.filter, LISTING_FIELDS);
  } catch {
    filter = [];
  }
  return { id: row.id, title: row.title, filter, fixed: row.fixed };
}

/** The fixed filters and the user's own, by id (GET /filters). */
export function listFilters(ctx: AppContext, user: User): SavedFilter[] {
  return ctx.db.select().from(savedFilters).where(visibleTo(user)).orderBy(asc(savedFilters.id)).all().map(toSaved);
}

/**
 * Saves a filter for the user (POST /filter).
 * @returns the saved filter and the success message ('filter saved' unless the client gave its own)
 * @throws ValidationError 'A filter name must not be empty', 'At most 7 filters can be saved', or for an invalid filter
 */
export function saveFilter(ctx: AppContext, user: User, input: SaveFilterInput): { filter: SavedFilter; message: string } {
  const title = input.title?.trim();
  if (!title) throw new ValidationError('A filter name must not be empty');
  const filter = normalizeFilters(input.filter ?? [], LISTING_FIELDS);
  return ctx.db.transaction(
    (tx) => {
      const n = tx.select({ n: count() }).from(savedFilters).where(visibleTo(user)).get()!.n;
      if (n >= MAX_FILTERS) throw new ValidationError(`At most ${MAX_FILTERS} filters can be saved`);
      const row = tx.insert(savedFilters).values({ userId: user.id, title, filter, fixed: false }).returning().get();
      return { filter: toSaved(row), message: input.successMessage?.trim() || SAVED_MESSAGE };
    },
    { behavior: 'immediate' },
  );
}

/**
 * Deletes one of the user's filters (POST /filter/delete).
 * @throws ConflictError (409) 'Built-in filters cannot be deleted' (not 403, which sends the screens to /unauthorized); NotFoundError for an unknown id or another user's filter
 */
export function deleteFilter(ctx: AppContext, user: User, id: number): { id: number } {
  const row = ctx.db.select().from(savedFilters).where(eq(savedFilters.id, id)).get();
  if (row?.fixed) throw new ConflictError('Built-in filters cannot be deleted');
  if (!row || row.userId !== user.id) throw new NotFoundError(`No such filter with id: ${id}`);
  ctx.db
    .delete(savedFilters)
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, user.id)))
    .run();
  return { id };
}
