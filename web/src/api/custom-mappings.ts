/** Typed calls of the auditor Custom Mapping tab (auditor spec 2.3, 5, 7: `/mappings/*`, `/user/fundsByTpa`, `/fund/rerun`). */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** A mapping (spec section 3 "Mapping") as the listing answers it. */
export type MappingRow = ApiResponse<'GET /api/v2.0/mappings'>[number];
/** A mapping as stored, as an upload answers it. */
export type StoredMapping = ApiResponse<'POST /api/v2.0/mappings/create'>;

/** Modes of an upload: a new custom mapping or an update of one; master (delivery Live mappings) replaces a TPA's master mapping. */
export type MappingMode = 'master' | 'custom' | 'update-custom';
/** The modes offered in the auditor area. */
export type CustomMode = Exclude<MappingMode, 'master'>;

/** Every mapping visible to the user. */
export function fetchMappings(): Promise<MappingRow[]> {
  return call('GET /api/v2.0/mappings', {});
}

/** Upload fields of a custom mapping. */
export interface CustomMappingUpload {
  administrator: string;
  mappingType: string;
  mappingMode: MappingMode;
  mappingName?: string;
  customId?: number;
  clientName?: string;
  rationale?: string;
  file: File;
}

/** Creates or updates a custom mapping from a csv (failures handled by the caller: banners). */
export function uploadCustomMapping(u: CustomMappingUpload): Promise<StoredMapping> {
  const form = new FormData();
  form.append('administrator', u.administrator);
  form.append('mappingType', u.mappingType);
  form.append('mappingMode', u.mappingMode);
  if (u.mappingName) form.append('mappingName', u.mappingName);
  if (u.customId) form.append('customId', String(u.customId));
  if (u.clientName) form.append('clientName', u.clientName);
  if (u.rationale) form.append('rationale', u.rationale);
  form.append('upload', u.file, u.file.name);
  return call('POST /api/v2.0/mappings/create', { body: form }, { suppressError: true });
}

/** Deletes a custom mapping (failure handled by the caller). */
export function deleteMapping(id: number) {
  return call('POST /api/v2.0/mappings/delete', { body: { id } }, { suppressError: true });
}

/** Deletes the selected custom mappings at once (Live mappings 'Delete selected'; failure handled by the caller). */
export function deleteSelectedMappings(ids: number[]) {
  return call('POST /api/v2.0/mappings/delete-selected-custom-mappings', { body: { ids } }, { suppressError: true });
}

/** Assigns a custom mapping to funds (Apply Selected). */
export function assignMapping(fundRequestIds: number[], mappingId: number) {
  return call('POST /api/v2.0/mappings/assign-bulk', { body: { fundRequestIds, mappingId } });
}

/** Removes fund-mapping pairs (Reset Selected). */
export function removeMappings(fundMappingPairs: Array<{ fundRequestId: number; mappingId: number }>) {
  return call('POST /api/v2.0/mappings/remove-bulk', { body: { fundMappingPairs } });
}

/** A page of one administrator's funds. */
export function fetchFundsByTpa(tpa: string, offset = 0, limit = 1000) {
  return call('POST /api/v2.0/user/fundsByTpa', { body: { offset, limit, tpa } });
}

/** Reruns funds (Rerun Selected); a refusal is handled by the caller (no redirect). */
export function rerunFunds(ids: number[]) {
  return call('POST /api/v2.0/fund/rerun', { body: { ids } }, { suppressError: true, noAuthRedirect: true });
}
