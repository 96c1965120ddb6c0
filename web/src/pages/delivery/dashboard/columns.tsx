/**
 * Columns of the delivery fund listing in the spec's order (delivery spec section 2), with the
 * ones hidden by default, the aggregation columns (only with `config.aggregation`), the field each
 * sorts and filters by (as the server's listing accepts them) and the cell formats of section 9.
 */
import { withBase } from '../../../api/base-path';
import type { ReactNode } from 'react';
import type { FilterType, FundListingRow } from '../../../api/delivery-types';
import type { FilterOption } from '../../../components/grid/column-filter';
import { formatPercent, yesNo } from '../../../components/grid/format';
import { DATA_REQUEST_LABELS, DATA_REQUEST_STATUSES, statusLabel, type FundStatus, displayDate, displayDateTime } from '../../../../../rules';

/** What a cell renderer may need besides its row. */
export interface CellContext {
  starred: ReadonlySet<number>;
  openFund: (id: number) => void;
}

export interface ListingColumn {
  key: string;
  header: string;
  /** Field of the listing query this column sorts and filters by (null: neither). */
  field: string | null;
  sortable: boolean;
  filter?: { type: FilterType; options?: readonly FilterOption[] | 'administrators' };
  /** Hidden until chosen in the column chooser. */
  hidden?: boolean;
  /** Shown only when the aggregation feature is on. */
  aggregation?: boolean;
  body: (row: FundListingRow, ctx: CellContext) => ReactNode;
  minWidth?: string;
}

/** Status filter values (stored statuses with their delivery labels). */
export const STATUS_OPTIONS: readonly FilterOption[] = (
  ['Pending', 'Approved', 'Completed - Fund Closed', 'Issued', 'Paused', 'Declined', 'Deleted'] as const
).map((value: FundStatus) => ({ value, label: statusLabel(value) }));
const PROCESS_OPTIONS: readonly FilterOption[] = ['Processing', 'Ready', 'Idle'].map((v) => ({ value: v, label: v }));
const YES_NO: readonly FilterOption[] = [
  { value: 'Yes', label: 'Yes' },
  { value: 'No', label: 'No' },
];
const Y_N: readonly FilterOption[] = [
  { value: 'Y', label: 'Yes' },
  { value: 'N', label: 'No' },
];
const DATA_REQUEST_OPTIONS: readonly FilterOption[] = DATA_REQUEST_STATUSES.map((value) => ({ value, label: DATA_REQUEST_LABELS[value] }));

type Kind = 'text' | 'date' | 'datetime' | 'percent' | 'number' | 'bool';

/** A column showing one field of the row, sortable and filterable by that field. */
function col(key: keyof FundListingRow & string, header: string, kind: Kind = 'text', extra: Partial<ListingColumn> = {}): ListingColumn {
  const filterType: FilterType =
    kind === 'date' || kind === 'datetime' ? 'date' : kind === 'percent' || kind === 'number' ? 'number' : kind === 'bool' ? 'enum' : 'text';
  const body = (r: FundListingRow): ReactNode => {
    const v = r[key];
    if (kind === 'date') return displayDate(v as string | null);
    if (kind === 'datetime') return displayDateTime(v as string | null);
    if (kind === 'percent') return formatPercent(v as number | null);
    if (kind === 'bool') return yesNo(v);
    if (Array.isArray(v)) return v.join(', ');
    return v === null || v === undefined ? '' : String(v);
  };
  return { key, header, field: key, sortable: true, filter: { type: filterType, options: kind === 'bool' ? YES_NO : undefined }, body, ...extra };
}

/** A derived column the listing can neither sort nor filter. */
function shown(key: string, header: string, body: (r: FundListingRow, ctx: CellContext) => ReactNode, extra: Partial<ListingColumn> = {}): ListingColumn {
  return { key, header, field: null, sortable: false, body, ...extra };
}

