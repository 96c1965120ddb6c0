/** Import files (spec delivery "Import files": `POST import/files`, `POST /import/list`). */
import { z } from 'zod';
import { importFile, listImports } from '../../services/imports/imports.js';
import { formFiles, type StagedUpload } from '../multipart.js';
import { defineRoute } from '../route.js';
import { importPageSchema, importViewSchema } from '../schemas/imports.js';

export const importRoutes = [
  defineRoute({
    method: 'POST',
    path: '/import/files',
    group: 'delivery',
    tag: 'imports',
    multipart: true,
    form: z.object({
      administrator: z
        .string({ error: 'Choose an administrator before importing files' })
        .min(1, 'Choose an administrator before importing files')
        .describe('TPA code'),
      upload: formFiles({ description: 'One or more TPA files', max: 1000, aliases: ['files'] }),
    }),
    summary:
      "Import TPA files (multipart: field 'administrator' = TPA code, one or more files in 'upload'); each is stored unchanged and queued for identification -> [import file]",
    response: z.array(importViewSchema),
    handler: async ({ ctx, user, form }) => {
      const { administrator, upload } = form as { administrator: string; upload: StagedUpload[] };
      const views = [];
      for (const f of upload)
        views.push(await importFile(ctx, { administratorCode: administrator, fileName: f.fileName, staged: f, userId: user.id, source: 'upload' }));
      return views;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/import/list',
    group: 'delivery',
    tag: 'imports',
    summary:
      'Import files (newest first unless sorting [{field: administrator|fileName|type|subType|status|created_at, order}]) with status Awaiting, Processing, Success or Error (payload.error)',
    body: z.object({
      filters: z
        .object({ administrator: z.string().optional(), status: z.array(z.string()).optional() })
        .partial()
        .optional(),
      sorting: z
        .array(z.object({ field: z.string(), order: z.enum(['asc', 'desc']).optional() }))
        .max(6)
        .nullish(),
      offset: z.coerce.number().int().min(0).optional(),
      pagination: z
        .object({ limit: z.coerce.number().int().min(1).max(1000) })
        .partial()
        .optional(),
    }),
    response: importPageSchema,
    handler: ({ ctx, body }) => listImports(ctx, { offset: body.offset, limit: body.pagination?.limit, filters: body.filters, sorting: body.sorting }),
  }),
];
