/**
 * The live socket at `<basePath>/ws?token=<session, API or socket token>` (crossws). On open it sends
 * `{event: 'connect'}`, then `{event: 'heartbeat'}` every 20 s, and forwards the events of the
 * server's event bus as `{event, data}` that the socket's user may read over HTTP
 * (`mayReceiveEvent`, with the role of the token's view, looked up again at every heartbeat; a
 * disabled user's socket is closed). Client heartbeats only keep the connection alive (they
 * are not echoed, so the two sides never ping-pong); a bad token is refused with 401 before the
 * upgrade.
 */
import type { Hooks, Peer } from 'crossws';
import type { AppContext } from '../context.js';
import type { Role } from '../db/schema/index.js';
import { mayReceiveEvent } from '../services/auth/event-access.js';
import { serviceMayUseSocket, serviceOfEmail } from '../services/auth/service-scopes.js';
import { SERVICE_USER_DOMAIN } from '../services/users/users.js';
import { currentRole, verifyToken } from '../services/auth/tokens.js';

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
  const who = (peer: Peer) => peer.context as { userId: number; role: Role; viewRole: Role | null };
  const unsubscribe = ctx.events.onAny((event, data) => {
    for (const peer of peers) {
      const { userId, role } = who(peer);
      if (mayReceiveEvent(event, data, { id: userId, role }, ctx.config)) send(peer, event, data);
    }
  });
  const beat = async () => {
    for (const peer of [...peers]) {
      const context = who(peer);
      const role = await currentRole(ctx, context.userId, context.viewRole);
      if (!peers.has(peer)) continue;
      if (!role) {
        peers.delete(peer);
        peer.close(4401, 'The user of this socket is disabled');
        continue;
      }
      context.role = role;
      send(peer, 'heartbeat', { serverTime: new Date().toISOString() });
    }
  };
  const timer = setInterval(() => {
    beat().catch((err: unknown) => ctx.log.warn({ err }, 'socket heartbeat failed'));
  }, heartbeatMs);
  timer.unref();

  const hooks: Partial<Hooks> = {
    async upgrade(request) {
      const url = new URL(request.url);
      if (url.pathname !== `${ctx.config.basePath ?? ''}/ws`) throw new Response('Not found', { status: 404 });
      try {
        const { user, viewRole } = await verifyToken(ctx, url.searchParams.get('token'), ['session', 'api', 'socket']);
        const service = serviceOfEmail(user.email, SERVICE_USER_DOMAIN);
        if (service && !serviceMayUseSocket(service)) throw Object.assign(new Error(`The ${service} key cannot open the live socket`), { status: 403 });
        return { context: { userId: user.id, role: user.role, viewRole } };
      } catch (err) {
        throw new Response((err as Error).message, { status: (err as { status?: number }).status === 403 ? 403 : 401 });
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
