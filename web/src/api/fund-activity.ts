/**
 * Typed calls of the delivery Fund details page (delivery spec section 7): file review, disable,
 * remove and reset; work paper release; processes with reset and cancel; the trail, orchestration
 * and error logs; review all, forced aggregation rerun and Db push; mappings of the fund.
 */
import type { TrailRow } from '../../../server/services/funds/trail-log.js';
import type { ErrorLogRow, LogRow } from '../../../server/services/files/logs.js';
import type { processView } from '../../../server/jobs/processes.js';
import type { mappingTypesForFund } from '../../../server/services/mappings/mappings.js';
import { api, call } from './client';
import type { FundDetails, FundError } from './auditor-types';
import type { PageOf } from './delivery-types';

export type { ErrorLogRow, LogRow, TrailRow };
export type ProcessRow = ReturnType<typeof processView>;

const quiet = { suppressError: true } as const;

/** Marks files reviewed or not (the server refuses pending or disabled files, naming them). */
export const reviewFiles = (ids: number[], reviewed: boolean, fundRequestId: number) =>
  api.post<unknown>('/file/review', { ids, reviewed, fundRequestId }, quiet);
/** Marks input files or work papers not required (disabled) or required again. */
export const disableFiles = (ids: number[], disabled: boolean) => api.post<unknown>('/file/disable', { ids, disabled }, quiet);
/** Removes input files with their outputs. */
export const removeFiles = (ids: number[]) => api.post<unknown>('/file/remove', { ids }, quiet);
/** Releases or unreleases every work paper of a fund. */
export const releaseWorkPapers = (fundRequestId: number, released: boolean) =>
  api.post<unknown>('/fund/workpapers/release', { fundRequestId, released }, quiet);
/** Reviews every produced, required work paper of a fund. */
export const reviewAllWorkPapers = (id: number) => api.post<unknown>('/fund/reviewall', { id }, quiet);
/** Sets the review status of the produced, required work papers of several funds (the listing's Work paper actions). */
export const setWorkPaperReview = (ids: number[], reviewed: boolean) => api.post<{ files: unknown[] }>('/fund/reviewall', { ids, reviewed });
/** Sets the forced aggregation rerun flag. */
export const setAggregForceRun = (id: number, value: boolean) =>
  api.post<{ id: number; aggreg_force_run: boolean; processId?: number }>('/fund/set-aggreg-force-run', { id, value }, quiet);
/** Pushes the fund's standardized data to its Db push file. */
export const triggerDbPush = (fundId: number) =>
  api.post<{ fundId: number; file: string; rows: number; checks: number }>('/fund/triggerdbpush', { fundId }, quiet);

/** One page of a fund's processes, newest first. */
export const fetchProcesses = (id: number, offset = 0, limit = 200) => api.post<PageOf<ProcessRow>>('/logs/processes', { id, offset, limit });
/** Resets (requeues with force run) or cancels a process. */
export const processAction = (action: 'reset' | 'cancel', id: number) => api.post<ProcessRow>(`/fund/process/${action}`, { id }, quiet);
/** One page of a fund's trail, newest first. */
export const fetchTrail = (id: number, offset = 0, limit = 200) => api.post<PageOf<TrailRow>>('/logs/trail', { id, offset, limit });
/** One page of a fund's orchestration log. */
export const fetchOrchestration = (id: number, offset = 0, limit = 200) => call('POST /api/v2.0/logs/orchestration', { body: { id, offset, limit } });
/** One page of a fund's error log (errors, and successes with warnings). */
export const fetchErrorLogs = (id: number, offset = 0, limit = 200) => call('POST /api/v2.0/logs/errors', { body: { id, offset, limit } });

/** A mapping type of a fund with the mappings it can use and the one in use. */
export type FundMappingType = ReturnType<typeof mappingTypesForFund>[number];
/** The mapping types of a fund (only when it has an administrator). */
export const fetchFundMappings = (id: number) => api.get<FundMappingType[]>(`/mappings/types-for-fund-request/${id}`);
/** Assigns a custom mapping to the fund, or removes it (back to the master). */
export const assignFundMapping = (fundRequestId: number, mappingId: number) => api.post<unknown>('/mappings/assign', { fundRequestId, mappingId }, quiet);
export const removeFundMapping = (fundRequestId: number, mappingId: number) => api.post<unknown>('/mappings/remove', { fundRequestId, mappingId }, quiet);

/** Validates a new fund request; answers the errors (empty when valid). */
export async function validateNewFund(fund: Record<string, unknown>): Promise<FundError[]> {
  const payload = await api.post<{ errors: FundError[] }>('/fund/validate', { fund }, { suppressSuccess: true });
  return payload.errors ?? [];
}

/** Creates a fund request; failures are handled by the screen. */
export const createFund = (fund: Record<string, unknown>) => api.post<FundDetails>('/fund', { fund }, { suppressError: true, suppressSuccess: true });
