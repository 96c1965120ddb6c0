import { describe, expect, it } from 'vitest';
import { ariaSort, nextOrder, nextSorting } from './sort-cycle';

describe('header-click sorting', () => {
  it('cycles None -> descending -> ascending -> None', () => {
    expect(nextOrder(undefined)).toBe('desc');
    expect(nextOrder('desc')).toBe('asc');
    expect(nextOrder('asc')).toBeUndefined();
    let s = nextSorting([], 'name', false);
    expect(s).toEqual([{ field: 'name', order: 'desc' }]);
    s = nextSorting(s, 'name', false);
    expect(s).toEqual([{ field: 'name', order: 'asc' }]);
    expect(nextSorting(s, 'name', false)).toEqual([]);
  });

  it('replaces the sort on a plain click and builds a multi-sort with the meta key', () => {
    const one = nextSorting([], 'name', false);
    expect(nextSorting(one, 'client', false)).toEqual([{ field: 'client', order: 'desc' }]);
    const two = nextSorting(one, 'client', true);
    expect(two).toEqual([
      { field: 'name', order: 'desc' },
      { field: 'client', order: 'desc' },
    ]);
    expect(nextSorting(two, 'name', true)).toEqual([
      { field: 'name', order: 'asc' },
      { field: 'client', order: 'desc' },
    ]);
    const removed = nextSorting(nextSorting(two, 'client', true), 'client', true);
    expect(removed).toEqual([{ field: 'name', order: 'desc' }]);
    expect(two).toHaveLength(2); // the input is not changed
  });

  it('gives aria-sort values', () => {
    const s = [{ field: 'name', order: 'asc' as const }];
    expect(ariaSort(s, 'name')).toBe('ascending');
    expect(ariaSort([{ field: 'name', order: 'desc' }], 'name')).toBe('descending');
    expect(ariaSort(s, 'client')).toBe('none');
    expect(ariaSort(s, null)).toBe('none');
  });
});
