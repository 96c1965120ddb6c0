/**
 * Funds Listing tab (auditor spec 2.3, 4, 8): a paged grid of fund requests with multi-select,
 * default sort data due date descending, a column order kept per user, the Open / Close / Issue /
 * Delete actions (requestedBy 'Auditor'), a count capped at 10,000 ("10,000+", Count all) with the next
 * and previous pages read by cursor, with '*' on funds the action left unchanged and the
 * warning, the download dialog, and the Fund details modal (double-click or 'Details'). Rows
 * render only while in view, and a selection renders again only the rows it changes
 * (components/grid/fast-rows.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable, type DataTableColReorderEvent, type DataTablePageEvent, type DataTableSortEvent } from 'primereact/datatable';
import { useSnapshot } from 'valtio';
import { countAuditorFunds, fetchAuditorFunds, runAuditorAction, type AuditorAction, type AuditorSort } from '../../../api/auditor';
import type { AuditorFundRow } from '../../../api/auditor-types';
import { useSocketRefresh } from '../../../components/auditor/use-socket-refresh';
import { cursorTo, lastPageOffset, NO_PAGINATION, pagerTotal, type CappedPagination } from '../../../components/grid/capped-count';
import { cappedPaginatorTemplate, CountAllButton, shownCount } from '../../../components/grid/capped-paginator';
import { CELL_MEMO_PROPS, useRevisedRows, useRowCountSettled, virtualRows } from '../../../components/grid/fast-rows';
import { applyColumnOrder, readColumnOrder, saveColumnOrder } from '../../../state/auditor-prefs';
import { dataPlatform, showTab } from '../../../state/data-platform';
import { notify } from '../../../state/notifications';
import { session } from '../../../state/session';
import { FundDetailsModal } from '../fund-details/fund-details-modal';
import { DownloadDialog } from '../../../components/files/download-dialog';
import './funds-listing.css';
import { isAuditorActionEnabled as isActionEnabled, isDeleteEnabled, MESSAGES, type AuditorAction as StatusActionKey } from '../../../../../rules';
import { useFitToViewport } from '../../../components/grid/use-fit-to-viewport';
import { DEFAULT_COLUMN_ORDER, DEFAULT_SORT, DETAILS_WIDTH_REM, LISTING_COLUMNS, LISTING_MIN_WIDTH_REM, nextSort, SELECT_WIDTH_REM } from './listing-columns';

const { auditorDeleteConfirmation: DELETE_CONFIRMATION, unchangedWarning: UNCHANGED_WARNING } = MESSAGES;

/** Page size of the auditor listing (spec section 9: fund listing 100) and its choices. */
export const LISTING_ROWS = 100;
const ROW_CHOICES = [50, 100, 200];
const SELECT_KEY = '__select';
const ACTIONS_KEY = '__actions';
/** Height of a body row in pixels (funds-listing.css gives the rows exactly this height). */
export const LISTING_ROW_HEIGHT = 52;

const ACTION_LABELS: Record<StatusActionKey, { label: string; icon: string; done: string }> = {
  open: { label: 'Open', icon: 'pi pi-folder-open', done: 'opened' },
  close: { label: 'Close', icon: 'pi pi-lock', done: 'closed' },
  issue: { label: 'Issue', icon: 'pi pi-send', done: 'issued' },
};

