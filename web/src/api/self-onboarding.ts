/** Typed calls of the Self-Onboarding wizard (auditor spec 2.4 and 7: `/sdm-upload/*`). */
import { api } from './client';

/** A TPA with its master mappings. */
export interface SdmTpa {
  id: number;
  code: string;
  name: string;
  mappings: Array<{ id: number; type: string }>;
}

/** Feedback on a new TPA name. */
export interface TpaNameCheck {
  status: 'New' | 'Administrator already exist' | 'Invalid';
  message: string;
}

/** Validation of one mapping file. */
export interface MappingValidation {
  valid: boolean;
  error: string | null;
  errors: string[];
  totalErrorsFound: number;
  maxErrorsNo: number;
  fileName: string;
}

/** A file of an upload. */
export interface SdmFile {
  id: number;
  file_name: string;
  status: 'Uploading' | 'Validated' | 'Uploaded' | 'Error' | string;
  type: 'FundRequest' | 'SDM' | string;
  sub_type: string;
  errors: string[];
  received_at: string | null;
}

/** A self-onboarding upload. */
export interface SdmUpload {
  id: number;
  status: string;
  force_run: boolean;
  administrator: { id: number; code: string; name: string } | null;
  uploaded_files: SdmFile[];
  sdmTypes: string[];
  mappingTypes: string[];
  validationResults: Record<string, unknown>;
  warnings?: string[];
}

/** Mapping changes sent with create. */
export interface TouchedMappings {
  deletedMappings: string[];
  newMappings: string[];
  updatedMappings: string[];
}

/** The TPAs to choose from. */
export function fetchSdmTpas(): Promise<SdmTpa[]> {
  return api.get<SdmTpa[]>('/sdm-upload/administrators');
}

/** Live feedback on a new TPA name (background call: errors are not notified). */
export function checkTpaName(code: string, signal?: AbortSignal): Promise<TpaNameCheck> {
  return api.get<TpaNameCheck>(`/sdm-upload/check-name?code=${encodeURIComponent(code)}`, { signal, suppressError: true });
}

function mappingForm(files: File[], code: string): FormData {
  const form = new FormData();
  for (const f of files) form.append('mappings', f, f.name);
  form.append('code', code);
  return form;
}

/** Validates mapping files; results by mapping type (or file name for a file of no known type). */
export function validateMappings(files: File[], code: string): Promise<Record<string, MappingValidation>> {
  return api.upload<Record<string, MappingValidation>>('/sdm-upload/validate-mappings', mappingForm(files, code), { suppressError: true });
}

/** Creates the TPA when new, saves its mappings and opens an upload (failures handled by the caller). */
export function createSdmUpload(files: File[], code: string, name: string | undefined, touched: TouchedMappings): Promise<SdmUpload> {
  const form = mappingForm(files, code);
  if (name) form.append('name', name);
  form.append('touchedMappings', JSON.stringify(touched));
  return api.upload<SdmUpload>('/sdm-upload/create', form, { suppressError: true });
}

/** Adds a fund request or SDM file to an upload (failure handled by the caller: shown under Failed files). */
export function addSdmFile(uploadId: number, file: File): Promise<SdmFile> {
  const form = new FormData();
  form.append('upload', file, file.name);
  form.append('sdmUploadId', String(uploadId));
  return api.upload<SdmFile>('/sdm-upload/add-file', form, { suppressError: true });
}

/** Processes an upload. */
export function processSdmUpload(id: number, forceRun: boolean): Promise<SdmUpload> {
  return api.post<SdmUpload>('/sdm-upload/process', { id, isSelfOnboarded: true, forceRun });
}

/** An upload with its files. */
export function fetchSdmUpload(id: number): Promise<SdmUpload> {
  return api.post<SdmUpload>('/sdm-upload/info', { id });
}