/** Every listing column in the spec's order. */
export const LISTING_COLUMNS: readonly ListingColumn[] = [
  col('administrator', 'Administrator', 'text', { filter: { type: 'enum', options: 'administrators' }, minWidth: '12rem' }),
  col('country', 'Country'),
  col('requestDate', 'Request date', 'date'),
  col('period_end', 'Period end', 'date'),
  {
    key: 'status',
    header: 'Status',
    field: 'status',
    sortable: true,
    filter: { type: 'enum', options: STATUS_OPTIONS },
    body: (r, ctx) => (
      <span className="fa-status" data-status={statusLabel(r.status)}>
        {statusLabel(r.status)}
        {ctx.starred.has(r.id) && (
          <span className="fa-status-star" title="This fund cannot move into the state you have selected">
            *
          </span>
        )}
      </span>
    ),
  },
  shown('hasErrors', 'Error flag', (r) => yesNo(r.hasErrors)),
  col('processStatus', 'Process status', 'text', { filter: { type: 'enum', options: PROCESS_OPTIONS } }),
  shown('dataStatus', 'Data status', (r) => r.dataStatusUIField),
  shown('workPapers', 'Work papers', (r) => r.workPaperStatusUIField),
  col('dataRequestStatus', 'Data Requested Status', 'text', { filter: { type: 'enum', options: DATA_REQUEST_OPTIONS }, body: (r) => r.dataRequestStatusLabel }),
  col('selfOnboarded', 'Self Onboarded', 'bool'),
  col('client', 'Client', 'text', { minWidth: '12rem' }),
  col('name', 'Fund Name', 'text', { minWidth: '14rem' }),
  col('fundCode', 'Fund Code'),
  col('alternateCodes', 'Alternate Codes', 'text', { sortable: false }),
  shown('isParent', 'Is Parent', (r) => r.isParentUIField ?? '', { aggregation: true }),
  col('group_key', 'Aggreg Consol Key', 'text', { key: 'aggregConsolKey', aggregation: true }),
  col('aggreg_consol_flag', 'Aggreg Consol Flag', 'text', { aggregation: true }),
  col('needs_rerun', 'Needs rerun', 'bool', { aggregation: true }),
  col('parentId', 'Parent', 'number', {
    aggregation: true,
    body: (r, ctx) =>
      r.parentId ? (
        <a
          href={withBase(`/fund/${r.parentId}`)}
          onClick={(e) => {
            e.preventDefault();
            ctx.openFund(r.parentId as number);
          }}
        >
          Open parent
        </a>
      ) : (
        ''
      ),
  }),
  col('currency', 'Currency'),
  col('engagementCode', 'Engagement Code'),
  col('accounting_standard', 'Accounting standard', 'text', { hidden: true }),
  col('group_key', 'Group', 'text', { key: 'group' }),
  col('PM', 'PM', 'percent', { hidden: true }),
  col('TE', 'TE', 'percent', { hidden: true }),
  col('SAD', 'SAD', 'percent', { hidden: true }),
  col('connected_audit', 'Connected Audit', 'bool'),
  col('RTTPlus', 'RTT+', 'number'),
  col('RTTMinus', 'RTT-', 'number'),
  col('gfisClientCode', 'GFIS Client Code'),
  col('outputType', 'Output Type'),
  col('navClose', 'NAV Close', 'date'),
  col('periodStart', 'Period Start', 'date'),
  col('auditStart', 'Audit Start', 'date'),
  col('dataDue', 'Data Due', 'date'),
  col('structure', 'Fund structure'),
  col('external_valuations', 'External valuations', 'text', { filter: { type: 'enum', options: Y_N }, body: (r) => yesNo(r.external_valuations) }),
  col('price_type_1', 'Price type 1', 'text', { hidden: true }),
  col('price_type_2', 'Price type 2', 'text', { hidden: true }),
  col('price_type_3', 'Price type 3', 'text', { hidden: true }),
  col('price_source_1', 'Price source 1', 'text', { hidden: true }),
  col('price_source_2', 'Price source 2', 'text', { hidden: true }),
  col('price_source_3', 'Price source 3', 'text', { hidden: true }),
  col('notes', 'Notes', 'text', { hidden: true, minWidth: '14rem' }),
  col('created_by', 'Created by'),
  col('rerunDate', 'Rerun Date', 'datetime'),
  col('rerun_by', 'Rerun by'),
  col('rerun_by_role', 'Rerun by role'),
];

/** The columns available with or without the aggregation feature. */
export function availableColumns(aggregation: boolean): ListingColumn[] {
  return LISTING_COLUMNS.filter((c) => aggregation || !c.aggregation);
}

/** Keys of the columns hidden by default. */
export const DEFAULT_HIDDEN = LISTING_COLUMNS.filter((c) => c.hidden).map((c) => c.key);

/**
 * The columns in display order: the remembered order first (unknown keys skipped), then any
 * column not in it at its default place relative to the others.
 */
export function orderColumns<C extends { key: string }>(columns: readonly C[], order: readonly string[]): C[] {
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const result: C[] = order.map((k) => byKey.get(k)).filter((c): c is C => c !== undefined);
  const placed = new Set(result.map((c) => c.key));
  columns.forEach((c, i) => {
    if (placed.has(c.key)) return;
    // insert after the nearest earlier default neighbour already placed
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const idx = result.findIndex((r) => r.key === columns[j].key);
      if (idx >= 0) {
        at = idx + 1;
        break;
      }
    }
    result.splice(at, 0, c);
    placed.add(c.key);
  });
  return result;
}

/** Replaces the visible keys inside the full order by their new order (hidden columns keep their places). */
export function mergeColumnOrder(full: readonly string[], visibleNewOrder: readonly string[]): string[] {
  const visible = new Set(visibleNewOrder);
  const queue = [...visibleNewOrder];
  return full.map((k) => (visible.has(k) ? (queue.shift() ?? k) : k));
}
