/** Self-onboarding (auditor spec section 7: `/sdm-upload/*`). */
import { z } from 'zod';
import {
  addSdmFileOffThread,
  createSdmUploadOffThread,
  processSdmUploadOffThread,
  validateMappingFilesOffThread,
} from '../../threads/sdm-upload/off-thread.js';
import { checkTpaName, sdmAdministrators, sdmUploadInfo } from '../../services/sdm-upload/sdm-upload.js';
import { formFiles, readStaged } from '../multipart.js';
import { formId, optionalFormJson, optionalFormText, requiredFormText } from '../schemas/form-fields.js';
import {
  mappingValidationsSchema,
  sdmAdministratorSchema,
  sdmFileSchema,
  sdmProcessedSchema,
  sdmUploadSchema,
  tpaNameCheckSchema,
  touchedMappingsSchema,
} from '../schemas/tpa.js';
import { defineRoute } from '../route.js';

const id = z.coerce.number().int().positive();

/** The mapping .csv files part of a form: field 'mappings', also read from 'files' or 'upload'. */
function mappingFiles(opts: { description: string; min: number; missing?: string }) {
  return formFiles({ ...opts, max: Infinity, what: 'mapping file', aliases: ['files', 'upload'] });
}

export const sdmUploadRoutes = [
  defineRoute({
    method: 'GET',
    path: '/sdm-upload/administrators',
    group: 'auditor',
    tag: 'self-onboarding',
    summary: 'TPAs with their master mapping ids by type',
    response: z.array(sdmAdministratorSchema),
    handler: ({ ctx }) => sdmAdministrators(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/sdm-upload/check-name',
    group: 'auditor',
    tag: 'self-onboarding',
    summary: "Feedback on a new TPA name: 'New', 'Administrator already exist' or the name rule",
    query: z.object({ code: z.string() }),
    response: tpaNameCheckSchema,
    handler: ({ ctx, query }) => checkTpaName(ctx, query.code),
  }),
  defineRoute({
    method: 'POST',
    path: '/sdm-upload/validate-mappings',
    group: 'auditor',
    tag: 'self-onboarding',
    multipart: true,
    form: z.object({
      mappings: mappingFiles({
        description: 'Mapping .csv files named <mapping type>.csv',
        min: 1,
        missing: 'In order to validate, upload mapping files',
      }),
    }),
    summary: "Validate mapping csv files (multipart 'mappings', id, code); results per mapping type",
    response: mappingValidationsSchema,
    handler: async ({ ctx, form }) => validateMappingFilesOffThread(ctx, await readStaged(form.mappings)),
  }),
  defineRoute({
    method: 'POST',
    path: '/sdm-upload/create',
    group: 'auditor',
    tag: 'self-onboarding',
    multipart: true,
    form: z.object({
      code: requiredFormText('Choose or create a TPA', 'TPA code (created when new)'),
      name: optionalFormText('TPA name'),
      touchedMappings: optionalFormJson(
        touchedMappingsSchema,
        'touchedMappings is not valid JSON',
        'JSON object of the mapping types changed by the user: {deletedMappings, newMappings, updatedMappings}',
      ),
      mappings: mappingFiles({ description: 'Master mapping .csv files', min: 0 }),
    }),
    summary: 'Create the TPA when new, save its master mappings and open an upload (multipart mappings, id, code, name, touchedMappings JSON)',
    response: sdmUploadSchema,
    handler: async ({ ctx, user, form }) =>
      createSdmUploadOffThread(ctx, user, {
        code: form.code,
        name: form.name,
        files: await readStaged(form.mappings),
        touchedMappings: form.touchedMappings,
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/sdm-upload/add-file',
    group: 'auditor',
    tag: 'self-onboarding',
    multipart: true,
    form: z.object({
      sdmUploadId: formId('sdmUploadId is required', 'Id of the upload (integer)'),
      upload: formFiles({
        what: '.csv file',
        description: "a fund request or SDM .csv: named after its type (fund_request.csv, <sdm type>.csv) or under the TPA's own name (typed by its header)",
      }),
    }),
    summary:
      'Add a fund request or SDM csv to an upload, named after its type or typed by its header (multipart upload, sdmUploadId) -> the file, Validated or Error',
    response: sdmFileSchema,
    handler: async ({ ctx, form }) => {
      const [file] = await readStaged(form.upload);
      return addSdmFileOffThread(ctx, { sdmUploadId: form.sdmUploadId, file });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sdm-upload/process',
    group: 'auditor',
    tag: 'self-onboarding',
    summary: 'Process an upload: save its fund requests and import its SDM files ({id, isSelfOnboarded, forceRun})',
    body: z.object({ id, isSelfOnboarded: z.boolean().optional(), forceRun: z.boolean().optional() }),
    response: sdmProcessedSchema,
    handler: ({ ctx, user, body }) => processSdmUploadOffThread(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/sdm-upload/info',
    group: 'auditor',
    tag: 'self-onboarding',
    summary: 'An upload with its files, SDM and mapping types and validation results',
    body: z.object({ id }),
    response: sdmUploadSchema,
    handler: ({ ctx, body }) => sdmUploadInfo(ctx, body.id),
  }),
];
