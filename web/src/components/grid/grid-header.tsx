/**
 * A grid column header: the title as a sort button (click cycles None -> descending -> ascending
 * -> None; with the meta or Ctrl key the column joins a multi-column sort) and, for filterable
 * columns, a filter button. Both are real buttons: focusable, Enter and Space act.
 */
import type { MouseEvent } from 'react';
import type { SortSpec } from '../../api/delivery-types';

export interface GridHeaderProps {
  label: string;
  /** Field sorted by this column (null: not sortable). */
  sortField: string | null;
  sorting: readonly SortSpec[];
  onSort?: (field: string, multi: boolean) => void;
  /** Whether the column can be filtered. */
  filterable?: boolean;
  /** Whether a filter is set on the column. */
  filterActive?: boolean;
  onFilterClick?: (e: MouseEvent<HTMLButtonElement>) => void;
}

/** Header content of a sortable and filterable column. */
export function GridHeader({ label, sortField, sorting, onSort, filterable, filterActive, onFilterClick }: GridHeaderProps) {
  const index = sortField ? sorting.findIndex((s) => s.field === sortField) : -1;
  const sort = index >= 0 ? sorting[index] : undefined;
  const icon = sort ? (sort.order === 'asc' ? 'pi pi-sort-amount-up-alt' : 'pi pi-sort-amount-down') : 'pi pi-sort-alt';
  return (
    <span className="fa-grid-head">
      {sortField && onSort ? (
        <button
          type="button"
          className={`fa-grid-sort${sort ? ' fa-grid-sorted' : ''}`}
          data-sort={sort?.order ?? 'none'}
          title="Sort (hold Ctrl or Cmd to sort by several columns)"
          onClick={(e) => onSort(sortField, e.metaKey || e.ctrlKey)}
        >
          <span>{label}</span>
          <i className={icon} aria-hidden="true" />
          {sort && sorting.length > 1 && (
            <span className="fa-grid-sort-rank" aria-label={`sort priority ${index + 1}`}>
              {index + 1}
            </span>
          )}
        </button>
      ) : (
        <span className="fa-grid-label">{label}</span>
      )}
      {filterable && (
        <button
          type="button"
          className={`fa-grid-filter${filterActive ? ' fa-grid-filter-on' : ''}`}
          aria-label={`Filter ${label}`}
          aria-pressed={filterActive ? true : undefined}
          aria-haspopup="dialog"
          onClick={onFilterClick}
        >
          <i className={filterActive ? 'pi pi-filter-fill' : 'pi pi-filter'} aria-hidden="true" />
        </button>
      )}
    </span>
  );
}
