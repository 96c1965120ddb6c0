/**
 * The Import files grid: Administrator, File, Type, Sub Type, Status, Date (newest first unless
 * sorted by a header, 200 per page). An Error status carries the tooltip 'Import file error' with the payload's error;
 * a warning (a file already imported, not processed again) shows in the cell too.
 */
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Tooltip } from 'primereact/tooltip';
import type { ReactNode } from 'react';
import type { ImportFileRow, SortSpec } from '../../../api/delivery-types';
import { StatusTag } from '../../../components/files/status-tag';
import { GridError, pagedTableProps } from '../../../components/grid/grid-message';
import { GridHeader } from '../../../components/grid/grid-header';
import { ariaSort } from '../../../components/grid/sort-cycle';
import type { PagedList } from '../../../components/grid/use-paged-list';
import { displayDateTime } from '../../../../../rules';

/** The status cell; errors and warnings explain themselves in a tooltip (hover or focus). */
export function ImportStatusCell({ row }: { row: ImportFileRow }) {
  const id = `fa-import-status-${row.id}`;
  const error = row.status === 'Error' ? (typeof row.payload?.error === 'string' && row.payload.error) || 'The file could not be imported' : null;
  const warning = !error && typeof row.payload?.warning === 'string' ? row.payload.warning : null;
  if (!error && !warning) return <StatusTag status={row.status} />;
  // a warning is shown in the cell, not only on hover: a file already imported is not processed again
  const duplicateOf = typeof row.payload?.duplicateOf === 'number' ? row.payload.duplicateOf : null;
  return (
    <>
      <StatusTag status={row.status} id={id} tabIndex={0} />
      {warning && (
        <span className="fa-import-warning" role="note">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" />{' '}
          {duplicateOf !== null ? `Duplicate of import ${duplicateOf}: not processed again` : 'Warning'}
        </span>
      )}
      <Tooltip target={`#${id}`} event="both" position="left" className="fa-import-tooltip">
        <strong>{error ? 'Import file error' : 'Import file warning'}</strong>
        <div>{error ?? warning}</div>
      </Tooltip>
    </>
  );
}

/** Sortable columns: header text and the server's sort field. */
const COLUMNS: Array<{ header: string; field: string; body: (r: ImportFileRow) => ReactNode }> = [
  { header: 'Administrator', field: 'administrator', body: (r) => r.administrator ?? r.administratorCode ?? '' },
  { header: 'File', field: 'fileName', body: (r) => r.fileName },
  { header: 'Type', field: 'type', body: (r) => r.type ?? '' },
  { header: 'Sub Type', field: 'subType', body: (r) => r.subType ?? '' },
  { header: 'Status', field: 'status', body: (r) => <ImportStatusCell row={r} /> },
  { header: 'Date', field: 'created_at', body: (r) => displayDateTime(r.created_at) },
];

/** The grid of imported files; header clicks sort on the server (None -> descending -> ascending -> None). */
export function ImportGrid({
  list,
  sorting,
  onSort,
}: {
  list: PagedList<ImportFileRow>;
  sorting: readonly SortSpec[];
  onSort: (field: string, multi: boolean) => void;
}) {
  if (list.error && !list.loading) return <GridError message={list.error} onRetry={() => void list.reload()} />;
  return (
    <DataTable
      {...pagedTableProps(list, 'No data available')}
      className="fa-file-grid fa-import-grid"
      rowClassName={(r: ImportFileRow) => ({ 'fa-row-error': r.status === 'Error' })}
    >
      {COLUMNS.map((c) => (
        <Column
          key={c.field}
          header={<GridHeader label={c.header} sortField={c.field} sorting={sorting} onSort={onSort} />}
          headerClassName={`fa-col-${c.field}`}
          pt={{ headerCell: { 'aria-sort': ariaSort(sorting, c.field), 'data-col': c.field } as never }}
          body={c.body}
        />
      ))}
    </DataTable>
  );
}
