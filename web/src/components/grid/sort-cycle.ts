/**
 * Header-click sorting (auditor spec section 4): each click on a column cycles None ->
 * descending -> ascending -> None. A plain click sorts by that column alone; a click with the
 * meta (or Ctrl) key adds, changes or removes the column in a multi-column sort.
 */
import type { SortSpec } from '../../api/delivery-types';

/** The next order of a column after a click. */
export function nextOrder(current: SortSpec['order'] | undefined): SortSpec['order'] | undefined {
  if (current === undefined) return 'desc';
  if (current === 'desc') return 'asc';
  return undefined;
}

/** The sorting after a click on `field`; `multi` when the meta key was held. */
export function nextSorting(sorting: readonly SortSpec[], field: string, multi: boolean): SortSpec[] {
  const index = sorting.findIndex((s) => s.field === field);
  const order = nextOrder(index >= 0 ? sorting[index].order : undefined);
  if (!multi) return order ? [{ field, order }] : [];
  const next = sorting.map((s) => ({ ...s }));
  if (index >= 0) {
    if (order) next[index] = { field, order };
    else next.splice(index, 1);
  } else if (order) {
    next.push({ field, order });
  }
  return next;
}

/** The `aria-sort` value of a column. */
export function ariaSort(sorting: readonly SortSpec[], field: string | null | undefined): 'ascending' | 'descending' | 'none' {
  const s = field ? sorting.find((x) => x.field === field) : undefined;
  return s ? (s.order === 'asc' ? 'ascending' : 'descending') : 'none';
}
