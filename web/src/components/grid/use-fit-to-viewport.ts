/**
 * The scroll height of a grid that ends inside the window: from the top of the grid's scroll area
 * to the bottom of the window, less what follows it on the page (its paginator, paddings, the
 * footer), so the page does not scroll and the grid's sideways scrollbar is never below the fold.
 * A grid sized by a fixed guess ran past the window's bottom. Measured again when the window is
 * resized or the content above the grid changes height.
 */
import { useCallback, useEffect, useLayoutEffect, useState } from 'react';

/** Smallest scroll height, in pixels: a few rows stay visible in a short window (the page scrolls instead). */
const MIN_HEIGHT_PX = 220;
/** First guess of what follows the scroll area (a paginator and the page's bottom), corrected once laid out. */
const BELOW_GUESS_PX = 96;

/**
 * @returns a ref callback for the element holding the grid, and the scroll height as CSS
 */
export function useFitToViewport(): [(el: HTMLElement | null) => void, string] {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [px, setPx] = useState<number | null>(null);
  const measure = useCallback(() => {
    const area = el?.querySelector('.p-datatable-wrapper');
    if (!area) return;
    const top = area.getBoundingClientRect().top + window.scrollY;
    setPx(Math.max(MIN_HEIGHT_PX, Math.floor(window.innerHeight - top - BELOW_GUESS_PX)));
  }, [el]);
  // once laid out: take off what still runs past the window's bottom
  useLayoutEffect(() => {
    if (px === null) return;
    const over = document.documentElement.scrollHeight - window.innerHeight;
    if (over > 0 && px > MIN_HEIGHT_PX) setPx(Math.max(MIN_HEIGHT_PX, px - over));
  }, [px]);
  useEffect(() => {
    measure();
    window.addEventListener('resize', measure);
    const area = el?.querySelector('.p-datatable-wrapper');
    const observer = typeof ResizeObserver === 'undefined' || !el ? null : new ResizeObserver(measure);
    // what sits above the grid in its container (toolbar, warning banner) moves it
    if (observer && el) for (const child of Array.from(el.children)) if (!area || !child.contains(area)) observer.observe(child);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [el, measure]);
  return [setEl, px === null ? 'calc(100vh - 300px)' : `${px}px`];
}
