/** Typed calls of the delivery fund listing: page, saved filters, status actions, xlsx export. */
import type { DataRequestStatus } from '../../../rules/statuses';
import { call } from './client';
import { downloadPost } from './download';
import type { ActionResult, FundListingPage, ListingQuery, SavedFilter, ListingFilter } from './delivery-types';

/**
 * One page of the listing; `cursor` (the `next` or `previous` of the page shown) reads the page
 * after or before it from where that page ends, `query.offset` then being the new page's offset.
 */
export function fetchFundListing(query: ListingQuery, signal?: AbortSignal, cursor?: string | null): Promise<FundListingPage> {
  return call('POST /api/v2.0/funds/listing', { body: cursor ? { ...query, cursor } : query }, { signal, suppressSuccess: true });
}

/** The exact number of funds a listing query matches (its page's count stops at 10,000). */
export async function countFundListing(query: Pick<ListingQuery, 'filters' | 'search'>, signal?: AbortSignal): Promise<number> {
  return (await call('POST /api/v2.0/funds/listing/count', { body: { filters: query.filters, search: query.search } }, { signal, suppressSuccess: true }))
    .count;
}

/** The fixed saved filters and the user's own. */
export function fetchSavedFilters(): Promise<SavedFilter[]> {
  return call('GET /api/v2.0/filters', {});
}

/** Saves a filter; the failure is handled by the caller ('Save filter failed'). The server's 'filter saved' is shown. */
export function saveListingFilter(title: string, filter: ListingFilter[]): Promise<SavedFilter> {
  return call('POST /api/v2.0/filter', { body: { title, filter, successMessage: 'filter saved' } }, { suppressError: true });
}

/** Deletes one of the user's filters (the server's 'filter deleted' is shown). */
export function deleteListingFilter(id: number): Promise<{ id: number }> {
  return call('POST /api/v2.0/filter/delete', { body: { id, successMessage: 'filter deleted' } });
}

/** The listing actions and their paths (delivery spec section 7). */
export const FUND_ACTION_PATHS = {
  open: '/fund/approve',
  close: '/fund/close',
  issue: '/fund/issue',
  pause: '/fund/pause',
  decline: '/fund/decline',
  remove: '/fund/remove',
  undoDelete: '/fund/undo-delete',
  reset: '/fund/reset',
  rerun: '/fund/rerun',
} as const;
export type FundAction = keyof typeof FUND_ACTION_PATHS;

/** Actions that carry `requestedBy` (the delivery team member). */
const WITH_REQUESTED_BY: readonly FundAction[] = ['open', 'close', 'issue', 'pause', 'remove'];

/**
 * Runs a status action on funds; reset and rerun take `forceRun` (default true on the server).
 * `quiet`: the caller shows a failure itself (no default notification as well).
 */
export function runFundAction(
  action: FundAction,
  ids: number[],
  requestedBy: string | null,
  { quiet = false, ...options }: { forceRun?: boolean; quiet?: boolean } = {},
): Promise<ActionResult> {
  const body = { ...(WITH_REQUESTED_BY.includes(action) ? { ids, requestedBy } : { ids }), ...options };
  return call(`POST /api/v2.0${FUND_ACTION_PATHS[action]}`, { body }, { suppressError: quiet });
}

/** Sets the data-requested status of funds. */
export function changeDataRequestedStatus(ids: number[], status: DataRequestStatus): Promise<ActionResult> {
  return call('POST /api/v2.0/fund/changeDataRequestedStatus', { body: { ids, status } });
}

/** Downloads every fund of the current filters, search and sorting as `fundrequests.xlsx`. */
export function exportListing(query: Pick<ListingQuery, 'filters' | 'sorting' | 'search'>): Promise<boolean> {
  return downloadPost('/funds/export-all', { filters: query.filters, sorting: query.sorting, search: query.search }, 'fundrequests.xlsx');
}
