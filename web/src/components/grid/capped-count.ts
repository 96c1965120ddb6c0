/**
 * Paging of the fund listings, whose answers count matching funds only up to a cap (the server's
 * 10,000) and name the pages around the one shown by cursor (delivery spec section 2 "pagination
 * control"; auditor spec 2.3): the count as the grids show it ("10,000+" past the cap), the cursor
 * a page change sends (the next or the previous page by cursor, any other page by its offset), and
 * the number of rows the paginator is given so that it offers the pages there are.
 */

/** The paging of a listing answer (`pagination`). */
export interface CappedPagination {
  offset: number;
  limit: number;
  /** matching funds, or the cap when there are more (`countCapped`) */
  count: number;
  countCapped: boolean;
  /** cursor of the page after this one, null on the last page */
  next: string | null;
  /** cursor of the page before this one, null on the first page */
  previous: string | null;
}

/** A count as the grids show it: `1,234`, or `10,000+` when there are more. */
export function countLabel(count: number, capped: boolean): string {
  return `${count.toLocaleString('en-US')}${capped ? '+' : ''}`;
}

/**
 * The cursor a page change sends: the shown page's `next` when the page right after it is asked
 * for, its `previous` for the page right before, with the same page size; none for any other
 * page (a jump, asked for by its offset) or when nothing is shown yet.
 */
export function cursorTo(shown: CappedPagination | null, offset: number, limit: number): string | null {
  if (!shown || limit !== shown.limit) return null;
  if (offset === shown.offset + shown.limit) return shown.next;
  if (offset === shown.offset - shown.limit) return shown.previous;
  return null;
}

/**
 * How many rows the paginator is told there are: the exact count once known; else the count,
 * and past the cap at least one row after the page shown when there is a next page, so that the
 * next page can be asked for from the cap's last page and beyond.
 * @param shownRows rows of the page shown
 * @param exact the exact count when it was asked for (null: not known)
 */
export function pagerTotal(p: CappedPagination, shownRows: number, exact: number | null): number {
  if (exact !== null) return exact;
  if (!p.countCapped) return p.count;
  return Math.max(p.count, p.offset + shownRows + (p.next ? 1 : 0));
}

/** The offset of the last page of `count` rows, `limit` a page. */
export function lastPageOffset(count: number, limit: number): number {
  return Math.max(0, Math.floor((count - 1) / limit) * limit);
}

/** A paging with nothing shown: before the first answer, or after a failed one. */
export const NO_PAGINATION: CappedPagination = { offset: 0, limit: 0, count: 0, countCapped: false, next: null, previous: null };
