/** Privacy notice scroll rule: Accept is enabled only within 50 px of the bottom (spec section 9). */

export const PRIVACY_SCROLL_THRESHOLD_PX = 50;

/** Whether a scroll box is scrolled to within `threshold` px of its bottom (true when it does not scroll). */
export function isScrolledNearBottom(
  box: { scrollTop: number; clientHeight: number; scrollHeight: number },
  threshold: number = PRIVACY_SCROLL_THRESHOLD_PX,
): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= threshold;
}
