/**
 * A server-paged list for the file grids: loads a page (newer loads cancel older ones), keeps the
 * offset, and offers silent reloads and in-place row patches for live socket updates. Its fetchers
 * call with `suppressError`: a failed load is shown here (`error`), a failed silent reload notified.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../api/errors';
import type { PageOf } from '../../api/delivery-types';
import { notifyError } from '../../state/notifications';

export type PageFetcher<R> = (offset: number, limit: number, signal: AbortSignal) => Promise<PageOf<R>>;

export interface PagedList<R> {
  rows: R[];
  count: number;
  offset: number;
  limit: number;
  loading: boolean;
  /** Message of the last failed load, or null. */
  error: string | null;
  setOffset: (offset: number) => void;
  /** Reloads the current page (`silent`: without the loading indicator). */
  reload: (silent?: boolean) => Promise<void>;
  /** Changes rows in place; returns whether any row matched. */
  patch: (match: (r: R) => boolean, change: (r: R) => R) => boolean;
}

/** Loads pages of `fetcher`, `limit` rows each. */
export function usePagedList<R>(fetcher: PageFetcher<R>, limit: number): PagedList<R> {
  const [rows, setRows] = useState<R[]>([]);
  const [count, setCount] = useState(0);
  const [offset, setOffset] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const rowsRef = useRef<R[]>([]);
  const fetchRef = useRef(fetcher);
  fetchRef.current = fetcher;

  const reload = useCallback(
    async (silent = false) => {
      controller.current?.abort();
      const mine = new AbortController();
      controller.current = mine;
      if (!silent) setLoading(true);
      try {
        const page = await fetchRef.current(offset, limit, mine.signal);
        if (mine.signal.aborted) return;
        rowsRef.current = page.rows;
        setRows(page.rows);
        setCount(page.pagination.count);
        setError(null);
      } catch (err) {
        if (mine.signal.aborted) return;
        // the fetchers leave the failure to the list (said once): in place of the grid, or, for a
        // background refresh that keeps the rows shown, as a notification
        if (!silent) setError((err as ApiError).message || 'An error occurred');
        else notifyError(err as ApiError);
      } finally {
        if (controller.current === mine) {
          setLoading(false);
          controller.current = null;
        }
      }
    },
    [offset, limit],
  );

  useEffect(() => {
    void reload();
    return () => controller.current?.abort();
  }, [reload]);

  const patch = useCallback((match: (r: R) => boolean, change: (r: R) => R) => {
    if (!rowsRef.current.some(match)) return false;
    rowsRef.current = rowsRef.current.map((r) => (match(r) ? change(r) : r));
    setRows(rowsRef.current);
    return true;
  }, []);

  return { rows, count, offset, limit, loading, error, setOffset, reload, patch };
}
