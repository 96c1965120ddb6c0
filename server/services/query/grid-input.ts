/**
 * The body of a grid's list call (spec "Listing" model: filters, sorting and a page), as zod
 * fields each list route's schema is made of: `filters` and `sorting` are checked by the list's
 * field registry (query-filters.ts), `offset` from 0, `limit` from 1 to `MAX_GRID_LIMIT`.
 */
import { z } from 'zod';

/** Most rows one page of a grid's list holds. */
export const MAX_GRID_LIMIT = 1000;

const offset = z.coerce.number().int().min(0);
const limit = z.coerce.number().int().min(1).max(MAX_GRID_LIMIT);

/** `filters`, `sorting`, `offset`, `limit` of a list call, to spread into an object schema. */
export const gridPageFields = {
  filters: z.unknown().optional(),
  sorting: z.unknown().optional(),
  offset: offset.optional(),
  limit: limit.optional(),
};

/** A list call's body: `gridPageFields`, also with the page as a `pagination` object (`{offset, limit}`, both optional). */
export const gridPageSchema = z.object({
  ...gridPageFields,
  pagination: z.object({ offset, limit }).partial().optional(),
});
