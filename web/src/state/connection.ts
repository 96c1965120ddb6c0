/** Connection store and its pure reducer (spec: connected, connecting, reconnecting, disconnected). */
import { proxy } from 'valtio';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';

/** What happens to the socket. */
export type ConnectionEvent =
  | 'start' // first attempt after sign-in
  | 'open' // socket opened
  | 'close' // socket closed without an error
  | 'error' // socket error
  | 'retry' // a reconnect attempt begins
  | 'stop'; // logout or teardown

/**
 * Next connection state: start -> connecting; open -> connected; error -> disconnected;
 * a close of a live socket -> reconnecting (a retry follows); retry -> reconnecting; stop -> disconnected.
 */
export function reduceConnection(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  switch (event) {
    case 'start':
      return 'connecting';
    case 'open':
      return 'connected';
    case 'error':
    case 'stop':
      return 'disconnected';
    case 'close':
      return state === 'disconnected' ? 'disconnected' : 'reconnecting';
    case 'retry':
      return 'reconnecting';
  }
}

/** Reconnect delays of the spec: 1 s, 2 s, 5 s, then 10 s at most. */
export const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000] as const;

/** Delay before reconnect attempt number `attempt` (0-based). */
export function backoffDelay(attempt: number): number {
  const i = Math.max(0, Math.min(Math.floor(attempt), BACKOFF_MS.length - 1));
  return BACKOFF_MS[i]!;
}

/** Colour and text shown for each state. */
export const CONNECTION_LOOK: Record<ConnectionState, { text: string; color: string }> = {
  connected: { text: 'Connected', color: '#1f8a3b' },
  connecting: { text: 'Connecting', color: '#b26a00' },
  reconnecting: { text: 'Reconnecting', color: '#b26a00' },
  disconnected: { text: 'Disconnected', color: '#c62828' },
};

export const connection = proxy<{ state: ConnectionState }>({ state: 'disconnected' });

/** Applies an event to the connection store. */
export function dispatchConnection(event: ConnectionEvent): void {
  connection.state = reduceConnection(connection.state, event);
}
