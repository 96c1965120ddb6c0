/**
 * Store of the delivery fund listing (Dashboard): the query (filters, active saved filter,
 * sorting, search, page), the page of rows, the saved filters, the funds marked '*' after an
 * action, and the column layout. Query and layout are remembered per user in local storage.
 */
import { proxy } from 'valtio';
import type { ApiError } from '../api/errors';
import type { FundListingRow, ListingFilter, ListingQuery, SavedFilter, SortSpec } from '../api/delivery-types';
import { countFundListing, deleteListingFilter, fetchFundListing, fetchSavedFilters, saveListingFilter } from '../api/funds';
import { cursorTo, lastPageOffset, NO_PAGINATION, type CappedPagination } from '../components/grid/capped-count';
import { defaultListingPrefs, readListingPrefs, writeListingPrefs, type ListingPrefs } from './listing-prefs';
import { notify } from './notifications';

/** Most saved filters; the save control is hidden from this many on (spec section 5). */
export const MAX_SAVED_FILTERS = 7;
/**
 * Local id of a filter while it is being saved. The spec (section 9) gives 1000, but the server
 * numbers users' filters from 1000 too, so a negative id keeps the two apart.
 */
export const LOCAL_FILTER_ID = -1000;

export interface FundListingState extends ListingPrefs {
  userId: string | null;
  search: string;
  rowsData: FundListingRow[];
  /** matching funds, up to the server's cap (`pagination.countCapped`: there are more) */
  count: number;
  /** the paging of the page shown (count, whether it is capped, cursors of the pages around it) */
  pagination: CappedPagination;
  /** the filters, search and sort the shown paging belongs to (its cursors are refused for others) */
  pagedKey: string;
  /** the exact count of the current filters and search once asked for ("Count all"), else null */
  exactCount: number | null;
  /** whether the exact count is being asked for */
  counting: boolean;
  loading: boolean;
  /** Message of the last failed load (null when the last load succeeded). */
  error: string | null;
  savedFilters: SavedFilter[];
  /** Funds whose status did not change in the last action (shown with '*'). */
  starred: number[];
}

/** The listing store (one per page view; `initListing` binds it to the signed-in user). */
export const fundListing = proxy<FundListingState>({
  ...defaultListingPrefs(),
  userId: null,
  search: '',
  rowsData: [],
  count: 0,
  pagination: NO_PAGINATION,
  pagedKey: '',
  exactCount: null,
  counting: false,
  loading: false,
  error: null,
  savedFilters: [],
  starred: [],
});

/** The remembered part of the state. */
function prefsOf(s: FundListingState): ListingPrefs {
  return {
    filters: s.filters,
    activeFilterId: s.activeFilterId,
    sorting: s.sorting,
    offset: s.offset,
    rows: s.rows,
    columnOrder: s.columnOrder,
    hiddenColumns: s.hiddenColumns,
  };
}

/** Saves the remembered part for the current user. */
export function persistListing(): void {
  if (fundListing.userId) writeListingPrefs(fundListing.userId, JSON.parse(JSON.stringify(prefsOf(fundListing))) as ListingPrefs);
}

/** Prepares the store for a user: their remembered query and layout (once per user). */
export function initListing(userId: string): void {
  if (fundListing.userId === userId) return;
  Object.assign(fundListing, readListingPrefs(userId), {
    userId,
    search: '',
    rowsData: [],
    count: 0,
    pagination: NO_PAGINATION,
    pagedKey: '',
    exactCount: null,
    counting: false,
    error: null,
    starred: [],
    savedFilters: [],
  });
}

/** The body of the listing call for a state. */
export function listingQuery(s: Pick<FundListingState, 'filters' | 'sorting' | 'search' | 'offset' | 'rows'>): ListingQuery {
  return {
    filters: s.filters.map((f) => ({ ...f }) as ListingFilter),
    sorting: s.sorting.map((x) => ({ ...x })),
    search: s.search.trim() || null,
    offset: s.offset,
    pagination: { limit: s.rows },
  };
}

