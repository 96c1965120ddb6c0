/**
 * Pure rules of the Self-Onboarding wizard (auditor spec 2.4, 4 "SDM wizard steps", 5): steps,
 * mapping chip states, which mapping types are needed, file names, when Process is offered and the
 * per-type progress while processing.
 */
import type { MappingValidation, SdmFile } from '../../../api/self-onboarding';
import { MAPPING_TYPES } from '../../../components/mappings/mapping-rules';

/** Steps of the wizard, in order. */
export const WIZARD_STEPS = [
  { key: 'SelectTpa', label: 'Select TPA' },
  { key: 'CreateTpa', label: 'Create TPA' },
  { key: 'MasterMappings', label: 'Master mappings' },
  { key: 'Files', label: 'Drop files' },
  { key: 'Review', label: 'Process' },
] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number]['key'];

/** Mapping types, in the order the wizard lists them (the same list the upload form offers). */
export { MAPPING_TYPES };

/** Mapping types a TPA needs before files can be processed. */
export const REQUIRED_MAPPING_TYPES = ['file_layout', 'account_mapping', 'instrument_mapping'];

/** SDM file types (plus fund_request) accepted on the files step. */
export const SDM_FILE_TYPES = ['trial_balance', 'holdings', 'transactions', 'share_capital', 'prices', 'fx_rates'];

export const INVALID_MAPPING_FILE = 'Invalid file - Please upload a .csv file that matches one of the mapping names.';

/** The step an upload leads to: Created stays on files, any other status goes to review; none goes back to TPA selection. */
export function stepForUpload(upload: { status: string } | null): WizardStep {
  if (!upload) return 'SelectTpa';
  return upload.status === 'Created' ? 'Files' : 'Review';
}

/** The mapping type a file name is for ('account_mapping.csv' -> account_mapping), or null. */
export function mappingTypeOf(fileName: string): string | null {
  const m = /^(.+)\.csv$/i.exec(fileName.trim());
  const base = m?.[1]?.toLowerCase() ?? '';
  return (MAPPING_TYPES as readonly string[]).includes(base) ? base : null;
}

/** The SDM sub type of a file name (fund_request included), or null when the name is not one of them. */
export function sdmTypeOf(fileName: string): string | null {
  const m = /^(.+)\.csv$/i.exec(fileName.trim());
  const base = m?.[1]?.toLowerCase() ?? '';
  return base === 'fund_request' || SDM_FILE_TYPES.includes(base) ? base : null;
}

/** Chip states of a mapping type. */
export type ChipState = 'not uploaded' | 'uploaded and invalid' | 'uploaded and valid' | 'uploaded' | 'existing and unchanged' | 'existing and replaced';

/** The chip state of a mapping type from what exists, what was uploaded and the validation result. */
export function chipState(existing: boolean, uploaded: boolean, result: MappingValidation | undefined): ChipState {
  if (uploaded) {
    if (!result) return existing ? 'existing and replaced' : 'uploaded';
    if (!result.valid) return 'uploaded and invalid';
    return existing ? 'existing and replaced' : 'uploaded and valid';
  }
  return existing ? 'existing and unchanged' : 'not uploaded';
}

/**
 * Whether 'Save & Next' may go on: every uploaded file validated and valid, and every needed type
 * either existing or uploaded.
 */
export function canSaveMappings(
  existingTypes: readonly string[],
  uploadedTypes: readonly string[],
  results: Record<string, MappingValidation | undefined>,
): boolean {
  if (uploadedTypes.some((t) => !results[t]?.valid)) return false;
  return REQUIRED_MAPPING_TYPES.every((t) => existingTypes.includes(t) || uploadedTypes.includes(t));
}

/** Mapping changes of a save: new types, replaced types (nothing is deleted by the wizard). */
export function touchedMappings(existingTypes: readonly string[], uploadedTypes: readonly string[]) {
  return {
    deletedMappings: [] as string[],
    newMappings: uploadedTypes.filter((t) => !existingTypes.includes(t)),
    updatedMappings: uploadedTypes.filter((t) => existingTypes.includes(t)),
  };
}

/** Process is offered with at least one fund request file and one SDM file ready. */
export function canProcess(files: readonly SdmFile[]): boolean {
  const ready = files.filter((f) => f.status === 'Validated');
  return ready.some((f) => f.type === 'FundRequest') && ready.some((f) => f.type === 'SDM');
}

/** Whether processing is still going on (a file Validated or Uploading). */
export function isProcessing(files: readonly SdmFile[]): boolean {
  return files.some((f) => f.status === 'Validated' || f.status === 'Uploading');
}

/** Share of Uploaded files per type (fund request and each SDM sub type), for files taking part. */
export function progressByType(files: readonly SdmFile[]): Array<{ type: string; done: number; total: number }> {
  const byType = new Map<string, { done: number; total: number }>();
  for (const f of files) {
    if (f.status === 'Error') continue;
    const key = f.type === 'FundRequest' ? 'fund_request' : (f.sub_type ?? '');
    const e = byType.get(key) ?? { done: 0, total: 0 };
    e.total++;
    if (f.status === 'Uploaded') e.done++;
    byType.set(key, e);
  }
  return [...byType].map(([type, e]) => ({ type, ...e }));
}

/** Replaces the file of a pushed 'upload-file' event by id (or adds it). */
export function mergeFile(files: readonly SdmFile[], file: SdmFile): SdmFile[] {
  return files.some((f) => f.id === file.id) ? files.map((f) => (f.id === file.id ? file : f)) : [...files, file];
}
