/** Response payload schemas of the export files (auditor spec 2.3 "Export"), mirroring `ExportView`. */
import { z } from 'zod';
import { JOB_STATUSES } from '../../db/schema/index.js';
import { EXPORT_STAGE_CODES } from '../../services/exports/exports.js';
import { paginationSchema } from './funds.js';

const exportFund = z.strictObject({ name: z.string(), fundCode: z.string().nullable(), client: z.string(), administrator: z.string().nullable() });

/** One export as the export grids show it. */
export const exportViewSchema = z.strictObject({
  id: z.number().int(),
  user: z.string().nullable(),
  user_auth_id: z.number().int().nullable(),
  administrators: z.array(z.string()),
  status: z.enum(JOB_STATUSES),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  payload: z.strictObject({
    fund_requests: z.record(z.string(), exportFund),
    inputs: z.strictObject({
      fundRequests: z.array(z.number().int()),
      fundRequestStages: z.array(z.enum(EXPORT_STAGE_CODES as [string, ...string[]])),
      excludeDisabledVisualizations: z.boolean(),
      reviewedVisualizationsOnly: z.boolean(),
    }),
    error: z.string().optional(),
    files: z.number().int().optional(),
    size: z.number().int().optional(),
    warnings: z.array(z.string()).optional(),
  }),
  fileName: z.string(),
});

/** A page of exports. */
export const exportPageSchema = z.strictObject({ rows: z.array(exportViewSchema), pagination: paginationSchema });
