/**
 * The backend of `fund-audit funds`: the fund request listing and the status actions, on the local
 * data directory (services in process, as the first Admin) or on a server (the API).
 */
import type { ActionResult, FundAction } from '../../server/services/funds/actions.js';
import { runFundAction } from '../../server/services/funds/actions.js';
import { listFunds, type ListingInput } from '../../server/services/funds/listing.js';
import type { Operation } from '../../server/http/contract.js';
import type { GlobalOptions } from '../global.js';
import { isRemote, remoteOperation } from '../remote.js';
import { asSent, withLocal } from './local.js';

/** A status action the CLI offers (every one of the listing's but the data-requested status). */
export type CliFundAction = Exclude<FundAction, 'changeDataRequestedStatus'>;

/** One page of the fund request listing. */
export type FundListingPage = Awaited<ReturnType<typeof listFunds>>;

export interface FundsBackend {
  /** One page of the listing (`POST /funds/listing`). */
  list(input: ListingInput): Promise<FundListingPage>;
  /** Runs a status action on funds: each fund with its status, and the warning of those that did not move. */
  act(action: CliFundAction, ids: number[]): Promise<ActionResult>;
}

type ActionOperation = Extract<Operation, `POST /api/v2.0/fund/${CliFundAction}`>;

/** The backend of the global options: the server's API with `--server`, else the local data directory. */
export function fundsBackend(g: GlobalOptions): FundsBackend {
  if (isRemote(g))
    return {
      list: async (input) => (await remoteOperation(g, 'POST /api/v2.0/funds/listing', { body: input })) as FundListingPage,
      act: async (action, ids) => (await remoteOperation(g, `POST /api/v2.0/fund/${action}` as ActionOperation, { body: { ids } })) as ActionResult,
    };
  return {
    list: (input) => withLocal(g, async (ctx, user) => asSent(await listFunds(ctx, user, input))),
    act: (action, ids) => withLocal(g, async (ctx, user) => asSent(await runFundAction(ctx, user, action, { ids }))),
  };
}
