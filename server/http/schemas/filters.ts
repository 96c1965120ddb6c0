/**
 * Response payload schemas of the saved listing filters (delivery spec section 7 "Saved filters"),
 * mirroring `SavedFilter` of server/services/funds/filters.ts and `ListingFilter` of its query filters.
 */
import { z } from 'zod';

/** One filter of the grid model `{field, type, value}`, by type. */
export const listingFilterSchema = z.discriminatedUnion('type', [
  z.strictObject({ field: z.string(), type: z.literal('enum'), value: z.array(z.string()) }),
  z.strictObject({ field: z.string(), type: z.literal('text'), value: z.string() }),
  z.strictObject({ field: z.string(), type: z.literal('date'), value: z.strictObject({ from: z.string().optional(), to: z.string().optional() }) }),
  z.strictObject({ field: z.string(), type: z.literal('number'), value: z.strictObject({ min: z.number().optional(), max: z.number().optional() }) }),
]);

/** A saved filter (the fixed ones have ids 1-3). */
export const savedFilterSchema = z.strictObject({ id: z.number().int(), title: z.string(), filter: z.array(listingFilterSchema), fixed: z.boolean() });
