/**
 * The backend of `fund-audit funds`: the fund request listing and the status actions through the
 * API (in process on the local install, or on a server: cli/operation.ts).
 */
import type { ActionResult, FundAction } from '../../server/services/funds/actions.js';
import type { listFunds, ListingInput } from '../../server/services/funds/listing.js';
import type { Operation } from '../../server/http/contract.js';
import type { GlobalOptions } from '../global.js';
import { operation } from '../operation.js';

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

/** The backend of the global options: the API, on the server with `--server`, else in process on the local install. */
export function fundsBackend(g: GlobalOptions): FundsBackend {
  return {
    list: async (input) => (await operation(g, 'POST /api/v2.0/funds/listing', { body: input })) as FundListingPage,
    act: async (action, ids) => (await operation(g, `POST /api/v2.0/fund/${action}` as ActionOperation, { body: { ids } })) as ActionResult,
  };
}
