/** Socket wire format: `{event: string, data: unknown}` JSON frames, and the socket address. Pure. */

/** A socket message `{event, data}`. */
export interface SocketMessage {
  event: string;
  data: unknown;
}

/** Parses a socket frame; null when it is not a `{event: string}` JSON object. */
export function parseSocketMessage(raw: unknown): SocketMessage | null {
  if (typeof raw !== 'string') return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { event, data } = value as { event?: unknown; data?: unknown };
    return typeof event === 'string' && event ? { event, data } : null;
  } catch {
    return null;
  }
}

/** The socket address for a token, on the page's host under the base path ('' at the root). */
export function socketUrl(token: string, loc: Pick<Location, 'protocol' | 'host'> = location, basePath = ''): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}${basePath}/ws?token=${encodeURIComponent(token)}`;
}

/** Minimum time between two heartbeat replies (the server sends one every 20 s). */
export const HEARTBEAT_REPLY_WINDOW_MS = 10_000;

/** Whether to answer a heartbeat, given when the last reply was sent. */
export function shouldReplyToHeartbeat(lastReplyAt: number, now: number): boolean {
  return now - lastReplyAt >= HEARTBEAT_REPLY_WINDOW_MS;
}
