/** Loads one call's answer for a panel: data, loading and error states, and a reload. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../../api/errors';

export interface Loaded<T> {
  data: T | null;
  loading: boolean;
  error: string | null;
  reload: () => Promise<void>;
}

/** Calls `fetcher` on mount and on `reload`; a later answer wins over an earlier one. */
export function useLoad<T>(fetcher: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const fetchRef = useRef(fetcher);
  fetchRef.current = fetcher;
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setLoading(true);
    try {
      const value = await fetchRef.current();
      if (mine !== latest.current) return;
      setData(value);
      setError(null);
    } catch (err) {
      if (mine === latest.current) setError((err as ApiError).message || 'An error occurred');
    } finally {
      if (mine === latest.current) setLoading(false);
    }
  }, []);
  useEffect(() => void reload(), [reload]);
  return { data, loading, error, reload };
}
