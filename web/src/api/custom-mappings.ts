/** Typed calls of the auditor Custom Mapping tab (auditor spec 2.3, 5, 7: `/mappings/*`, `/user/fundsByTpa`, `/fund/rerun`). */
import { api } from './client';
import type { AuditorFundRow, PageOf } from './auditor-types';

/** A mapping (spec section 3 "Mapping"). */
export interface MappingRow {
  id: number;
  type: string;
  kind: 'master' | 'custom';
  description: string;
  owner: string | null;
  clientName: string | null;
  rationale: string | null;
  updated_at: string;
  administrator: { code: string; name: string; id: number };
  rowCount: number;
  canLiveMappingBeDeleted: boolean;
  /** fund requests using the mapping */
  fundRequests: Array<{ id: number; code: string | null }>;
  /** live funds the mapping feeds (a master: the TPA's funds with no custom mapping of its type) */
  funds?: Array<{ id: number; code: string | null }>;
  /** the current version of its content (Live mappings history) */
  version?: number;
  /** whether the user may select it on Live mappings (custom; its creator or a delivery team member) */
  canToggle?: boolean;
}

/** Modes of an upload: a new custom mapping or an update of one; master (delivery Live mappings) replaces a TPA's master mapping. */
export type MappingMode = 'master' | 'custom' | 'update-custom';
/** The modes offered in the auditor area. */
export type CustomMode = Exclude<MappingMode, 'master'>;

/** Every mapping visible to the user. */
export function fetchMappings(): Promise<MappingRow[]> {
  return api.get<MappingRow[]>('/mappings');
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
export function uploadCustomMapping(u: CustomMappingUpload): Promise<MappingRow> {
  const form = new FormData();
  form.append('administrator', u.administrator);
  form.append('mappingType', u.mappingType);
  form.append('mappingMode', u.mappingMode);
  if (u.mappingName) form.append('mappingName', u.mappingName);
  if (u.customId) form.append('customId', String(u.customId));
  if (u.clientName) form.append('clientName', u.clientName);
  if (u.rationale) form.append('rationale', u.rationale);
  form.append('upload', u.file, u.file.name);
  return api.upload<MappingRow>('/mappings/create', form, { suppressError: true });
}

/** Deletes a custom mapping (failure handled by the caller). */
export function deleteMapping(id: number): Promise<{ deleted: number[] }> {
  return api.post<{ deleted: number[] }>('/mappings/delete', { id }, { suppressError: true });
}

/** Deletes the selected custom mappings at once (Live mappings 'Delete selected'; failure handled by the caller). */
export function deleteSelectedMappings(ids: number[]): Promise<{ deleted: number[] }> {
  return api.post<{ deleted: number[] }>('/mappings/delete-selected-custom-mappings', { ids }, { suppressError: true });
}

/** Assigns a custom mapping to funds (Apply Selected). */
export function assignMapping(fundRequestIds: number[], mappingId: number): Promise<{ assigned: number[] }> {
  return api.post<{ assigned: number[] }>('/mappings/assign-bulk', { fundRequestIds, mappingId });
}

/** Removes fund-mapping pairs (Reset Selected). */
export function removeMappings(fundMappingPairs: Array<{ fundRequestId: number; mappingId: number }>): Promise<{ removed: number }> {
  return api.post<{ removed: number }>('/mappings/remove-bulk', { fundMappingPairs });
}

/** A page of one administrator's funds. */
export function fetchFundsByTpa(tpa: string, offset = 0, limit = 1000): Promise<PageOf<AuditorFundRow>> {
  return api.post<PageOf<AuditorFundRow>>('/user/fundsByTpa', { offset, limit, tpa });
}

/** Reruns funds (Rerun Selected); a refusal is handled by the caller (no redirect). */
export function rerunFunds(ids: number[]): Promise<unknown> {
  return api.post<unknown>('/fund/rerun', { ids }, { suppressError: true, noAuthRedirect: true });
}
