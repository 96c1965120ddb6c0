/** Typed calls of the Self-Onboarding wizard (auditor spec 2.4 and 7: `/sdm-upload/*`); payload types are the API contract's. */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** A TPA with its master mappings. */
export type SdmTpa = ApiResponse<'GET /api/v2.0/sdm-upload/administrators'>[number];
/** Feedback on a new TPA name. */
export type TpaNameCheck = ApiResponse<'GET /api/v2.0/sdm-upload/check-name'>;
/** Validation of one mapping file. */
export type MappingValidation = ApiResponse<'POST /api/v2.0/sdm-upload/validate-mappings'>[string];
/** A file of an upload. */
export type SdmFile = ApiResponse<'POST /api/v2.0/sdm-upload/add-file'>;
/** A self-onboarding upload. */
export type SdmUpload = ApiResponse<'POST /api/v2.0/sdm-upload/info'>;
/** A processed upload, with the warnings of the rows and files that could not be saved. */
export type ProcessedSdmUpload = ApiResponse<'POST /api/v2.0/sdm-upload/process'>;
/** Mapping changes sent with create (kept in the upload's validation results). */
export type TouchedMappings = NonNullable<SdmUpload['validationResults']['touchedMappings']>;

/** The TPAs to choose from. */
export function fetchSdmTpas(): Promise<SdmTpa[]> {
  return call('GET /api/v2.0/sdm-upload/administrators', {});
}

/** Live feedback on a new TPA name (background call: errors are not notified). */
export function checkTpaName(code: string, signal?: AbortSignal): Promise<TpaNameCheck> {
  return call('GET /api/v2.0/sdm-upload/check-name', { query: { code } }, { signal, suppressError: true });
}

function mappingForm(files: File[], code: string): FormData {
  const form = new FormData();
  for (const f of files) form.append('mappings', f, f.name);
  form.append('code', code);
  return form;
}

/** Validates mapping files; results by mapping type (or file name for a file of no known type). */
export function validateMappings(files: File[], code: string): Promise<Record<string, MappingValidation>> {
  return call('POST /api/v2.0/sdm-upload/validate-mappings', { body: mappingForm(files, code) }, { suppressError: true });
}

/** Creates the TPA when new, saves its mappings and opens an upload (failures handled by the caller). */
export function createSdmUpload(files: File[], code: string, name: string | undefined, touched: TouchedMappings): Promise<SdmUpload> {
  const form = mappingForm(files, code);
  if (name) form.append('name', name);
  form.append('touchedMappings', JSON.stringify(touched));
  return call('POST /api/v2.0/sdm-upload/create', { body: form }, { suppressError: true });
}

/** Adds a fund request or SDM file to an upload (failure handled by the caller: shown under Failed files). */
export function addSdmFile(uploadId: number, file: File): Promise<SdmFile> {
  const form = new FormData();
  form.append('upload', file, file.name);
  form.append('sdmUploadId', String(uploadId));
  return call('POST /api/v2.0/sdm-upload/add-file', { body: form }, { suppressError: true });
}

/** Processes an upload. */
export function processSdmUpload(id: number, forceRun: boolean): Promise<ProcessedSdmUpload> {
  return call('POST /api/v2.0/sdm-upload/process', { body: { id, isSelfOnboarded: true, forceRun } });
}

/** An upload with its files. */
export function fetchSdmUpload(id: number): Promise<SdmUpload> {
  return call('POST /api/v2.0/sdm-upload/info', { body: { id } });
}
