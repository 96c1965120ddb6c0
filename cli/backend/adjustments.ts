/**
 * The backend of `fund-audit adjustments`: a fund's audit adjustments through the API (in process
 * on the local install, or on a server: cli/operation.ts).
 */
import type { AdjustmentRerun } from '../../rules/adjustments.js';
import type { AdjustmentRerunResult, AdjustmentView } from '../../server/services/adjustments/adjustments.js';
import type { ApiBody } from '../../server/http/contract.js';
import type { GlobalOptions } from '../global.js';
import { operation } from '../operation.js';

/** What `adjustments add` sends: the fields of the Add adjustment form. */
export type NewAdjustment = ApiBody<'POST /api/v2.0/fund/:id/adjustments'>;

export interface AdjustmentsBackend {
  list(fundId: number): Promise<AdjustmentView[]>;
  add(fundId: number, input: NewAdjustment): Promise<AdjustmentView>;
  remove(fundId: number, adjustmentId: number): Promise<{ id: number; deleted: true }>;
  rerun(fundId: number, rerun: AdjustmentRerun): Promise<AdjustmentRerunResult>;
}

/** The backend of the global options: the API, on the server with `--server`, else in process on the local install. */
export function adjustmentsBackend(g: GlobalOptions): AdjustmentsBackend {
  return {
    list: (id) => operation(g, 'GET /api/v2.0/fund/:id/adjustments', { params: { id } }),
    add: (id, input) => operation(g, 'POST /api/v2.0/fund/:id/adjustments', { params: { id }, body: input }),
    remove: (id, aid) => operation(g, 'DELETE /api/v2.0/fund/:id/adjustments/:adjustmentId', { params: { id, adjustmentId: aid } }),
    rerun: (id, rerun) => operation(g, 'POST /api/v2.0/fund/:id/adjustments/rerun', { params: { id }, body: { rerun } }),
  };
}
