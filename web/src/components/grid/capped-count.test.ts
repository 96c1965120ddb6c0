import { describe, expect, it } from 'vitest';
import { countLabel, cursorTo, lastPageOffset, pagerTotal, type CappedPagination } from './capped-count';

const page = (over: Partial<CappedPagination>): CappedPagination => ({
  offset: 0,
  limit: 100,
  count: 10_000,
  countCapped: true,
  next: 'N',
  previous: null,
  ...over,
});

describe('capped listing counts', () => {
  it('shows a count past the cap as 10,000+ and an exact one as it is', () => {
    expect(countLabel(10_000, true)).toBe('10,000+');
    expect(countLabel(10_000, false)).toBe('10,000');
    expect(countLabel(1, false)).toBe('1');
  });

  it('sends the cursor of the page right after or before the one shown, none for a jump or another page size', () => {
    const shown = page({ offset: 200, next: 'N', previous: 'P' });
    expect(cursorTo(shown, 300, 100)).toBe('N');
    expect(cursorTo(shown, 100, 100)).toBe('P');
    expect(cursorTo(shown, 500, 100)).toBeNull();
    expect(cursorTo(shown, 0, 100)).toBeNull();
    expect(cursorTo(shown, 300, 50)).toBeNull();
    expect(cursorTo(null, 100, 100)).toBeNull();
  });

  it('offers the page after the cap while there is a next page, and the exact pages once counted', () => {
    // on the cap's last page a next page still exists: the paginator must allow going there
    expect(pagerTotal(page({ offset: 9_900 }), 100, null)).toBe(10_001);
    expect(pagerTotal(page({ offset: 10_000 }), 100, null)).toBe(10_101);
    expect(pagerTotal(page({ offset: 10_000, next: null }), 42, null)).toBe(10_042);
    expect(pagerTotal(page({ offset: 0 }), 100, 123_456)).toBe(123_456);
    expect(pagerTotal(page({ count: 57, countCapped: false, next: null }), 57, null)).toBe(57);
  });

  it('finds the offset of the last page', () => {
    expect(lastPageOffset(123_456, 100)).toBe(123_400);
    expect(lastPageOffset(123_400, 100)).toBe(123_300);
    expect(lastPageOffset(0, 100)).toBe(0);
  });
});
