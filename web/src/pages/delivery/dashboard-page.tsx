/**
 * Dashboard (`/` and `/funds/list` for delivery users): the fund request listing with its tag
 * strip, global search, column chooser, action buttons and the server-paged grid (delivery spec
 * section 2). Query and column layout are remembered per user; the list refreshes itself when
 * funds or their processes change (socket events).
 */
import { useEffect, useMemo, useState } from 'react';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { InputText } from 'primereact/inputtext';
import { snapshot, useSnapshot } from 'valtio';
import type { FundListingRow, SavedFilter } from '../../api/delivery-types';
import { CountAllButton, shownCount } from '../../components/grid/capped-paginator';
import { ColumnChooser } from '../../components/grid/column-chooser';
import { GridError } from '../../components/grid/grid-message';
import { nextSorting } from '../../components/grid/sort-cycle';
import { usePageTitle } from '../../components/use-page-title';
import {
  applySavedFilter,
  countAllFunds,
  fundListing,
  type FundListingState,
  initListing,
  listingQuery,
  listingTitle,
  loadListing,
  loadSavedFilters,
  removeSavedFilter,
  resetListing,
  saveActiveFilter,
  setColumnFilter,
  setColumnLayout,
  setPage,
  setSearch,
  setSorting,
  showLastPage,
} from '../../state/fund-listing';
import { navigate } from '../../state/navigation';
import { loadNrd, nrdStore } from '../../state/nrd';
import { session } from '../../state/session';
import { socketEvents } from '../../state/socket';
import { ActionBar } from './dashboard/action-bar';
import { availableColumns, DEFAULT_HIDDEN, mergeColumnOrder, orderColumns } from './dashboard/columns';
import { FilterTags } from './dashboard/filter-tags';
import { FundGrid } from './dashboard/fund-grid';
import { useFundActions } from './dashboard/use-fund-actions';
// delivery.css comes with the other delivery pages' stylesheet, which index.html links on every page
// (build.mjs): importing it here too would send it twice

/** Delay of a live refresh after a fund or process event (events come in bursts). */
const LIVE_REFRESH_MS = 1_500;

/** The delivery fund listing. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const { user, config } = useSnapshot(session);
  useMemo(() => initListing(String(user?.id ?? 'anonymous')), [user?.id]);
  // snapshots are frozen; the read-only view is only read here
  const snap = useSnapshot(fundListing) as FundListingState;
  const { nrd } = useSnapshot(nrdStore);
  const [selection, setSelection] = useState<FundListingRow[]>([]);
  const [searchText, setSearchText] = useState(snap.search);
  const actions = useFundActions(selection, setSelection);

  useEffect(() => {
    void loadSavedFilters();
    void loadNrd();
  }, []);

  useEffect(() => {
    const t = setTimeout(() => setSearch(searchText), 300);
    return () => clearTimeout(t);
  }, [searchText]);
  // the Reset tag clears the search: follow the store
  useEffect(() => setSearchText(snap.search), [snap.search]);

  const queryKey = JSON.stringify(listingQuery(snap));
  useEffect(() => {
    void loadListing();
  }, [queryKey]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void loadListing(true), LIVE_REFRESH_MS);
    };
    const offs = [socketEvents.on('fund-request', refresh), socketEvents.on('process', refresh)];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, []);

  // the rows as plain objects: the grid copies them, and reading a store view field by field is slow
  const rowsData = snap.rowsData;
  const rows = useMemo(() => (rowsData ? (snapshot(fundListing).rowsData as FundListingRow[]) : []), [rowsData]);
  // keep the selection on the rows as last loaded (fresh statuses for the action rules)
  useEffect(() => {
    // an empty selection stays the same array: a new one would render the grid again for nothing
    setSelection((sel) => (sel.length ? sel.map((s) => rows.find((r) => r.id === s.id)).filter((r): r is FundListingRow => r !== undefined) : sel));
  }, [rows]);

  const available = useMemo(() => availableColumns(Boolean(config?.aggregation)), [config?.aggregation]);
  const ordered = useMemo(() => orderColumns(available, snap.columnOrder), [available, snap.columnOrder]);
  const hidden = snap.hiddenColumns ?? DEFAULT_HIDDEN;
  const visible = useMemo(() => ordered.filter((c) => !hidden.includes(c.key)), [ordered, hidden]);
  const starred = useMemo(() => new Set(snap.starred), [snap.starred]);
  const administratorOptions = useMemo(() => (nrd?.administrators ?? []).map((a) => ({ value: a.alt_code, label: a.alt_code })), [nrd]);
  const title = listingTitle(snap);
  const openFund = (id: number) => navigate(`/fund/${id}`);
  const paging = {
    pagination: snap.pagination,
    exact: snap.exactCount,
    counting: snap.counting,
    onCountAll: () => void countAllFunds(),
    onLastPage: () => void showLastPage(),
  };
  const countText = shownCount(paging);
  const single = countText === '1';

  const onDeleteFilter = (f: SavedFilter) => {
    void removeSavedFilter(f.id).catch(() => undefined);
  };

  return (
    <section className="fa-page fa-dashboard" aria-labelledby="fa-listing-title">
      <div className="fa-dashboard-head">
        <h1 id="fa-listing-title" data-testid="listing-title">
          {title}
        </h1>
        <span className="fa-listing-count" aria-live="polite" data-testid="listing-count">
          {snap.loading ? 'Loading...' : `${countText} fund request${single ? '' : 's'}`}
          {!snap.loading && <CountAllButton {...paging} />}
        </span>
        <span className="fa-search p-input-icon-left">
          <i className="pi pi-search" aria-hidden="true" />
          <InputText type="search" value={searchText} placeholder="Search" aria-label="Search fund requests" onChange={(e) => setSearchText(e.target.value)} />
        </span>
        <ColumnChooser
          columns={ordered}
          visible={visible.map((c) => c.key)}
          onChange={(keys) => setColumnLayout({ hiddenColumns: available.map((c) => c.key).filter((k) => !keys.includes(k)) })}
        />
      </div>
      <FilterTags
        filters={snap.savedFilters}
        activeId={snap.activeFilterId}
        onReset={resetListing}
        onApply={applySavedFilter}
        onDelete={onDeleteFilter}
        onSave={saveActiveFilter}
      />
      <ActionBar
        selection={selection}
        busy={actions.busy}
        exporting={actions.exporting}
        onAction={actions.onAction}
        onDataStatus={actions.onDataStatus}
        onWorkPaperReview={actions.onWorkPaperReview}
        onDownloadWorkPapers={actions.onDownloadWorkPapers}
        onExport={actions.onExport}
      />
      {snap.error && !snap.loading ? (
        <GridError message={snap.error} onRetry={() => void loadListing()} />
      ) : (
        <FundGrid
          columns={visible}
          rows={rows}
          paging={paging}
          offset={snap.offset}
          pageSize={snap.rows}
          loading={snap.loading}
          emptyText={snap.loading ? 'Loading...' : 'No data available'}
          sorting={snap.sorting}
          filters={snap.filters}
          administratorOptions={administratorOptions}
          selection={selection}
          starred={starred}
          onSelectionChange={setSelection}
          onSort={(field, multi) => setSorting(nextSorting(snap.sorting, field, multi))}
          onFilter={setColumnFilter}
          onPage={setPage}
          onReorder={(keys) =>
            setColumnLayout({
              columnOrder: mergeColumnOrder(
                ordered.map((c) => c.key),
                keys,
              ),
            })
          }
          onOpen={openFund}
          onDownloadAll={actions.onDownloadAll}
        />
      )}
      <ConfirmDialog />
    </section>
  );
}