/** What a page's cursors depend on: the filters, search and sort of a query. */
function pagedKeyOf(q: ListingQuery): string {
  return JSON.stringify([q.filters, q.search, q.sorting]);
}

/** What an exact count depends on: the filters and search of a query. */
function countKeyOf(q: Pick<ListingQuery, 'filters' | 'search'>): string {
  return JSON.stringify([q.filters, q.search]);
}

let controller: AbortController | null = null;
/** the filters and search `exactCount` was counted for */
let exactKey = '';

/**
 * Loads the page of the current query (a newer load cancels an older one). The page right after
 * or before the one shown is read from its cursor, any other page by its offset. `silent` keeps
 * the loading indicator off (live refreshes).
 */
export async function loadListing(silent = false): Promise<void> {
  controller?.abort();
  const mine = new AbortController();
  controller = mine;
  if (!silent) fundListing.loading = true;
  const query = listingQuery(fundListing);
  const key = pagedKeyOf(query);
  if (countKeyOf(query) !== exactKey) fundListing.exactCount = null;
  const cursor = fundListing.pagedKey === key ? cursorTo(fundListing.pagination, query.offset, query.pagination.limit) : null;
  try {
    const page = await fetchFundListing(query, mine.signal, cursor);
    if (mine.signal.aborted) return;
    const { count, countCapped } = page.pagination;
    // the remembered offset may be past the end now: go to the last page (counted when the count stops at the cap)
    if (count > 0 && page.rows.length === 0 && fundListing.offset > 0) {
      const total = countCapped ? await countFundListing(query, mine.signal) : count;
      if (mine.signal.aborted) return;
      fundListing.offset = lastPageOffset(total, fundListing.rows);
      persistListing();
      void loadListing(silent);
      return;
    }
    fundListing.rowsData = page.rows;
    fundListing.count = count;
    fundListing.pagination = page.pagination;
    fundListing.pagedKey = key;
    // an uncapped count is exact (a page past the cap counts to its end): it is the exact count of these filters
    if (!countCapped) {
      exactKey = countKeyOf(query);
      fundListing.exactCount = count;
    }
    fundListing.error = null;
  } catch (err) {
    if (mine.signal.aborted) return;
    // a failed background refresh keeps the rows shown (the failure was notified)
    if (silent) return;
    fundListing.error = (err as ApiError).message || 'An error occurred';
    fundListing.rowsData = [];
    fundListing.count = 0;
    fundListing.pagination = NO_PAGINATION;
    fundListing.pagedKey = '';
  } finally {
    if (controller === mine) {
      fundListing.loading = false;
      controller = null;
    }
  }
}

/**
 * Asks for the exact count of the current filters and search (the page's count stops at the
 * server's cap). @returns the count, or null when it failed (the failure was notified)
 */
export async function countAllFunds(): Promise<number | null> {
  const query = listingQuery(fundListing);
  const key = countKeyOf(query);
  if (exactKey === key && fundListing.exactCount !== null) return fundListing.exactCount;
  fundListing.counting = true;
  try {
    const count = await countFundListing(query);
    // the filters or search changed meanwhile: that count is not the listing's
    if (countKeyOf(listingQuery(fundListing)) !== key) return null;
    exactKey = key;
    fundListing.exactCount = count;
    return count;
  } catch {
    return null;
  } finally {
    fundListing.counting = false;
  }
}

/** Counts all funds of the current query, then shows its last page. */
export async function showLastPage(): Promise<void> {
  const count = await countAllFunds();
  if (count !== null) setPage(lastPageOffset(count, fundListing.rows), fundListing.rows);
}

/** Sets the sorting (back to the first page). */
export function setSorting(sorting: SortSpec[]): void {
  fundListing.sorting = sorting;
  fundListing.offset = 0;
  persistListing();
}

/** Sets one column's filter (null removes it); the active saved filter no longer applies as such. */
export function setColumnFilter(field: string, filter: ListingFilter | null): void {
  const others = fundListing.filters.filter((f) => f.field !== field);
  fundListing.filters = filter ? [...others, filter] : others;
  fundListing.activeFilterId = null;
  fundListing.offset = 0;
  persistListing();
}

