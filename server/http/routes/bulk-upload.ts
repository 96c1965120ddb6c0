/** Bulk upload of fund requests: template, delivery validate + save, auditor upload (spec section 7). */
import { z } from 'zod';
import { MAX_BULK_SAVE } from '../../services/bulk-upload/bulk-upload.js';
import { saveBulkFundsOffThread, uploadAndSaveBulkOffThread, validateBulkUploadEncoded } from '../../threads/bulk-upload/off-thread.js';
import { bulkTemplateCsv, TEMPLATE_FILE_NAME } from '../../services/bulk-upload/template.js';
import { fileResponse, formFiles, readStaged, type StagedUpload } from '../multipart.js';
import { defineRoute, SerializedPayload } from '../route.js';
import { auditorBulkResultSchema, bulkSaveResultSchema, bulkUploadResultSchema } from '../schemas/bulk-upload.js';

export const bulkUploadRoutes = [
  defineRoute({
    method: 'GET',
    path: '/fund-request/download',
    group: 'shared',
    tag: 'bulk-upload',
    tokenFrom: 'query',
    raw: true,
    summary: 'The bulk-upload CSV template with one example row (download token in ?token=)',
    handler: () => fileResponse(bulkTemplateCsv(), TEMPLATE_FILE_NAME, 'text/csv; charset=utf-8'),
  }),
  defineRoute({
    method: 'POST',
    path: '/funds/upload',
    group: 'delivery',
    tag: 'bulk-upload',
    multipart: true,
    form: z.object({ upload: formFiles({ what: '.csv file', description: 'The bulk-upload .csv' }) }),
    summary: "Validate one .csv (multipart field 'upload'): rows classified accepted, editable (warnings) and declined (faults)",
    response: bulkUploadResultSchema,
    handler: async ({ ctx, form }) => {
      const [file] = await readStaged((form as { upload: StagedUpload[] }).upload);
      return new SerializedPayload({ encoded: await validateBulkUploadEncoded(ctx, file.fileName, file.bytes) });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/funds',
    group: 'delivery',
    tag: 'bulk-upload',
    summary: `Save up to ${MAX_BULK_SAVE} validated bulk rows; returns saved and failed items with their errors`,
    body: z.object({ requestDate: z.string().optional(), funds: z.array(z.record(z.string(), z.unknown())).min(1, 'select at least one fund') }),
    response: bulkSaveResultSchema,
    handler: ({ ctx, user, body }) => saveBulkFundsOffThread(ctx, user, body as any, { overwrite: true, maxRows: MAX_BULK_SAVE }),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund-request/bulk',
    group: 'auditor',
    tag: 'bulk-upload',
    multipart: true,
    form: z.object({ upload: formFiles({ what: '.csv file', description: 'The bulk-upload .csv' }) }),
    summary: "Auditor bulk upload of one .csv (multipart field 'upload'): saves valid rows, returns saved[] and failed[]",
    response: auditorBulkResultSchema,
    handler: async ({ ctx, user, form }) => {
      const [file] = await readStaged((form as { upload: StagedUpload[] }).upload);
      return uploadAndSaveBulkOffThread(ctx, user, file.fileName, file.bytes);
    },
  }),
];
