/** Live and custom mappings (spec section 7 mapping calls of both documents). */
import { z } from 'zod';
import { deleteMappings, listMappingsFor, mappingTypes, mappingTypesForFund } from '../../services/mappings/mappings.js';
import { assignMapping, removeMappings } from '../../services/mappings/assignments.js';
import { mappingCsv, customMappingReport } from '../../services/mappings/downloads.js';
import { createMappingOffThread } from '../../threads/mappings/off-thread.js';
import { diffMappingVersions, mappingHistory } from '../../services/mappings/versions.js';
import { fileResponse, formFiles, readStaged } from '../multipart.js';
import { optionalFormText, requiredFormText } from '../schemas/form-fields.js';
import { defineRoute } from '../route.js';
import {
  fundMappingTypesSchema,
  mappingAssignedSchema,
  mappingDiffSchema,
  mappingHistorySchema,
  mappingListSchema,
  mappingsDeletedSchema,
  mappingsRemovedSchema,
  mappingTypesSchema,
  storedMappingSchema,
} from '../schemas/mappings.js';

const id = z.coerce.number().int().positive();
const MODE_MESSAGE = 'mappingMode must be master, custom or update-custom';

export const mappingRoutes = [
  defineRoute({
    method: 'GET',
    path: '/mappings',
    group: 'shared',
    tag: 'mappings',
    summary:
      'Active mappings with administrator, owner, canLiveMappingBeDeleted, blocking fundRequests and canToggle (the caller may select it: custom, and the creator or a delivery team member)',
    response: mappingListSchema,
    handler: ({ ctx, user }) => listMappingsFor(ctx, user),
  }),
  defineRoute({
    method: 'GET',
    path: '/mappings/types/:administratorCode',
    group: 'shared',
    tag: 'mappings',
    summary: "A TPA's mapping types with the mappings of each",
    response: mappingTypesSchema,
    handler: ({ ctx, params }) => mappingTypes(ctx, params.administratorCode),
  }),
  defineRoute({
    method: 'GET',
    path: '/mappings/types-for-fund-request/:id',
    group: 'shared',
    tag: 'mappings',
    summary: "A fund's mapping types with the mapping in use (assigned custom, else master)",
    response: fundMappingTypesSchema,
    handler: ({ ctx, params }) => mappingTypesForFund(ctx, Number(params.id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/mappings/create',
    group: 'shared',
    tag: 'mappings',
    multipart: true,
    form: z.object({
      mappingMode: z
        .string({ error: MODE_MESSAGE })
        .trim()
        .pipe(z.enum(['master', 'custom', 'update-custom'], { error: MODE_MESSAGE }))
        .describe('master, custom or update-custom'),
      administrator: requiredFormText('Choose an administrator', 'TPA code'),
      mappingType: requiredFormText('Choose a mapping type', 'Mapping type code'),
      mappingName: optionalFormText('Name of the mapping'),
      customId: optionalFormText('Id of the custom mapping to update (update-custom)').transform((v) => (v ? Number(v) : undefined)),
      clientName: optionalFormText('Client of a custom mapping'),
      rationale: optionalFormText('Why the mapping is added or changed'),
      upload: formFiles({ what: 'mapping csv', description: 'The mapping .csv' }),
    }),
    summary:
      'Upload a mapping csv: multipart mappingName, mappingType, mappingMode (master | custom | update-custom), administrator, customId, rationale, clientName, upload',
    response: storedMappingSchema,
    handler: async ({ ctx, user, form }) => {
      const { upload, ...fields } = form;
      const [file] = await readStaged(upload);
      return createMappingOffThread(ctx, user, { ...fields, fileName: file.fileName, bytes: file.bytes });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/mappings/delete',
    group: 'shared',
    tag: 'mappings',
    summary: 'Delete a custom mapping (only when canLiveMappingBeDeleted)',
    body: z.object({ id }),
    response: mappingsDeletedSchema,
    handler: ({ ctx, user, body }) => deleteMappings(ctx, user, [body.id]),
  }),
  defineRoute({
    method: 'POST',
    path: '/mappings/delete-selected-custom-mappings',
    group: 'delivery',
    tag: 'mappings',
    summary: 'Delete several custom mappings',
    body: z.object({ ids: z.array(id).min(1) }),
    response: mappingsDeletedSchema,
    handler: ({ ctx, user, body }) => deleteMappings(ctx, user, body.ids),
  }),
  defineRoute({
    method: 'POST',
    path: '/mappings/assign',
    group: 'delivery',
    tag: 'mappings',
    summary: 'Assign a custom mapping to a fund and rerun it from standardization',
    body: z.object({ fundRequestId: id, mappingId: id }),
    response: mappingAssignedSchema,
    handler: ({ ctx, user, body }) => assignMapping(ctx, user, { fundRequestIds: [body.fundRequestId], mappingId: body.mappingId }),
  }),
  defineRoute({
    method: 'POST',
    path: '/mappings/remove',
    group: 'delivery',
    tag: 'mappings',
    summary: 'Remove a custom mapping from a fund and rerun it from standardization',
    body: z.object({ fundRequestId: id, mappingId: id }),
    response: mappingsRemovedSchema,
    handler: ({ ctx, user, body }) => removeMappings(ctx, user, [body]),
  }),
  defineRoute({
    method: 'POST',
    path: '/mappings/assign-bulk',
    group: 'shared',
    tag: 'mappings',
    summary: 'Assign a custom mapping to several funds (Apply Selected)',
    body: z.object({ fundRequestIds: z.array(id).min(1, 'Select at least one fund'), mappingId: id }),
    response: mappingAssignedSchema,
    handler: ({ ctx, user, body }) => assignMapping(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/mappings/remove-bulk',
    group: 'shared',
    tag: 'mappings',
    summary: 'Remove fund-mapping pairs (Reset Selected)',
    body: z.object({ fundMappingPairs: z.array(z.object({ fundRequestId: id, mappingId: id })).min(1, 'Select at least one fund') }),
    response: mappingsRemovedSchema,
    handler: ({ ctx, user, body }) => removeMappings(ctx, user, body.fundMappingPairs),
  }),
  defineRoute({
    method: 'GET',
    path: '/mappings/download',
    group: 'shared',
    tag: 'mappings',
    tokenFrom: 'query',
    raw: true,
    summary: 'Download a mapping as csv (?id=&token= download token; &version= one of its versions, default the current content)',
    query: z.object({ id, token: z.string(), version: id.optional() }),
    handler: async ({ ctx, query }) => {
      const f = await mappingCsv(ctx, query.id, query.version);
      return fileResponse(f.text, f.fileName, 'text/csv; charset=utf-8');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/mappings/:id/history',
    group: 'shared',
    tag: 'mappings',
    summary: "A mapping's versions, newest first: number, sha256, author, reason, time, row count, current, and the funds each version fed",
    response: mappingHistorySchema,
    handler: ({ ctx, params }) => mappingHistory(ctx, Number(params.id)),
  }),
  defineRoute({
    method: 'GET',
    path: '/mappings/:id/diff',
    group: 'shared',
    tag: 'mappings',
    summary: 'Rows added, removed and changed between two versions of a mapping (?from=&to=)',
    query: z.object({ from: id, to: id }),
    response: mappingDiffSchema,
    handler: ({ ctx, params, query }) => diffMappingVersions(ctx, Number(params.id), query.from, query.to),
  }),
  defineRoute({
    method: 'GET',
    path: '/mappings/custom-mapping-info',
    group: 'shared',
    tag: 'mappings',
    tokenFrom: 'query',
    raw: true,
    summary: 'Report of custom mappings and the funds using them (csv; ?token= download token)',
    handler: async ({ ctx }) => fileResponse(await customMappingReport(ctx), 'custom_mapping_info.csv', 'text/csv; charset=utf-8'),
  }),
];
