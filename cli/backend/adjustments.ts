/**
 * The backend of `fund-audit adjustments`: a fund's audit adjustments on the local data directory
 * (services in process, as the first Admin) or on a server (the API).
 */
import type { AdjustmentRerun } from '../../rules/adjustments.js';
import {
  createAdjustment,
  deleteAdjustment,
  listAdjustments,
  rerunAdjustments,
  type AdjustmentRerunResult,
  type AdjustmentView,
} from '../../server/services/adjustments/adjustments.js';
import type { ApiBody } from '../../server/http/contract.js';
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { asSent, withLocal } from './local.js';

/** What `adjustments add` sends: the fields of the Add adjustment form. */
export type NewAdjustment = ApiBody<'POST /api/v2.0/fund/:id/adjustments'>;

export interface AdjustmentsBackend {
  list(fundId: number): Promise<AdjustmentView[]>;
  add(fundId: number, input: NewAdjustment): Promise<AdjustmentView>;
  remove(fundId: number, adjustmentId: number): Promise<{ id: number; deleted: true }>;
  rerun(fundId: number, rerun: AdjustmentRerun): Promise<AdjustmentRerunResult>;
}

/** The backend of the global options: the server's API with `--server`, else the local data directory. */
export function adjustmentsBackend(g: GlobalOptions): AdjustmentsBackend {
  if (isRemote(g))
    return {
      list: (id) => remoteOperation(g, 'GET /api/v2.0/fund/:id/adjustments', { params: { id } }),
      add: (id, input) => remoteOperation(g, 'POST /api/v2.0/fund/:id/adjustments', { params: { id }, body: input }),
      remove: (id, aid) => remoteOperation(g, 'DELETE /api/v2.0/fund/:id/adjustments/:adjustmentId', { params: { id, adjustmentId: aid } }),
      rerun: (id, rerun) => remoteOperation(g, 'POST /api/v2.0/fund/:id/adjustments/rerun', { params: { id }, body: { rerun } }),
    };
  return {
    list: (id) => withLocal(g, async (ctx) => asSent(await listAdjustments(ctx, id))),
    add: (id, input) => withLocal(g, async (ctx, user) => asSent(await createAdjustment(ctx, user, id, input))),
    remove: (id, aid) => withLocal(g, async (ctx, user) => asSent(await deleteAdjustment(ctx, user, id, aid))),
    rerun: (id, rerun) => withLocal(g, async (ctx, user) => asSent(await rerunAdjustments(ctx, user, id, rerun))),
  };
}
