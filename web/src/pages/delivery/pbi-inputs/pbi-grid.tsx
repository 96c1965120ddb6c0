/**
 * The PowerBI inputs grid (delivery spec "PowerBI inputs"): Input Type, File Name, SAS Token
 * (masked: only its last characters are kept), Uploaded By, Token Expiry Date, Upload Date; 10 per
 * page, newest first unless sorted by a header; dates DD/MM/YYYY.
 */
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import type { ReactNode } from 'react';
import type { SortSpec } from '../../../api/delivery-types';
import type { PbiInputView } from '../../../api/pbi-inputs';
import { GridError, pagedTableProps } from '../../../components/grid/grid-message';
import { GridHeader } from '../../../components/grid/grid-header';
import { ariaSort } from '../../../components/grid/sort-cycle';
import type { PagedList } from '../../../components/grid/use-paged-list';
import { displayDateTime } from '../../../../../rules';

const COLUMNS: Array<{ header: string; field: string | null; key: string; body: (r: PbiInputView) => ReactNode }> = [
  { header: 'Input Type', field: 'pbi_input_type', key: 'pbi_input_type', body: (r) => r.pbi_input_type_name },
  { header: 'File Name', field: 'file_name', key: 'file_name', body: (r) => r.file_name },
  {
    header: 'SAS Token',
    field: null,
    key: 'sas_token',
    body: (r) => <code aria-label={r.sas_token ? `Token ending in ${r.sas_token.slice(-4)}` : 'No token'}>{r.sas_token ?? ''}</code>,
  },
  { header: 'Uploaded By', field: 'uploaded_by', key: 'uploaded_by', body: (r) => r.uploaded_by ?? '' },
  {
    header: 'Token Expiry Date',
    field: 'token_expiry_date',
    key: 'token_expiry_date',
    body: (r) => (
      <>
        {displayDateTime(r.token_expiry_date)}
        {r.token_expired && <span className="fa-expired"> expired</span>}
      </>
    ),
  },
  { header: 'Upload Date', field: 'created_at', key: 'created_at', body: (r) => displayDateTime(r.upload_date) },
];

/** The grid; header clicks sort on the server (None -> descending -> ascending -> None). */
export function PbiGrid({
  list,
  sorting,
  onSort,
}: {
  list: PagedList<PbiInputView>;
  sorting: readonly SortSpec[];
  onSort: (field: string, multi: boolean) => void;
}) {
  if (list.error && !list.loading) return <GridError message={list.error} onRetry={() => void list.reload()} />;
  return (
    <DataTable {...pagedTableProps(list, 'No PowerBI inputs uploaded')} className="fa-file-grid fa-pbi-grid">
      {COLUMNS.map((c) => (
        <Column
          key={c.key}
          header={<GridHeader label={c.header} sortField={c.field} sorting={sorting} onSort={onSort} />}
          pt={{ headerCell: { 'aria-sort': c.field ? ariaSort(sorting, c.field) : undefined, 'data-col': c.key } as never }}
          body={c.body}
        />
      ))}
    </DataTable>
  );
}
