/**
 * Exports (auditor spec 2.3 "Downloads", "Downloads Queue"; delivery spec "Export files"; section 7
 * of both): request a zip of fund outputs, list the queue, download a done zip with a download
 * token (`GET /export/token`, 50,000 ms) in `?token=`, delete exports older than 90 days.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  deleteOldExports,
  EXPORT_QUEUED_MESSAGE,
  EXPORT_RETENTION_DAYS,
  EXPORT_STAGE_CODES,
  exportDownload,
  exportListSchema,
  exportRequestSchema,
  listExports,
  requestExport,
} from '../../services/exports/exports.js';
import { defineRoute, withMessage } from '../route.js';
import { exportPageSchema, exportViewSchema } from '../schemas/exports.js';

export const exportRoutes = [
  defineRoute({
    method: 'POST',
    path: '/export/files',
    group: 'shared',
    tag: 'exports',
    summary: `Queue a zip of fund outputs {fundRequests: ids, fundRequestStages: (${EXPORT_STAGE_CODES.join(' | ')})[], excludeDisabledVisualizations?, reviewedVisualizationsOnly?} -> the export row (pending), message '${EXPORT_QUEUED_MESSAGE}'; 400 'No such fund request with id: {id}'`,
    body: exportRequestSchema,
    response: exportViewSchema,
    handler: async ({ ctx, user, body }) => withMessage(await requestExport(ctx, user, body), EXPORT_QUEUED_MESSAGE),
  }),
  defineRoute({
    method: 'POST',
    path: '/export/files/list',
    group: 'shared',
    tag: 'exports',
    summary:
      'Exports newest first (auditors: their own) {filters?, sorting?, offset?, limit? (200)} -> {rows: [{id, user, user_auth_id, administrators, status, created_at, finished_at, payload: {fund_requests, inputs, error?}, fileName}], pagination}',
    body: exportListSchema,
    response: exportPageSchema,
    handler: ({ ctx, user, body }) => listExports(ctx, user, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/export/file/:id',
    group: 'shared',
    tag: 'exports',
    tokenFrom: 'query',
    raw: true,
    summary: "The zip of a done export (fund_export_<id>_<yyyymmdd>.zip); token from GET /export/token; 400 'The export is not ready yet (status: ...)'",
    handler: async ({ ctx, user, params }) => {
      const file = await exportDownload(ctx, user, Number(params.id));
      return new Response(Readable.toWeb(file.open()) as ReadableStream<Uint8Array>, {
        headers: {
          'content-type': 'application/zip',
          'content-disposition': `attachment; filename="${file.fileName}"`,
          'content-length': String(file.size),
        },
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/export/files/delete-old',
    group: 'shared',
    tag: 'exports',
    summary: `Delete exports older than {days?: number (min ${EXPORT_RETENTION_DAYS}, default ${EXPORT_RETENTION_DAYS})} and their zips (auditors: their own) -> {deleted}`,
    body: z.object({ days: z.coerce.number().int().min(EXPORT_RETENTION_DAYS).optional() }),
    response: z.strictObject({ deleted: z.number().int() }),
    handler: async ({ ctx, user, body }) => ({ deleted: await deleteOldExports(ctx, user, { olderThanDays: body.days }) }),
  }),
];
