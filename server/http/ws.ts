/**
 * The live socket at `/ws?token=<session, API or socket token>` (crossws). On open it sends
 * `{event: 'connect'}`, then `{event: 'heartbeat'}` every 20 s, and forwards every event of the
 * server's event bus as `{event, data}`. Client heartbeats only keep the connection alive (they
 * are not echoed, so the two sides never ping-pong); a bad token is refused with 401 before the
 * upgrade.
 */
import type { Hooks, Peer } from 'crossws';
import type { AppContext } from '../context.js';
import { verifyToken } from '../services/auth/tokens.js';

export const HEARTBEAT_MS = 20_000;

/** Socket hooks bound to a context; `close()` stops the heartbeat and unsubscribes. */
export function createSocketHooks(ctx: AppContext, heartbeatMs = HEARTBEAT_MS): { hooks: Partial<Hooks>; close: () => void; peers: Set<Peer> } {
  const peers = new Set<Peer>();
  const send = (peer: Peer, event: string, data: unknown) => {
    try {
      peer.send(JSON.stringify({ event, data }));
    } catch (err) {
      ctx.log.debug({ err }, 'socket send failed');
    }
  };
  const unsubscribe = ctx.events.onAny((event, data) => {
    for (const peer of peers) send(peer, event, data);
  });
  const timer = setInterval(() => {
    for (const peer of peers) send(peer, 'heartbeat', { serverTime: new Date().toISOString() });
  }, heartbeatMs);
  timer.unref();

  const hooks: Partial<Hooks> = {
    upgrade(request) {
      const url = new URL(request.url);
      if (url.pathname !== '/ws') throw new Response('Not found', { status: 404 });
      try {
        const { user } = verifyToken(ctx, url.searchParams.get('token'), ['session', 'api', 'socket']);
        return { context: { userId: user.id } };
      } catch (err) {
        throw new Response((err as Error).message, { status: 401 });
      }
    },
    open(peer) {
      peers.add(peer);
      send(peer, 'connect', { serverTime: new Date().toISOString(), userId: peer.context.userId });
    },
    message(peer, message) {
      // client heartbeats keep the connection alive; nothing else is read from clients
      ctx.log.trace({ userId: peer.context.userId, size: message.text().length }, 'socket message');
    },
    close(peer) {
      peers.delete(peer);
    },
    error(peer) {
      peers.delete(peer);
    },
  };
  return {
    hooks,
    peers,
    close: () => {
      clearInterval(timer);
      unsubscribe();
    },
  };
}
