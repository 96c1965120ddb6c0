/**
 * Typed calls of the Adjustments tab of Fund details: a fund's audit adjustments (list, add,
 * change, delete) and the reruns for adjustments and for apportionment.
 */
import type { AdjustmentInput, AdjustmentRerun } from '../../../rules';
import type { AdjustmentRerunResult, AdjustmentView } from '../../../server/services/adjustments/adjustments.js';
import { api, request } from './client';

export type { AdjustmentRerunResult, AdjustmentView };

/** Errors are shown by the dialog or the tab itself, next to what failed. */
const quiet = { suppressError: true } as const;

/** Every adjustment of a fund, oldest first. */
export const fetchAdjustments = (fundId: number) => api.get<AdjustmentView[]>(`/fund/${fundId}/adjustments`);
/** Adds an adjustment; a 400 names each field in error (`errors: [{column, message}]`). */
export const addAdjustment = (fundId: number, a: AdjustmentInput) => api.post<AdjustmentView>(`/fund/${fundId}/adjustments`, a, quiet);
/** Replaces an adjustment's fields. */
export const saveAdjustment = (fundId: number, id: number, a: AdjustmentInput) => api.post<AdjustmentView>(`/fund/${fundId}/adjustments/${id}`, a, quiet);
/** Deletes an adjustment. */
export const removeAdjustment = (fundId: number, id: number) =>
  request<{ id: number; deleted: true }>('DELETE', `/fund/${fundId}/adjustments/${id}`, undefined, quiet);
/** Queues the fund's calculations and work paper with its adjustments ('Rerun adjustments' / 'Rerun apportionment'). */
export const rerunAdjustments = (fundId: number, rerun: AdjustmentRerun) =>
  api.post<AdjustmentRerunResult>(`/fund/${fundId}/adjustments/rerun`, { rerun }, quiet);
