/**
 * Typed calls of the delivery Fund details page (delivery spec section 7): file review, disable,
 * remove and reset; work paper release; processes with reset and cancel; the trail, orchestration
 * and error logs; review all, forced aggregation rerun and Db push; mappings of the fund.
 */
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';
import type { FundError } from './auditor-types';

/** One entry of a fund's user trail. */
export type TrailRow = ApiResponse<'POST /api/v2.0/logs/trail'>['rows'][number];
/** One process as the Processes tab shows it. */
export type ProcessRow = ApiResponse<'POST /api/v2.0/logs/processes'>['rows'][number];
/** One orchestration log entry. */
export type LogRow = ApiResponse<'POST /api/v2.0/logs/orchestration'>['rows'][number];
/** One error log entry (errors, and successes with warnings). */
export type ErrorLogRow = ApiResponse<'POST /api/v2.0/logs/errors'>['rows'][number];

const quiet = { suppressError: true } as const;

/** Marks files reviewed or not (the server refuses pending or disabled files, naming them). */
export const reviewFiles = (ids: number[], reviewed: boolean, fundRequestId: number) =>
  call('POST /api/v2.0/file/review', { body: { ids, reviewed, fundRequestId } }, quiet);
/** Marks input files or work papers not required (disabled) or required again. */
export const disableFiles = (ids: number[], disabled: boolean) => call('POST /api/v2.0/file/disable', { body: { ids, disabled } }, quiet);
/** Removes input files with their outputs. */
export const removeFiles = (ids: number[]) => call('POST /api/v2.0/file/remove', { body: { ids } }, quiet);
/** Releases or unreleases every work paper of a fund. */
export const releaseWorkPapers = (fundRequestId: number, released: boolean) =>
  call('POST /api/v2.0/fund/workpapers/release', { body: { fundRequestId, released } }, quiet);
/** Reviews every produced, required work paper of a fund. */
export const reviewAllWorkPapers = (id: number) => call('POST /api/v2.0/fund/reviewall', { body: { id } }, quiet);
/** Sets the review status of the produced, required work papers of several funds (the listing's Work paper actions). */
export const setWorkPaperReview = (ids: number[], reviewed: boolean) => call('POST /api/v2.0/fund/reviewall', { body: { ids, reviewed } });
/** Sets the forced aggregation rerun flag. */
export const setAggregForceRun = (id: number, value: boolean) => call('POST /api/v2.0/fund/set-aggreg-force-run', { body: { id, value } }, quiet);
/** Pushes the fund's standardized data to its Db push file. */
export const triggerDbPush = (fundId: number) => call('POST /api/v2.0/fund/triggerdbpush', { body: { fundId } }, quiet);

/** One page of a fund's processes, newest first. */
export const fetchProcesses = (id: number, offset = 0, limit = 200) => call('POST /api/v2.0/logs/processes', { body: { id, offset, limit } });
/** Resets (requeues with force run) or cancels a process. */
export const processAction = (action: 'reset' | 'cancel', id: number) => call(`POST /api/v2.0/fund/process/${action}`, { body: { id } }, quiet);
/** One page of a fund's trail, newest first. */
export const fetchTrail = (id: number, offset = 0, limit = 200) => call('POST /api/v2.0/logs/trail', { body: { id, offset, limit } });
/** One page of a fund's orchestration log. */
export const fetchOrchestration = (id: number, offset = 0, limit = 200) => call('POST /api/v2.0/logs/orchestration', { body: { id, offset, limit } });
/** One page of a fund's error log (errors, and successes with warnings). */
export const fetchErrorLogs = (id: number, offset = 0, limit = 200) => call('POST /api/v2.0/logs/errors', { body: { id, offset, limit } });

/** A mapping type of a fund with the mappings it can use and the one in use. */
export type FundMappingType = ApiResponse<'GET /api/v2.0/mappings/types-for-fund-request/:id'>[number];
/** The mapping types of a fund (only when it has an administrator). */
export const fetchFundMappings = (id: number) => call('GET /api/v2.0/mappings/types-for-fund-request/:id', { params: { id } });
/** Assigns a custom mapping to the fund, or removes it (back to the master). */
export const assignFundMapping = (fundRequestId: number, mappingId: number) =>
  call('POST /api/v2.0/mappings/assign', { body: { fundRequestId, mappingId } }, quiet);
export const removeFundMapping = (fundRequestId: number, mappingId: number) =>
  call('POST /api/v2.0/mappings/remove', { body: { fundRequestId, mappingId } }, quiet);

/** Validates a new fund request; answers the errors (empty when valid). */
export async function validateNewFund(fund: Record<string, unknown>): Promise<FundError[]> {
  const payload = await call('POST /api/v2.0/fund/validate', { body: { fund } }, { suppressSuccess: true });
  return payload.errors ?? [];
}

/** Creates a fund request; failures are handled by the screen. */
export const createFund = (fund: Record<string, unknown>) => call('POST /api/v2.0/fund', { body: { fund } }, { suppressError: true, suppressSuccess: true });
