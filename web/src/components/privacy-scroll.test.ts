import { describe, expect, it } from 'vitest';
import { isScrolledNearBottom, PRIVACY_SCROLL_THRESHOLD_PX } from './privacy-scroll';

describe('isScrolledNearBottom', () => {
  const box = (scrollTop: number) => ({ scrollTop, clientHeight: 400, scrollHeight: 1000 });
  it('is false at the top and far from the bottom', () => {
    expect(isScrolledNearBottom(box(0))).toBe(false);
    expect(isScrolledNearBottom(box(549))).toBe(false);
  });
  it('is true within 50 px of the bottom', () => {
    expect(PRIVACY_SCROLL_THRESHOLD_PX).toBe(50);
    expect(isScrolledNearBottom(box(550))).toBe(true);
    expect(isScrolledNearBottom(box(600))).toBe(true);
  });
  it('is true when the content does not scroll', () => {
    expect(isScrolledNearBottom({ scrollTop: 0, clientHeight: 400, scrollHeight: 300 })).toBe(true);
  });
});
