/** Self-onboarding (auditor spec section 7: `/sdm-upload/*`). */
import { z } from 'zod';
import { ValidationError } from '../../errors.js';
import {
  addSdmFileOffThread,
  createSdmUploadOffThread,
  processSdmUploadOffThread,
  validateMappingFilesOffThread,
} from '../../threads/sdm-upload/off-thread.js';
import { checkTpaName, sdmAdministrators, sdmUploadInfo } from '../../services/sdm-upload/sdm-upload.js';
import { filesOf, readForm, singleFile, type UploadForm } from '../multipart.js';
import { mappingValidationsSchema, sdmAdministratorSchema, sdmFileSchema, sdmProcessedSchema, sdmUploadSchema, tpaNameCheckSchema } from '../schemas/tpa.js';
import { defineRoute } from '../route.js';

const id = z.coerce.number().int().positive();

/** Mapping files of a multipart form (field 'mappings', also 'files' or 'upload'). */
async function mappingFiles(form: UploadForm) {
  return [...(await filesOf(form, 'mappings')), ...(await filesOf(form, 'files')), ...(await filesOf(form, 'upload'))];
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
    multipartFields: {
      mappings: {
        kind: 'file',
        required: true,
        multiple: true,
        description: "Mapping .csv files named <mapping type>.csv (also accepted as 'files' or 'upload')",
      },
    },
    summary: "Validate mapping csv files (multipart 'mappings', id, code); results per mapping type",
    response: mappingValidationsSchema,
    handler: async ({ ctx, event }) => {
      const files = await mappingFiles(await readForm(event, ctx));
      if (!files.length) throw new ValidationError('In order to validate, upload mapping files');
      return validateMappingFilesOffThread(ctx, files);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sdm-upload/create',
    group: 'auditor',
    tag: 'self-onboarding',
    multipart: true,
    multipartFields: {
      code: { kind: 'text', required: true, description: 'TPA code (created when new)' },
      name: { kind: 'text', description: 'TPA name' },
      touchedMappings: { kind: 'text', description: 'JSON array of the mapping types changed by the user' },
      mappings: { kind: 'file', multiple: true, description: "Master mapping .csv files (also accepted as 'files' or 'upload')" },
    },
    summary: 'Create the TPA when new, save its master mappings and open an upload (multipart mappings, id, code, name, touchedMappings JSON)',
    response: sdmUploadSchema,
    handler: async ({ ctx, user, event }) => {
      const form = await readForm(event, ctx);
      const code = String(form.get('code') ?? '').trim();
      if (!code) throw new ValidationError('Choose or create a TPA');
      let touched: unknown;
      try {
        touched = form.get('touchedMappings') ? JSON.parse(String(form.get('touchedMappings'))) : undefined;
      } catch {
        throw new ValidationError('touchedMappings is not valid JSON');
      }
      return createSdmUploadOffThread(ctx, user, {
        code,
        name: form.get('name') ? String(form.get('name')) : undefined,
        files: await mappingFiles(form),
        touchedMappings: touched as never,
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/sdm-upload/add-file',
    group: 'auditor',
    tag: 'self-onboarding',
    multipart: true,
    multipartFields: {
      sdmUploadId: { kind: 'text', required: true, description: 'Id of the upload (integer)' },
      upload: {
        kind: 'file',
        required: true,
        description: "a fund request or SDM .csv: named after its type (fund_request.csv, <sdm type>.csv) or under the TPA's own name (typed by its header)",
      },
    },
    summary:
      'Add a fund request or SDM csv to an upload, named after its type or typed by its header (multipart upload, sdmUploadId) -> the file, Validated or Error',
    response: sdmFileSchema,
    handler: async ({ ctx, event }) => {
      const form = await readForm(event, ctx);
      const sdmUploadId = Number(form.get('sdmUploadId'));
      if (!Number.isInteger(sdmUploadId) || sdmUploadId <= 0) throw new ValidationError('sdmUploadId is required');
      return addSdmFileOffThread(ctx, { sdmUploadId, file: await singleFile(form, 'upload', '.csv file') });
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