/** Applies a saved filter (its filters replace the current ones). */
export function applySavedFilter(f: SavedFilter): void {
  fundListing.filters = f.filter.map((x) => JSON.parse(JSON.stringify(x)) as ListingFilter);
  fundListing.activeFilterId = f.id;
  fundListing.offset = 0;
  persistListing();
}

/** The Reset tag: no filter, no search, no sorting, first page. */
export function resetListing(): void {
  fundListing.filters = [];
  fundListing.activeFilterId = null;
  fundListing.search = '';
  fundListing.sorting = [];
  fundListing.offset = 0;
  persistListing();
}

/** Sets the global search (back to the first page). */
export function setSearch(text: string): void {
  if (text === fundListing.search) return;
  fundListing.search = text;
  fundListing.offset = 0;
}

/** Sets the page. */
export function setPage(offset: number, rows: number): void {
  fundListing.offset = offset;
  fundListing.rows = rows;
  persistListing();
}

/** Sets the column layout (order and hidden columns). */
export function setColumnLayout(layout: { columnOrder?: string[]; hiddenColumns?: string[] | null }): void {
  if (layout.columnOrder) fundListing.columnOrder = layout.columnOrder;
  if (layout.hiddenColumns !== undefined) fundListing.hiddenColumns = layout.hiddenColumns;
  persistListing();
}

/** The title of the listing: the active saved filter's title, or 'All'. */
export function listingTitle(s: Pick<FundListingState, 'activeFilterId' | 'savedFilters'>): string {
  return s.savedFilters.find((f) => f.id === s.activeFilterId)?.title ?? 'All';
}

/** Loads the saved filters (an active filter that no longer exists is dropped as active). */
export async function loadSavedFilters(): Promise<void> {
  try {
    fundListing.savedFilters = await fetchSavedFilters();
  } catch {
    // the default error notification was shown; the tag strip keeps Reset only
  }
}

/**
 * Saves the current filters under a title: the tag appears at once (local id 1000) and becomes
 * active; on failure it is removed again and 'Save filter failed' shows the server's errors.
 * @returns whether the filter was saved
 */
export async function saveActiveFilter(title: string): Promise<boolean> {
  const name = title.trim();
  if (!name) return false;
  const filter = fundListing.filters.map((f) => JSON.parse(JSON.stringify(f)) as ListingFilter);
  const previousActive = fundListing.activeFilterId;
  fundListing.savedFilters.push({ id: LOCAL_FILTER_ID, title: name, filter, fixed: false });
  fundListing.activeFilterId = LOCAL_FILTER_ID;
  try {
    const saved = await saveListingFilter(name, filter);
    const i = fundListing.savedFilters.findIndex((f) => f.id === LOCAL_FILTER_ID);
    if (i >= 0) fundListing.savedFilters[i] = saved;
    if (fundListing.activeFilterId === LOCAL_FILTER_ID) fundListing.activeFilterId = saved.id;
    persistListing();
    return true;
  } catch (err) {
    fundListing.savedFilters = fundListing.savedFilters.filter((f) => f.id !== LOCAL_FILTER_ID);
    if (fundListing.activeFilterId === LOCAL_FILTER_ID) fundListing.activeFilterId = previousActive;
    const e = err as ApiError;
    const details = (e.errors ?? []).map((x) => (typeof x === 'string' ? x : x.message)).filter(Boolean);
    notify({ severity: 'error', summary: 'Save filter failed', detail: details.join('; ') || e.message || 'An error occurred' });
    return false;
  }
}

/** Deletes a saved filter; when it was the active one the listing goes back to All. */
export async function removeSavedFilter(id: number): Promise<void> {
  await deleteListingFilter(id);
  fundListing.savedFilters = fundListing.savedFilters.filter((f) => f.id !== id);
  if (fundListing.activeFilterId === id) {
    fundListing.activeFilterId = null;
    fundListing.filters = [];
    fundListing.offset = 0;
  }
  persistListing();
}

/** Marks the funds whose status did not change (or clears the marks with an empty list). */
export function setStarred(ids: number[]): void {
  fundListing.starred = ids;
}
