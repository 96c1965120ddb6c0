/** The auditor area's fund listing and status report (auditor spec sections 2.3, 3, 7). */
import { z } from 'zod';
import { ValidationError } from '../../errors.js';
import { MAX_LIMIT } from '../../services/funds/listing.js';
import { countFundsForAuditorOffThread, listFundsForAuditorOffThread } from '../../threads/funds/off-thread.js';
import { statusReportJson } from '../../services/funds/status-report.js';
import { defineRoute, SerializedPayload } from '../route.js';
import { auditorFundPageSchema, fundCountSchema, statusReportSchema } from '../schemas/funds.js';

const bound = z.coerce.number().int();
const pageSchema = z.object({ offset: bound.min(0), limit: bound.min(1).max(MAX_LIMIT) });
const sortQuery = z.object({ sort: z.string().max(60).optional(), order: z.enum(['asc', 'desc']).optional(), cursor: z.string().max(4000).optional() });

export const auditorRoutes = [
  defineRoute({
    method: 'GET',
    path: '/user/funds/:offset/:limit',
    group: 'auditor',
    tag: 'auditor',
    query: sortQuery,
    summary:
      'A page of funds (deleted excluded), default sort dataDueDate descending; ?sort=field&order=asc|desc&cursor= -> {rows, pagination: {offset, limit, count, countCapped, next, previous}} (as POST /funds/listing; GET /user/funds/count counts them all)',
    response: auditorFundPageSchema,
    handler: ({ ctx, params, query }) => {
      const page = pageSchema.safeParse(params);
      if (!page.success) throw new ValidationError('The request is not valid', [`offset must be a whole number from 0 and limit from 1 to ${MAX_LIMIT}`]);
      return listFundsForAuditorOffThread(ctx, { ...page.data, sort: query.sort ? { field: query.sort, order: query.order } : null, cursor: query.cursor });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user/funds/count',
    group: 'auditor',
    tag: 'auditor',
    summary: 'The exact number of funds of the listing (deleted excluded) -> {count} (for a page whose count was capped)',
    response: fundCountSchema,
    handler: ({ ctx }) => countFundsForAuditorOffThread(ctx, {}),
  }),
  defineRoute({
    method: 'POST',
    path: '/user/fundsByTpa',
    group: 'auditor',
    tag: 'auditor',
    body: z.object({
      offset: bound.min(0).default(0),
      limit: bound.min(1).max(MAX_LIMIT).default(100),
      tpa: z.union([z.string().min(1), z.number().int()]),
      cursor: z.string().max(4000).optional().nullable(),
    }),
    summary: "A page of one administrator's funds {offset, limit, tpa (code or id)} -> {rows, pagination}",
    response: auditorFundPageSchema,
    handler: ({ ctx, body }) => listFundsForAuditorOffThread(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/user/status-report',
    group: 'auditor',
    tag: 'auditor',
    summary: 'Status report: {totalFunds, activeFunds, lateFunds, onTimeFunds} with counts per client and administrator and the funds',
    response: statusReportSchema,
    handler: async ({ ctx }) => new SerializedPayload(await statusReportJson(ctx)),
  }),
];
