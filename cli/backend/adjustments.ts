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
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteCall } from '../remote.js';
import { asSent, withLocal } from './local.js';

/** What `adjustments add` sends: the fields of the Add adjustment form. */
export type NewAdjustment = Parameters<typeof createAdjustment>[3];

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
      list: (id) => remoteCall(g, 'GET', `fund/${id}/adjustments`),
      add: (id, input) => remoteCall(g, 'POST', `fund/${id}/adjustments`, input),
      remove: (id, aid) => remoteCall(g, 'DELETE', `fund/${id}/adjustments/${aid}`),
      rerun: (id, rerun) => remoteCall(g, 'POST', `fund/${id}/adjustments/rerun`, { rerun }),
    };
  return {
    list: (id) => withLocal(g, (ctx) => asSent(listAdjustments(ctx, id))),
    add: (id, input) => withLocal(g, (ctx, user) => asSent(createAdjustment(ctx, user, id, input))),
    remove: (id, aid) => withLocal(g, (ctx, user) => asSent(deleteAdjustment(ctx, user, id, aid))),
    rerun: (id, rerun) => withLocal(g, (ctx, user) => asSent(rerunAdjustments(ctx, user, id, rerun))),
  };
}
