/**
 * The Import files grid: Administrator, File, Type, Sub Type, Status, Date (newest first, 200 per
 * page). An Error status carries the tooltip 'Import file error' with the payload's error.
 */
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Tooltip } from 'primereact/tooltip';
import type { ImportFileRow } from '../../../api/delivery-types';
import { StatusTag } from '../../../components/files/status-tag';
import { formatFileDate } from '../../../components/grid/format';
import { GridError, pagedTableProps } from '../../../components/grid/grid-message';
import type { PagedList } from '../../../components/grid/use-paged-list';

/** The status cell; errors and warnings explain themselves in a tooltip (hover or focus). */
export function ImportStatusCell({ row }: { row: ImportFileRow }) {
  const id = `fa-import-status-${row.id}`;
  const error = row.status === 'Error' ? row.payload?.error || 'The file could not be imported' : null;
  const warning = !error && typeof row.payload?.warning === 'string' ? row.payload.warning : null;
  if (!error && !warning) return <StatusTag status={row.status} />;
  return (
    <>
      <StatusTag status={row.status} id={id} tabIndex={0} />
      <Tooltip target={`#${id}`} event="both" position="left" className="fa-import-tooltip">
        <strong>{error ? 'Import file error' : 'Import file warning'}</strong>
        <div>{error ?? warning}</div>
      </Tooltip>
    </>
  );
}

/** The grid of imported files. */
export function ImportGrid({ list }: { list: PagedList<ImportFileRow> }) {
  if (list.error && !list.loading) return <GridError message={list.error} onRetry={() => void list.reload()} />;
  return (
    <DataTable
      {...pagedTableProps(list, 'No data available')}
      className="fa-file-grid fa-import-grid"
      rowClassName={(r: ImportFileRow) => ({ 'fa-row-error': r.status === 'Error' })}
    >
      <Column header="Administrator" body={(r: ImportFileRow) => r.administrator ?? r.administratorCode ?? ''} />
      <Column header="File" field="fileName" />
      <Column header="Type" body={(r: ImportFileRow) => r.type ?? ''} />
      <Column header="Sub Type" body={(r: ImportFileRow) => r.subType ?? ''} />
      <Column header="Status" body={(r: ImportFileRow) => <ImportStatusCell row={r} />} />
      <Column header="Date" body={(r: ImportFileRow) => formatFileDate(r.created_at, true)} />
    </DataTable>
  );
}
