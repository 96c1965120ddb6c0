/** The auditor area's fund listing and status report (auditor spec sections 2.3, 3, 7). */
import { z } from 'zod';
import { ValidationError } from '../../errors.js';
import { MAX_LIMIT } from '../../services/funds/listing.js';
import { listFundsForAuditorOffThread } from '../../services/funds/off-thread.js';
import { statusReportJson } from '../../services/funds/status-report.js';
import { defineRoute, SerializedPayload } from '../route.js';
import { auditorFundPageSchema, statusReportSchema } from '../schemas/funds.js';

const bound = z.coerce.number().int();
const pageSchema = z.object({ offset: bound.min(0), limit: bound.min(1).max(MAX_LIMIT) });
const sortQuery = z.object({ sort: z.string().max(60).optional(), order: z.enum(['asc', 'desc']).optional() });

export const auditorRoutes = [
  defineRoute({
    method: 'GET',
    path: '/user/funds/:offset/:limit',
    group: 'auditor',
    tag: 'auditor',
    query: sortQuery,
    summary:
      'A page of funds (deleted excluded), default sort dataDueDate descending; ?sort=field&order=asc|desc -> {rows, pagination: {offset, limit, count}}',
    response: auditorFundPageSchema,
    handler: ({ ctx, params, query }) => {
      const page = pageSchema.safeParse(params);
      if (!page.success) throw new ValidationError('The request is not valid', [`offset must be a whole number from 0 and limit from 1 to ${MAX_LIMIT}`]);
      return listFundsForAuditorOffThread(ctx, { ...page.data, sort: query.sort ? { field: query.sort, order: query.order } : null });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/user/fundsByTpa',
    group: 'auditor',
    tag: 'auditor',
    body: z.object({ offset: bound.min(0).default(0), limit: bound.min(1).max(MAX_LIMIT).default(100), tpa: z.union([z.string().min(1), z.number().int()]) }),
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
