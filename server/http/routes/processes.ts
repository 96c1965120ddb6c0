/**
 * Processes (delivery spec section 7: `POST /fund/process/reset`, `/fund/process/cancel`,
 * `POST /logs/processes`, `GET /processes`; section 4 "Processes").
 */
import { z } from 'zod';
import { DEV_INFO_FUNDS, listOngoing } from '../../services/dev-tools/ongoing.js';
import { cancelFundProcess, listProcessesOfFund, processActionSchema, processListSchema, resetFundProcess } from '../../services/files/process-actions.js';
import { defineRoute } from '../route.js';
import { ongoingProcessesSchema, processPageSchema, processViewSchema } from '../schemas/processes.js';

const VIEW = '{id, fund_request_id, stage, status, process_at, started_at, finished_at, attempts, force_run, payload}';

export const processRoutes = [
  defineRoute({
    method: 'POST',
    path: '/fund/process/reset',
    group: 'delivery',
    tag: 'processes',
    body: processActionSchema,
    summary: `Put a process {id} back in the queue with force run (not while running) -> ${VIEW}`,
    response: processViewSchema,
    handler: ({ ctx, user, body }) => resetFundProcess(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/process/cancel',
    group: 'delivery',
    tag: 'processes',
    body: processActionSchema,
    summary: `Cancel a pending or running process {id} (status suspended) -> ${VIEW}`,
    response: processViewSchema,
    handler: ({ ctx, user, body }) => cancelFundProcess(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/logs/processes',
    group: 'delivery',
    tag: 'processes',
    body: processListSchema,
    summary: `A fund's processes {id, filters?: status enum, offset?, limit?} newest first, 200 per page -> {rows: [${VIEW}], pagination}`,
    response: processPageSchema,
    handler: ({ ctx, body }) => listProcessesOfFund(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/processes',
    group: 'delivery',
    tag: 'processes',
    summary: `Pending and running processes of every fund, newest first {top?: only the newest process of each of the first N funds (dev info: ${DEV_INFO_FUNDS})} -> [${VIEW} + fundCode, fundName, tpaName, createdBy, reRunBy]`,
    query: z.object({ top: z.coerce.number().int().min(1).max(100).optional() }),
    response: ongoingProcessesSchema,
    handler: ({ ctx, query }) => listOngoing(ctx, { top: query.top }),
  }),
];
