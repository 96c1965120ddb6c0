/** Hook: calls `refresh` (debounced) whenever the socket pushes one of the given events. */
import { useEffect, useRef } from 'react';
import { socketEvents } from '../../state/socket';

/** Runs `refresh` at most once per `delayMs` after the socket pushed any of `events`. */
export function useSocketRefresh(events: readonly string[], refresh: () => void, delayMs = 400): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  const key = events.join(',');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onEvent = () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), delayMs);
    };
    const offs = key.split(',').map((e) => socketEvents.on(e, onEvent));
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [key, delayMs]);
}
