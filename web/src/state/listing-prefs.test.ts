import { describe, expect, it } from 'vitest';
import { defaultListingPrefs, listingPrefsKey, sanitizeListingPrefs } from './listing-prefs';

describe('listing preferences', () => {
  it('are kept per user', () => {
    expect(listingPrefsKey(7)).toBe('fa.listing.7');
    expect(listingPrefsKey('7')).not.toBe(listingPrefsKey(8));
  });

  it('keep valid filters, sorting, offset, page size and layout', () => {
    const prefs = {
      filters: [
        { field: 'status', type: 'enum', value: ['Pending'] },
        { field: 'name', type: 'text', value: 'Bond' },
        { field: 'dataDue', type: 'date', value: { from: '2023-01-01' } },
        { field: 'PM', type: 'number', value: { min: 1, max: 'x' } },
      ],
      activeFilterId: 1000,
      sorting: [{ field: 'name', order: 'asc' }],
      offset: 200,
      rows: 200,
      columnOrder: ['name', 'status'],
      hiddenColumns: ['notes'],
    };
    expect(sanitizeListingPrefs(prefs)).toEqual({
      ...prefs,
      filters: [
        prefs.filters[0],
        prefs.filters[1],
        { field: 'dataDue', type: 'date', value: { from: '2023-01-01', to: undefined } },
        { field: 'PM', type: 'number', value: { min: 1, max: undefined } },
      ],
    });
  });

  it('fall back to the defaults for anything malformed', () => {
    expect(sanitizeListingPrefs(null)).toEqual(defaultListingPrefs());
    const p = sanitizeListingPrefs({
      filters: [
        { field: 'x', type: 'regex', value: '.*' },
        { type: 'text', value: 'a' },
        { field: 'status', type: 'enum', value: 'Pending' },
      ],
      sorting: [{ field: 'name', order: 'up' }, 'name'],
      offset: -5,
      rows: 7,
      columnOrder: 'name',
      hiddenColumns: 'all',
    });
    expect(p).toEqual(defaultListingPrefs());
  });

  it('align the offset to the page size', () => {
    expect(sanitizeListingPrefs({ offset: 150, rows: 100 }).offset).toBe(100);
    expect(defaultListingPrefs().rows).toBe(100);
  });
});
