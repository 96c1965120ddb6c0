/**
 * Request and response schemas of a fund's audit adjustments (`/fund/{id}/adjustments`), mirroring
 * `server/services/adjustments/adjustments.ts`. The body schema checks the shape only; the rules
 * (`rules/adjustments.ts`) check the values and name each field in error.
 */
import { z } from 'zod';
import { ADJUSTMENT_TARGETS, ADJUSTMENT_TYPES, ADJUSTMENT_MAX_LINES } from '../../../rules/adjustments.js';

const lineBody = z.object({
  account: z.string().describe('TB account code (GL code) the line posts to'),
  target: z.string().describe(`SDM figure the line changes: ${ADJUSTMENT_TARGETS.join(' or ')}`),
  securityId: z.string().nullish().describe('the position a holding_value line revalues'),
  amount: z.number().describe('fund currency, debit positive / credit negative, at most two decimals'),
  description: z.string().nullish(),
});

/** Create or update an adjustment. */
export const adjustmentBodySchema = z.object({
  type: z.string().describe(`one of ${ADJUSTMENT_TYPES.join(', ')}`),
  description: z.string(),
  bookedByTpa: z.boolean(),
  lines: z.array(lineBody).max(ADJUSTMENT_MAX_LINES),
});

/** 'Rerun adjustments' or 'Rerun apportionment'. */
export const adjustmentRerunBodySchema = z.object({ rerun: z.enum(['adjustments', 'apportionment']).default('adjustments') });

const lineSchema = z.strictObject({
  account: z.string(),
  target: z.enum(ADJUSTMENT_TARGETS),
  securityId: z.string().optional(),
  amount: z.number(),
  description: z.string().optional(),
});

/** One adjustment. */
export const adjustmentSchema = z.strictObject({
  id: z.number().int(),
  fundRequestId: z.number().int(),
  type: z.enum(ADJUSTMENT_TYPES),
  description: z.string(),
  bookedByTpa: z.boolean(),
  lines: z.array(lineSchema),
  author: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const adjustmentListSchema = z.array(adjustmentSchema);

export const adjustmentDeletedSchema = z.strictObject({ id: z.number().int(), deleted: z.literal(true) });

export const adjustmentRerunSchema = z.strictObject({
  fundRequestId: z.number().int(),
  rerun: z.enum(['adjustments', 'apportionment']),
  processId: z.number().int(),
  adjustments: z.number().int(),
  booked: z.number().int(),
});
