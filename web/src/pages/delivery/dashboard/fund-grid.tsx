/**
 * The fund listing grid: server-side paging (page sizes 50/100/200; a count capped at 10,000 reads
 * "10,000+" with Count all, components/grid/capped-paginator.tsx), multi-select (a click on a
 * row or its checkbox, or Tab to a row's checkbox and Space), custom sort headers, per-column filter
 * overlay, reorderable columns, a row context menu (View details, Download all) and double-click
 * to open a fund. Rows render only while in view, and a selection renders again only the rows it
 * changes (components/grid/fast-rows.ts).
 */
import { useMemo, useRef, useState, type MouseEvent } from 'react';
import { Column } from 'primereact/column';
import { ContextMenu } from 'primereact/contextmenu';
import { DataTable, type DataTableColReorderEvent } from 'primereact/datatable';
import { OverlayPanel } from 'primereact/overlaypanel';
import type { FundListingRow, ListingFilter, SortSpec } from '../../../api/delivery-types';
import { pagerTotal } from '../../../components/grid/capped-count';
import { cappedPaginatorTemplate, type CappedPagerProps } from '../../../components/grid/capped-paginator';
import { ColumnFilter, type FilterOption } from '../../../components/grid/column-filter';
import { GridHeader } from '../../../components/grid/grid-header';
import { GridEmpty } from '../../../components/grid/grid-message';
import { ariaSort } from '../../../components/grid/sort-cycle';
import { CELL_MEMO_PROPS, useRevisedRows, useRowCountSettled, virtualRows } from '../../../components/grid/fast-rows';
import { LISTING_PAGE_SIZES } from '../../../state/listing-prefs';
import type { CellContext, ListingColumn } from './columns';

export interface FundGridProps {
  columns: readonly ListingColumn[];
  rows: readonly FundListingRow[];
  /** the paging of the page shown, its count capped at the server's 10,000, and the exact count once asked for */
  paging: Omit<CappedPagerProps, 'shownRows'>;
  offset: number;
  pageSize: number;
  loading: boolean;
  /** Text of the empty grid ('No data available', or a loading text). */
  emptyText: string;
  sorting: readonly SortSpec[];
  filters: readonly ListingFilter[];
  administratorOptions: readonly FilterOption[];
  selection: FundListingRow[];
  starred: ReadonlySet<number>;
  onSelectionChange: (rows: FundListingRow[]) => void;
  onSort: (field: string, multi: boolean) => void;
  onFilter: (field: string, filter: ListingFilter | null) => void;
  onPage: (offset: number, rows: number) => void;
  onReorder: (visibleKeys: string[]) => void;
  onOpen: (id: number) => void;
  onDownloadAll: (row: FundListingRow) => void;
}

const SELECT_KEY = '__select';
/** Height of a body row in pixels (delivery.css gives the rows exactly this height). */
export const FUND_GRID_ROW_HEIGHT = 36;

