/**
 * Response payload schemas of the processes (delivery spec section 3 "Process", 4 "Processes"),
 * mirroring `processView` and `ongoingProcesses` of the job queue and `listOngoing`.
 */
import { z } from 'zod';
import { JOB_KINDS, JOB_STATUSES } from '../../db/schema/index.js';
import { paginationSchema } from './funds.js';

const int = z.number().int();

/** One process as the Processes tab shows it. */
export const processViewSchema = z.strictObject({
  id: int,
  fund_request_id: int.nullable(),
  stage: z.enum(JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  process_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  attempts: int,
  force_run: z.boolean(),
  payload: z.record(z.string(), z.unknown()),
});

/** A page of a fund's processes. */
export const processPageSchema = z.strictObject({ rows: z.array(processViewSchema), pagination: paginationSchema });

/** Pending and running processes of every fund, with the fund, administrator and people. */
export const ongoingProcessesSchema = z.array(
  z.strictObject({
    ...processViewSchema.shape,
    fundCode: z.string().nullable(),
    fundName: z.string().nullable(),
    tpaName: z.string().nullable(),
    createdBy: z.string().nullable(),
    reRunBy: z.string().nullable(),
  }),
);
