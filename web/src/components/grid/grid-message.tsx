/** Loading, empty and error states shared by the delivery grids. */
import { Button } from 'primereact/button';
import type { PagedList } from './use-paged-list';

/** The empty state of a grid (e.g. 'No data available'). */
export function GridEmpty({ text }: { text: string }) {
  return (
    <div className="fa-grid-empty" role="status">
      {text}
    </div>
  );
}

/** The error state of a grid with a retry button. */
export function GridError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="fa-grid-error" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <span>The list could not be loaded: {message}</span>
      <Button type="button" label="Retry" icon="pi pi-refresh" size="small" outlined onClick={onRetry} />
    </div>
  );
}

/**
 * The DataTable props every server-paged file grid shares: lazy paging bound to a paged list,
 * the loading state and the empty message. Spread them: `<DataTable {...pagedTableProps(list, 'No files available')}>`.
 */
export function pagedTableProps<R>(list: PagedList<R>, emptyText: string) {
  return {
    value: list.rows,
    dataKey: 'id',
    lazy: true,
    paginator: true,
    first: list.offset,
    rows: list.limit,
    totalRecords: list.count,
    onPage: (e: { first: number }) => list.setOffset(e.first),
    loading: list.loading,
    emptyMessage: <GridEmpty text={list.loading ? 'Loading...' : emptyText} />,
    size: 'small' as const,
    stripedRows: true,
  };
}
