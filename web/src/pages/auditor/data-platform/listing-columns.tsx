/** Columns of the auditor funds listing: key, header, server sort field and cell renderer. */
import type { ReactNode } from 'react';
import type { AuditorFundRow } from '../../../api/auditor-types';
import { dataRequestLabel } from '../../../components/auditor/format';
import { displayDate } from '../../../../../rules';

/** A listing column. */
export interface ListingColumn {
  key: string;
  header: string;
  /** The field sent as `?sort=` (unset: not sortable). */
  sortField?: string;
  body: (row: AuditorFundRow) => ReactNode;
  /** Width in rem: the default columns fit a 1440 px window (`LISTING_MIN_WIDTH_REM`); long texts wrap to two lines. */
  width: number;
  /** The full text, shown on hover where a cell's two lines cut it. */
  title?: (row: AuditorFundRow) => string;
}

/** The share of required input files received, as the data-status bar shows it (assigned over total minus not required). */
export function availableShare(row: Pick<AuditorFundRow, 'dataStatusCounts'>): number {
  const c = row.dataStatusCounts;
  const total = (c.total ?? 0) - (c.notRequiredCount ?? 0);
  return total > 0 ? Math.min(1, Math.max(0, (c.assignedCount ?? 0) / total)) : 0;
}

function DataStatusCell({ row }: { row: AuditorFundRow }) {
  const share = availableShare(row);
  const color = row.dataStatusUIField === 'Received' ? '#16a34a' : row.isLate ? '#b91c1c' : '#1d4ed8';
  return (
    <span style={{ display: 'inline-flex', flexDirection: 'column', gap: 2, width: '100%' }}>
      <span>{row.dataStatusUIField}</span>
      <span
        role="progressbar"
        aria-label="Input files received"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share * 100)}
        style={{ height: 4, background: '#e2e8f0', borderRadius: 2, overflow: 'hidden' }}
      >
        <span style={{ display: 'block', height: '100%', width: `${share * 100}%`, background: color }} />
      </span>
    </span>
  );
}

/** The status cell: the upload status, with '*' when the last action left the fund unchanged. */
export function StatusCell({ row }: { row: AuditorFundRow }) {
  return (
    <span data-testid="fund-status">
      {row.uploadStatus || 'Pending'}
      {row.isStatusUnChanged && (
        <span className="fa-status-star" title="This fund could not move into the state you selected">
          *
        </span>
      )}
    </span>
  );
}

/** A code such as MUTUAL_FUND that may wrap after its underscores (a zero-width space after each). */
export function breakableCode(code: string | null | undefined): string {
  return (code ?? '').replace(/_/g, '_\u200b');
}

/** Every data column in its default order. */
export const LISTING_COLUMNS: readonly ListingColumn[] = [
  { key: 'name', header: 'Fund name', sortField: 'name', body: (r) => r.name, width: 12, title: (r) => r.name },
  { key: 'client', header: 'Client', sortField: 'client', body: (r) => r.client, width: 8, title: (r) => r.client },
  { key: 'type', header: 'Type', sortField: 'type', body: (r) => breakableCode(r.type), width: 7, title: (r) => r.type ?? '' },
  { key: 'administrator', header: 'TPA', sortField: 'administrator', body: (r) => r.administrator ?? '', width: 8.5, title: (r) => r.administrator ?? '' },
  { key: 'dueDate', header: 'Data due date', sortField: 'dueDate', body: (r) => displayDate(r.dueDate), width: 6.5 },
  {
    key: 'uploadStatus',
    header: 'Fund status',
    sortField: 'uploadStatus',
    body: (r) => <StatusCell row={r} />,
    width: 6.5,
    title: (r) => r.uploadStatus || 'Pending',
  },
  { key: 'dataRequestStatus', header: 'Data request', sortField: 'dataRequestStatus', body: (r) => dataRequestLabel(r.dataRequestStatus), width: 6.5 },
  { key: 'dataStatus', header: 'Data status', body: (r) => <DataStatusCell row={r} />, width: 7.5 },
  { key: 'workPaperStatus', header: 'Work papers', body: (r) => r.workPaperStatusUIField, width: 7.5 },
  { key: 'parent', header: 'Parent', body: (r) => r.isParentUIField ?? '', width: 5.5 },
];

/** Widths (rem) of the selection and details columns beside the data columns. */
export const SELECT_WIDTH_REM = 2.5;
export const DETAILS_WIDTH_REM = 3;

/**
 * The grid's least width (rem): every default column at its width, 81 rem (1296 px), so at a 1440 px
 * window all of them, the details button included, show without scrolling sideways.
 */
export const LISTING_MIN_WIDTH_REM = SELECT_WIDTH_REM + DETAILS_WIDTH_REM + LISTING_COLUMNS.reduce((n, c) => n + c.width, 0);

/** Column keys in their default order. */
export const DEFAULT_COLUMN_ORDER = LISTING_COLUMNS.map((c) => c.key);

/** The sort the listing starts with (spec: data due date descending). */
export const DEFAULT_SORT = { field: 'dueDate', order: 'desc' as const };

/**
 * Next sort after a header click (spec section 4: None, descending, ascending, None). The default
 * sort counts as the state of its column.
 */
export function nextSort(current: { field: string; order: 'asc' | 'desc' } | null, field: string): { field: string; order: 'asc' | 'desc' } | null {
  if (!current || current.field !== field) return { field, order: 'desc' };
  return current.order === 'desc' ? { field, order: 'asc' } : null;
}