/** The Funds Listing tab. */
export function FundsListing() {
  const { user } = useSnapshot(session);
  const { fundsVersion } = useSnapshot(dataPlatform);
  const userId = user?.id ?? 'anonymous';
  const [rows, setRows] = useState<AuditorFundRow[]>([]);
  const [paging, setPaging] = useState<{ pagination: CappedPagination; sort: string }>({ pagination: NO_PAGINATION, sort: '' });
  const [exact, setExact] = useState<number | null>(null);
  const [counting, setCounting] = useState(false);
  const [first, setFirst] = useState(0);
  const [pageSize, setPageSize] = useState(LISTING_ROWS);
  const [sort, setSort] = useState<AuditorSort | null>(DEFAULT_SORT);
  const [loading, setLoading] = useState(true);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [unchanged, setUnchanged] = useState<number[]>([]);
  const [warning, setWarning] = useState<string | null>(null);
  const [busy, setBusy] = useState<AuditorAction | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [downloadOpen, setDownloadOpen] = useState(false);
  const [detailsId, setDetailsId] = useState<number | null>(null);
  const [order, setOrder] = useState<string[]>(() => applyColumnOrder(DEFAULT_COLUMN_ORDER, readColumnOrder(userId)));
  const abort = useRef<AbortController | null>(null);
  // the grid ends above the paginator inside the window: its sideways scrollbar is never below the fold
  const [gridTop, scrollHeight] = useFitToViewport();

  // the page shown, read in load without making it a dependency (a new page is no reason to load)
  const shownPaging = useRef(paging);
  shownPaging.current = paging;
  const load = useCallback(() => {
    abort.current?.abort();
    const ctrl = new AbortController();
    abort.current = ctrl;
    setLoading(true);
    const sortKey = JSON.stringify(sort);
    // the page right after or before the one shown by its cursor (made for this sort only), any other by its offset
    const shown = shownPaging.current;
    const cursor = shown.sort === sortKey ? cursorTo(shown.pagination, first, pageSize) : null;
    fetchAuditorFunds(first, pageSize, sort, ctrl.signal, cursor)
      .then((page) => {
        if (ctrl.signal.aborted) return;
        setRows(page.rows);
        setPaging({ pagination: page.pagination, sort: sortKey });
        // an uncapped count is exact (a page past the cap counts to its end): it replaces a count asked for before
        if (!page.pagination.countCapped) setExact(page.pagination.count);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false);
      });
  }, [first, pageSize, sort]);

  const countAll = async (): Promise<number | null> => {
    if (exact !== null) return exact;
    setCounting(true);
    try {
      const n = await countAuditorFunds();
      setExact(n);
      return n;
    } catch {
      return null; // the API client showed the error
    } finally {
      setCounting(false);
    }
  };
  const pager = {
    pagination: paging.pagination,
    exact,
    counting,
    onCountAll: () => void countAll(),
    onLastPage: () =>
      void countAll().then((n) => {
        if (n !== null) setFirst(lastPageOffset(n, pageSize));
      }),
  };
  const single = shownCount(pager) === '1';

  useEffect(() => {
    load();
    return () => abort.current?.abort();
  }, [load, fundsVersion]);
  useSocketRefresh(['fund-request'], load, 600);

  const starred = useMemo(() => rows.map((r) => ({ ...r, isStatusUnChanged: r.isStatusUnChanged || unchanged.includes(r.id) })), [rows, unchanged]);
  const shown = useRevisedRows(starred);
  useRowCountSettled(shown.length);
  const selection = useMemo(() => shown.filter((r) => selectedIds.includes(r.id)), [shown, selectedIds]);
  const statuses = selection.map((r) => r.uploadStatus);
  const columns = order.map((k) => LISTING_COLUMNS.find((c) => c.key === k)!).filter(Boolean);

  const run = async (action: AuditorAction) => {
    const ids = selection.map((r) => r.id);
    if (!ids.length) return;
    setBusy(action);
    try {
      const result = await runAuditorAction(action, ids);
      const stuck = result.funds.filter((f) => f.isStatusUnChanged).map((f) => f.id);
      setUnchanged(stuck);
      // the warning shows once, above the grid whose rows it marks with *
      setWarning(stuck.length ? result.warning || UNCHANGED_WARNING : null);
      const moved = result.funds.length - stuck.length;
      if (moved > 0) {
        const what = action === 'remove' ? 'deleted' : ACTION_LABELS[action].done;
        notify({ severity: 'success', detail: `${moved} fund request${moved === 1 ? '' : 's'} ${what}`, life: 2400 });
      }
      if (action === 'remove') setSelectedIds((s) => s.filter((id) => stuck.includes(id)));
      load();
    } catch {
      // the API client showed the error
    } finally {
      setBusy(null);
    }
  };

  const onSort = (e: DataTableSortEvent) => {
    // PrimeReact answers a removed sort with no field: that is a click on the sorted column
    const key = e.sortField || (sort ? LISTING_COLUMNS.find((c) => c.sortField === sort.field)?.key : undefined);
    const column = LISTING_COLUMNS.find((c) => c.key === key);
    if (!column?.sortField) return;
    setSort((s) => nextSort(s, column.sortField!));
    setFirst(0);
  };
  const onPage = (e: DataTablePageEvent) => {
    setFirst(e.first);
    setPageSize(e.rows);
  };
  const onReorder = (e: DataTableColReorderEvent) => {
    const keys = (e.columns as unknown as Array<{ props?: { columnKey?: string } }>)
      .map((c) => c.props?.columnKey)
      .filter((k): k is string => !!k && k !== SELECT_KEY && k !== ACTIONS_KEY);
    const next = applyColumnOrder(DEFAULT_COLUMN_ORDER, keys);
    setOrder(next);
    saveColumnOrder(userId, next);
  };

  const activeSort = sort ? LISTING_COLUMNS.find((c) => c.sortField === sort.field) : undefined;

  return (
    <div data-testid="funds-listing" ref={gridTop}>
      <div className="fa-aud-toolbar" role="toolbar" aria-label="Fund actions">
        {(Object.keys(ACTION_LABELS) as StatusActionKey[]).map((a) => (
          <Button
            key={a}
            label={ACTION_LABELS[a].label}
            icon={ACTION_LABELS[a].icon}
            size="small"
            disabled={!isActionEnabled(a, statuses) || busy !== null}
            loading={busy === a}
            onClick={() => void run(a)}
          />
        ))}
        <Button
          label="Delete"
          icon="pi pi-trash"
          size="small"
          severity="danger"
          outlined
          disabled={!isDeleteEnabled(statuses) || busy !== null}
          loading={busy === 'remove'}
          onClick={() => setConfirmDelete(true)}
        />
        <Button label="Download" icon="pi pi-download" size="small" outlined disabled={selection.length === 0} onClick={() => setDownloadOpen(true)} />
        <Button
          label="Details"
          icon="pi pi-search"
          size="small"
          outlined
          disabled={selection.length !== 1}
          onClick={() => setDetailsId(selection[0]?.id ?? null)}
        />
        <span className="fa-grow" />
        <span className="fa-muted" aria-live="polite">
          {selection.length ? `${selection.length} selected` : `${shownCount(pager)} fund request${single ? '' : 's'}`}
        </span>
        {!selection.length && <CountAllButton {...pager} />}
      </div>
      {warning && (
        <div className="fa-warning-banner" role="alert" data-testid="unchanged-warning">
          {warning}
        </div>
      )}
      <DataTable
        value={shown}
        dataKey="id"
        lazy
        loading={loading}
        paginator
        first={first}
        rows={pageSize}
        totalRecords={pagerTotal(paging.pagination, shown.length, exact)}
        rowsPerPageOptions={ROW_CHOICES}
        paginatorTemplate={cappedPaginatorTemplate({ ...pager, shownRows: shown.length })}
        onPage={onPage}
        sortField={activeSort?.key}
        sortOrder={sort ? (sort.order === 'desc' ? -1 : 1) : 0}
        onSort={onSort}
        removableSort
        selectionMode="checkbox"
        selection={selection}
        onSelectionChange={(e) => setSelectedIds((e.value as AuditorFundRow[]).map((r) => r.id))}
        metaKeySelection={false}
        selectionAriaLabel="name"
        onRowDoubleClick={(e) => setDetailsId((e.data as AuditorFundRow).id)}
        reorderableColumns
        onColReorder={onReorder}
        size="small"
        stripedRows
        emptyMessage="No data available"
        aria-label="Fund requests"
        className="fa-aud-listing-grid"
        scrollable
        scrollHeight={scrollHeight}
        tableStyle={{ tableLayout: 'fixed', width: '100%', minWidth: `${LISTING_MIN_WIDTH_REM}rem` }}
        cellMemoProps={CELL_MEMO_PROPS}
        virtualScrollerOptions={virtualRows(LISTING_ROW_HEIGHT)}
      >
        <Column selectionMode="multiple" columnKey={SELECT_KEY} reorderable={false} style={{ width: `${SELECT_WIDTH_REM}rem` }} />
        {columns.map((c) => (
          <Column
            key={c.key}
            columnKey={c.key}
            field={c.key}
            header={c.header}
            sortable={Boolean(c.sortField)}
            body={(r: AuditorFundRow) => (
              <span data-col={c.key} title={c.title?.(r) || undefined}>
                {c.body(r)}
              </span>
            )}
            style={{ width: `${c.width}rem` }}
          />
        ))}
        <Column
          columnKey={ACTIONS_KEY}
          reorderable={false}
          header={<span className="fa-sr-only">Details</span>}
          body={(r: AuditorFundRow) => (
            <Button icon="pi pi-search" rounded text size="small" aria-label={`Fund details of ${r.name}`} onClick={() => setDetailsId(r.id)} />
          )}
          style={{ width: `${DETAILS_WIDTH_REM}rem` }}
          frozen
          alignFrozen="right"
        />
      </DataTable>
      <ConfirmDialog
        visible={confirmDelete}
        onHide={() => setConfirmDelete(false)}
        header="Delete fund requests"
        message={DELETE_CONFIRMATION}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Delete"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        accept={() => void run('remove')}
      />
      <DownloadDialog
        fundIds={selection.map((r) => r.id)}
        visible={downloadOpen}
        onHide={() => setDownloadOpen(false)}
        onShowQueue={() => showTab('downloads')}
      />
      {detailsId !== null && <FundDetailsModal fundId={detailsId} onClose={() => setDetailsId(null)} onSaved={load} onOpenFund={setDetailsId} />}
    </div>
  );
}
