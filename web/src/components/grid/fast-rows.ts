/**
 * What keeps a large PrimeReact DataTable quick (200 rows x ~40 columns): rows rendered only
 * while in view (virtual scrolling at a fixed row height), and cells compared by a revision number
 * instead of deep-comparing every field of their row on each render. PrimeReact re-renders every
 * row when anything in the table changes (a selection, say); each cell then decides, from the
 * props named in `cellMemoProps`, whether to render again. By default that includes the row object
 * itself, compared field by field for each of its cells, which for 8,000 cells costs most of a
 * second. Here a row is stamped with a number that changes only when the row is loaded again, so
 * the cell compares one number.
 */
import { useEffect, useMemo, useReducer, useRef } from 'react';
import type { VirtualScrollerProps } from 'primereact/virtualscroller';

/** The field a revised row carries: a number new for every load of the rows. */
export const ROW_REVISION = '__rev';

/** A row with its revision. */
export type Revised<R> = R & { [ROW_REVISION]: number };

/**
 * The props PrimeReact compares to decide whether a body cell renders again: the row's revision
 * in place of the row, and the cell's own state (all plain values, compared with ===).
 */
export const CELL_MEMO_PROPS = [
  `rowData.${ROW_REVISION}`,
  'field',
  'allowCellSelection',
  'isCellSelected',
  'editMode',
  'index',
  'rowIndex',
  'tabIndex',
  'editing',
  'expanded',
  'frozenCol',
  'alignFrozenCol',
];

let revision = 0;

/**
 * Copies `rows` with a fresh revision each, whenever `rows` or any of `deps` (anything else the
 * cells show, such as the funds marked '*') changes; the same array otherwise.
 * @param rows plain row objects (not store proxies: copying a proxy reads every field through it)
 */
export function useRevisedRows<R extends object>(rows: readonly R[], ...deps: unknown[]): Revised<R>[] {
  return useMemo(() => {
    revision += 1;
    return rows.map((r) => ({ ...r, [ROW_REVISION]: revision }) as Revised<R>);
  }, [rows, ...deps]);
}

/**
 * Virtual scrolling of a grid's rows at `rowHeight` pixels a row: only the rows in view and a few
 * around them are in the page. The grid needs `scrollable` and a `scrollHeight`, and rows of
 * exactly that height (set in CSS). One object per height, so the grid sees the same options on
 * every render.
 */
export function virtualRows(rowHeight: number): VirtualScrollerProps {
  let options = optionsByHeight.get(rowHeight);
  if (!options) {
    options = { itemSize: rowHeight, numToleratedItems: 10 };
    optionsByHeight.set(rowHeight, options);
  }
  return options;
}
const optionsByHeight = new Map<number, VirtualScrollerProps>();

/**
 * Renders the calling grid once more after its number of rows changed. PrimeReact's virtual
 * scroller sizes its scrollable area after a render and shows the new size only at the next one:
 * without this, a page of 200 after one of 100 scrolls only as far as row 100 until scrolled.
 */
export function useRowCountSettled(count: number): void {
  const [, render] = useReducer((n: number) => n + 1, 0);
  const seen = useRef(count);
  useEffect(() => {
    if (seen.current === count) return;
    seen.current = count;
    render();
  }, [count]);
}
