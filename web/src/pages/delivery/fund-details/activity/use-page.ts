/** Loads one page of a fund's log (trail, orchestration, errors, processes) and reloads it on demand or on a socket event. */
import { useCallback, useEffect, useState } from 'react';
import type { PageOf } from '../../../../api/delivery-types';
import { socketEvents } from '../../../../state/socket';

/** State of a loaded log page: rows, loading, error text and reload. */
export function useFundLog<R>(fetch: () => Promise<PageOf<R>>, liveEvents: readonly string[] = []) {
  const [rows, setRows] = useState<R[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    fetch().then(
      (page) => {
        setRows(page.rows);
        setError(null);
      },
      (err: Error) => setError(err.message || 'An error occurred'),
    );
  }, [fetch]);
  useEffect(reload, [reload]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const offs = liveEvents.map((e) =>
      socketEvents.on(e, () => {
        clearTimeout(timer);
        timer = setTimeout(reload, 300);
      }),
    );
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [reload, liveEvents]);
  return { rows, error, reload };
}