/** The listing grid. */
export function FundGrid(props: FundGridProps) {
  const { columns, sorting, filters } = props;
  const overlay = useRef<OverlayPanel>(null);
  const menu = useRef<ContextMenu>(null);
  const [filterCol, setFilterCol] = useState<ListingColumn | null>(null);
  const [menuRow, setMenuRow] = useState<FundListingRow | null>(null);
  // the cells see the latest callback without being rendered again for a new one
  const openRef = useRef(props.onOpen);
  openRef.current = props.onOpen;
  const ctx: CellContext = useMemo(() => ({ starred: props.starred, openFund: (id: number) => openRef.current(id) }), [props.starred]);
  const rows = useRevisedRows(props.rows, props.starred);
  useRowCountSettled(rows.length);
  // remount when the set of shown columns changes (the grid's own reorder state would misplace them)
  const tableKey = useMemo(
    () =>
      columns
        .map((c) => c.key)
        .sort()
        .join(','),
    [columns],
  );

  // the filter button that opened the overlay gets the focus back when it closes
  const filterButton = useRef<HTMLButtonElement | null>(null);

  const openFilter = (c: ListingColumn, e: MouseEvent<HTMLButtonElement>) => {
    e.stopPropagation();
    filterButton.current = e.currentTarget;
    setFilterCol(c);
    overlay.current?.toggle(e);
  };

  const onReorder = (e: DataTableColReorderEvent) => {
    const keys = (e.columns as unknown as Array<{ props: { columnKey?: string } }>)
      .map((c) => c.props.columnKey)
      .filter((k): k is string => !!k && k !== SELECT_KEY);
    props.onReorder(keys);
  };

  const menuModel = [
    { label: 'View details', icon: 'pi pi-eye', command: () => menuRow && props.onOpen(menuRow.id) },
    { label: 'Download all', icon: 'pi pi-download', command: () => menuRow && props.onDownloadAll(menuRow) },
  ];

  const current = filterCol?.field ? filters.find((f) => f.field === filterCol.field) : undefined;
  const options = filterCol?.filter?.options === 'administrators' ? props.administratorOptions : filterCol?.filter?.options;

  return (
    <>
      <ContextMenu model={menuModel} ref={menu} onHide={() => setMenuRow(null)} />
      <DataTable
        key={tableKey}
        value={rows}
        dataKey="id"
        lazy
        paginator
        first={props.offset}
        rows={props.pageSize}
        totalRecords={pagerTotal(props.paging.pagination, rows.length, props.paging.exact)}
        rowsPerPageOptions={[...LISTING_PAGE_SIZES]}
        onPage={(e) => props.onPage(e.first, e.rows)}
        paginatorTemplate={cappedPaginatorTemplate({ ...props.paging, shownRows: rows.length })}
        loading={props.loading}
        emptyMessage={<GridEmpty text={props.emptyText} />}
        selectionMode="multiple"
        metaKeySelection={false}
        selection={props.selection}
        onSelectionChange={(e) => props.onSelectionChange(e.value as FundListingRow[])}
        selectionAriaLabel="name"
        cellMemoProps={CELL_MEMO_PROPS}
        virtualScrollerOptions={virtualRows(FUND_GRID_ROW_HEIGHT)}
        contextMenuSelection={menuRow ?? undefined}
        onContextMenuSelectionChange={(e) => setMenuRow(e.value as unknown as FundListingRow)}
        onContextMenu={(e) => menu.current?.show(e.originalEvent)}
        onRowDoubleClick={(e) => props.onOpen((e.data as FundListingRow).id)}
        reorderableColumns
        onColReorder={onReorder}
        scrollable
        scrollHeight="calc(100vh - 340px)"
        size="small"
        stripedRows
        showGridlines
        className="fa-fund-grid"
        tableStyle={{ minWidth: '60rem' }}
        rowClassName={(r: FundListingRow) => ({ 'fa-row-starred': props.starred.has(r.id) })}
      >
        {/* kept in view when scrolling sideways by CSS (position: sticky): PrimeReact's frozen columns measure the page for every cell */}
        <Column
          selectionMode="multiple"
          columnKey={SELECT_KEY}
          reorderable={false}
          headerStyle={{ width: '3rem' }}
          className="fa-grid-sticky"
          headerClassName="fa-grid-sticky"
        />
        {columns.map((c) => (
          <Column
            key={c.key}
            columnKey={c.key}
            header={
              <GridHeader
                label={c.header}
                sortField={c.sortable ? c.field : null}
                sorting={sorting}
                onSort={props.onSort}
                filterable={Boolean(c.filter && c.field)}
                filterActive={Boolean(c.field && filters.some((f) => f.field === c.field))}
                onFilterClick={(e) => openFilter(c, e)}
              />
            }
            body={(r: FundListingRow) => c.body(r, ctx)}
            style={c.minWidth ? { minWidth: c.minWidth } : undefined}
            pt={{ headerCell: { 'aria-sort': c.sortable ? ariaSort(sorting, c.field) : undefined, 'data-col': c.key } as never }}
          />
        ))}
      </DataTable>
      <OverlayPanel
        ref={overlay}
        onHide={() => {
          setFilterCol(null);
          filterButton.current?.focus();
        }}
        className="fa-col-filter-panel"
      >
        {filterCol?.field && filterCol.filter && (
          <ColumnFilter
            key={filterCol.key}
            label={filterCol.header}
            field={filterCol.field}
            type={filterCol.filter.type}
            options={options ?? []}
            current={current}
            onApply={(f) => {
              props.onFilter(filterCol.field as string, f);
              overlay.current?.hide();
            }}
          />
        )}
      </OverlayPanel>
    </>
  );
}
