/** One fund request: details, validate, save (spec section 7: GET /fund/{id}, POST /fund/validate, POST /fund). */
import { z } from 'zod';
import { getFundDetails } from '../../services/funds/details.js';
import { fundDetailsJsonOffThread } from '../../threads/funds/off-thread.js';
import { saveFund, validateFund, type FundInput } from '../../services/funds/fund-write.js';
import {
  aggregForceRunInputSchema,
  dbPushInputSchema,
  reviewAllInputSchema,
  reviewAllWorkPapers,
  setAggregForceRun,
  triggerDbPush,
} from '../../services/funds/details-actions.js';
import { defineRoute, SerializedPayload } from '../route.js';
import { aggregForceRunSchema, dbPushSchema, fileActionResultSchema } from '../schemas/file-actions.js';
import { fundDetailsSchema } from '../schemas/fund-details.js';
import { fundValidationSchema } from '../schemas/funds.js';

const fundBody = z.object({ id: z.coerce.number().int().positive().nullish(), fund: z.record(z.string(), z.unknown()) });

export const fundRoutes = [
  defineRoute({
    method: 'GET',
    path: '/fund/:id',
    group: 'shared',
    tag: 'funds',
    summary: "Fund details with codes, recipients, children, file groups and dataStatusCounts; 404 'No such fund request with id: {id}'",
    response: fundDetailsSchema,
    handler: async ({ ctx, params }) => new SerializedPayload(await fundDetailsJsonOffThread(ctx, Number(params.id))),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/validate',
    group: 'shared',
    tag: 'funds',
    summary: "Validate a fund create or update; payload lists the errors (strings or {id, type: 'Duplicate Fund', message})",
    body: fundBody,
    response: fundValidationSchema,
    handler: async ({ ctx, body }) => ({ errors: await validateFund(ctx, { id: body.id, fund: body.fund as FundInput }) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund',
    group: 'shared',
    tag: 'funds',
    summary: "Create (no id) or update a fund request; 400 'You have validation errors' with every error",
    body: fundBody,
    response: fundDetailsSchema,
    handler: async ({ ctx, user, body }) => getFundDetails(ctx, await saveFund(ctx, user, { id: body.id, fund: body.fund as FundInput })),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/reviewall',
    group: 'delivery',
    tag: 'files',
    body: reviewAllInputSchema,
    summary:
      "Review status of the work papers of a fund {id} or of funds {ids}: every produced, required one set to {reviewed} (default true); 400 'No work papers to review' when none",
    response: fileActionResultSchema,
    handler: ({ ctx, user, body }) => reviewAllWorkPapers(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/set-aggreg-force-run',
    group: 'delivery',
    tag: 'funds',
    body: aggregForceRunInputSchema,
    summary: 'Set the forced aggregation rerun flag of a fund {id, value}',
    response: aggregForceRunSchema,
    handler: ({ ctx, user, body }) => setAggregForceRun(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/triggerdbpush',
    group: 'delivery',
    tag: 'funds',
    body: dbPushInputSchema,
    summary:
      "Db push {fundId}: the fund's standardized rows and check results into <data dir>/db-push/fund_{id}.sqlite; 409 'Db push is not enabled' unless isDbPushEnabled",
    response: dbPushSchema,
    handler: ({ ctx, user, body }) => triggerDbPush(ctx, user, body),
  }),
];
