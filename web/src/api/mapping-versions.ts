/** Typed calls of a mapping's history on Live mappings: its versions and the difference between two. */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** A mapping's history: its versions, newest first (`GET /mappings/:id/history`). */
export type MappingHistory = ApiResponse<'GET /api/v2.0/mappings/:id/history'>;

/** One version of a mapping, with the fund requests whose standardization applied it. */
export type MappingVersion = MappingHistory['versions'][number];

/** Rows added, removed and changed from version `from` to version `to`. */
export type MappingVersionDiff = ApiResponse<'GET /api/v2.0/mappings/:id/diff'>;

/** The values of one mapping row by column. */
export type MappingRowValues = MappingVersionDiff['added'][number]['row'];

/** A mapping's versions; a failure is shown by the history dialog, in place (so it is not notified twice). */
export function fetchMappingHistory(id: number): Promise<MappingHistory> {
  return call('GET /api/v2.0/mappings/:id/history', { params: { id } }, { suppressError: true });
}

/** The difference between two versions of a mapping; a failure is shown by the history dialog, in place. */
export function fetchMappingDiff(id: number, from: number, to: number): Promise<MappingVersionDiff> {
  return call('GET /api/v2.0/mappings/:id/diff', { params: { id }, query: { from, to } }, { suppressError: true });
}
