/**
 * PowerBI inputs (delivery spec "PowerBI inputs"; section 7 `POST /pbi-inputs/list`, `GET
 * /pbi-inputs/types`, `POST pbi-inputs/save`): answered 409 while the `pbiInputs` setting is off.
 * A saved file is read back with its own file token (the SAS token) at `GET
 * /pbi-inputs/file/{id}?token=`, which needs no session: that is the address PowerBI reads.
 */
import { z } from 'zod';
import { listPbiInputs, listPbiInputTypes, openPbiInput, pbiListSchema } from '../../services/pbi-inputs/pbi-inputs.js';
import { savePbiInputOffThread } from '../../threads/pbi-inputs/off-thread.js';
import { fileResponse, formFiles, readStaged } from '../multipart.js';
import { requiredFormText } from '../schemas/form-fields.js';
import { pbiInputPageSchema, savedPbiInputSchema } from '../schemas/pbi-inputs.js';
import { defineRoute, withMessage } from '../route.js';

const ROW =
  '{id, pbi_input_type, pbi_input_type_name, file_name, sas_token (masked), uploaded_by, token_expiry_date, token_expired, upload_date, created_at, size, row_count}';

export const pbiInputRoutes = [
  defineRoute({
    method: 'GET',
    path: '/pbi-inputs/types',
    group: 'delivery',
    tag: 'pbi-inputs',
    summary: 'The input types and the csv columns each needs -> [{code, name, description, columns}]',
    response: z.array(z.strictObject({ code: z.string(), name: z.string(), description: z.string(), columns: z.array(z.string()) })),
    handler: ({ ctx }) => listPbiInputTypes(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/pbi-inputs/list',
    group: 'delivery',
    tag: 'pbi-inputs',
    body: pbiListSchema,
    summary: `PowerBI input files, newest first (created_at) unless sorted {filters?, sorting?, offset?, limit? (10)} -> {rows: [${ROW}], pagination}`,
    response: pbiInputPageSchema,
    handler: ({ ctx, body }) => listPbiInputs(ctx, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/pbi-inputs/save',
    group: 'delivery',
    tag: 'pbi-inputs',
    multipart: true,
    form: z.object({
      pbiInputsTypes: requiredFormText('Choose an input type before uploading a file', 'PowerBI input type code'),
      upload: formFiles({ what: 'csv file', aliases: ['file'], description: 'The .csv' }),
    }),
    summary: `Save a PowerBI input csv (multipart: 'pbiInputsTypes' = input type code, one .csv in 'upload'): checked against the type's columns, stored, given a file token -> ${ROW} + {token (shown once), url}`,
    response: savedPbiInputSchema,
    handler: async ({ ctx, user, event, form }) => {
      const [file] = await readStaged(form.upload);
      const base = ctx.config.publicUrl ?? `${new URL(event.req.url).origin}${ctx.config.basePath ?? ''}`;
      const saved = await savePbiInputOffThread(ctx, user, { pbiInputsTypes: form.pbiInputsTypes, fileName: file.fileName, bytes: file.bytes }, base);
      return withMessage(saved, `${saved.file_name} uploaded`);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/pbi-inputs/file/:id',
    group: 'public',
    tag: 'pbi-inputs',
    raw: true,
    query: z.object({ token: z.string().optional() }),
    summary:
      'A PowerBI input file by its own file token ?token= (the SAS token given when it was saved; no session needed); 401 when the token is missing, expired or revoked',
    handler: async ({ ctx, params, query }) => {
      const file = await openPbiInput(ctx, Number(params.id), query.token);
      return fileResponse(file.bytes, file.fileName, 'text/csv; charset=utf-8');
    },
  }),
];
