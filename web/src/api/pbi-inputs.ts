/** PowerBI inputs calls (delivery spec section 7: `POST /pbi-inputs/list`, `GET /pbi-inputs/types`, `POST pbi-inputs/save`). */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';
import type { PageOf, SortSpec } from './delivery-types';

/** A PowerBI input file as listed. */
export type PbiInputView = ApiResponse<'POST /api/v2.0/pbi-inputs/list'>['rows'][number];
/** A saved input file with its file token (shown once) and the address that reads it. */
export type SavedPbiInput = ApiResponse<'POST /api/v2.0/pbi-inputs/save'>;
/** A PowerBI input type and the columns its csv must have. */
export type PbiInputType = ApiResponse<'GET /api/v2.0/pbi-inputs/types'>[number];

/** The input types. */
export const fetchPbiTypes = () => call('GET /api/v2.0/pbi-inputs/types', {});

/** One page of PowerBI input files (newest first when `sorting` is empty). */
export function fetchPbiInputs(offset: number, limit: number, signal?: AbortSignal, sorting: readonly SortSpec[] = []): Promise<PageOf<PbiInputView>> {
  return call('POST /api/v2.0/pbi-inputs/list', { body: { offset, limit, sorting: [...sorting] } }, { signal, suppressError: true });
}

/** Saves a csv of an input type; the failure is handled by the caller. */
export function savePbiInput(type: string, file: File): Promise<SavedPbiInput> {
  const form = new FormData();
  form.append('pbiInputsTypes', type);
  form.append('upload', file, file.name);
  return call('POST /api/v2.0/pbi-inputs/save', { body: form }, { suppressError: true, suppressSuccess: true });
}
