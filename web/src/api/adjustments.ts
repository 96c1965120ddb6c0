/**
 * Typed calls of the Adjustments tab of Fund details: a fund's audit adjustments (list, add,
 * change, delete) and the reruns for adjustments and for apportionment. Payload types are the API
 * contract's.
 */
import type { AdjustmentInput, AdjustmentRerun } from '../../../rules';
import type { ApiResponse } from '../../../server/http/contract';
import { call } from './client';

/** An adjustment as the tab shows it. */
export type AdjustmentView = ApiResponse<'GET /api/v2.0/fund/:id/adjustments'>[number];
/** What a rerun queued. */
export type AdjustmentRerunResult = ApiResponse<'POST /api/v2.0/fund/:id/adjustments/rerun'>;

/** Errors are shown by the dialog or the tab itself, next to what failed. */
const quiet = { suppressError: true } as const;

/** Every adjustment of a fund, oldest first. */
export const fetchAdjustments = (fundId: number) => call('GET /api/v2.0/fund/:id/adjustments', { params: { id: fundId } });
/** Adds an adjustment; a 400 names each field in error (`errors: [{column, message}]`). */
export const addAdjustment = (fundId: number, a: AdjustmentInput) => call('POST /api/v2.0/fund/:id/adjustments', { params: { id: fundId }, body: a }, quiet);
/** Replaces an adjustment's fields. */
export const saveAdjustment = (fundId: number, id: number, a: AdjustmentInput) =>
  call('POST /api/v2.0/fund/:id/adjustments/:adjustmentId', { params: { id: fundId, adjustmentId: id }, body: a }, quiet);
/** Deletes an adjustment. */
export const removeAdjustment = (fundId: number, id: number) =>
  call('DELETE /api/v2.0/fund/:id/adjustments/:adjustmentId', { params: { id: fundId, adjustmentId: id } }, quiet);
/** Queues the fund's calculations and work paper with its adjustments ('Rerun adjustments' / 'Rerun apportionment'). */
export const rerunAdjustments = (fundId: number, rerun: AdjustmentRerun) =>
  call('POST /api/v2.0/fund/:id/adjustments/rerun', { params: { id: fundId }, body: { rerun } }, quiet);
