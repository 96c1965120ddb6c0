/**
 * The live socket at `<basePath>/ws?token=<session, API or socket token>` (crossws). On open it sends
 * `{event: 'connect'}`, then `{event: 'heartbeat'}` every 20 s, and forwards the events of the
 * server's event bus as `{event, data}` that the socket's user may read over HTTP
 * (`mayReceiveEvent`, with the role of its session's view). A socket belongs to the session (or
 * key) it was opened with, or that its socket token was asked for with: when that session ends
 * (logout, revocation, a disabled user) the socket is closed with 4401 at once, on every node (the
 * `session` event), and a view switch of the session re-scopes it at once; every heartbeat checks
 * both again. Client heartbeats only keep the connection alive (they are not echoed, so the two
 * sides never ping-pong). Upgrades are rate-limited per client (`rateLimitSocketPerMinute`, and the
 * wrong-token limit of rate-limit.ts); a bad token is refused with 401 before the upgrade.
 */
import type { Hooks, Peer } from 'crossws';
import type { AppContext } from '../context.js';
import type { Role } from '../db/schema/index.js';
import { mayReceiveEvent } from '../services/auth/event-access.js';
import { serviceMayUseSocket, serviceOfEmail } from '../services/auth/service-scopes.js';
import { SERVICE_USER_DOMAIN } from '../services/users/users.js';
import { currentRole, effectiveRole, isLiveToken, tokenStateById, verifyToken } from '../services/auth/tokens.js';
import { clientOf, countWrongToken, rateLimitState, takeSocketUpgrade, wrongTokenRefusal } from './rate-limit.js';

export const HEARTBEAT_MS = 20_000;

/** What a socket remembers of its user and session. */
interface SocketContext {
  userId: number;
  /** The role it receives events as: the user's, in the session's view. */
  role: Role;
  /** The user's own role (the views a session may take follow from it). */
  originalRole: Role;
  viewRole: Role | null;
  /** The session (or key) token it belongs to. */
  sessionTokenId: number;
}

/** The 429 answer to an upgrade, with Retry-After in whole seconds. */
function tooMany(ms: number, what: string): Response {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new Response(`Too many ${what}: try again in ${seconds} s`, { status: 429, headers: { 'retry-after': String(seconds) } });
}

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
  const limits = rateLimitState(ctx);
  const who = (peer: Peer) => peer.context as unknown as SocketContext;
  const end = (peer: Peer, reason: string) => {
    peers.delete(peer);
    peer.close(4401, reason);
  };
  const unsubscribe = ctx.events.onAny((event, data) => {
    for (const peer of peers) {
      const { userId, role } = who(peer);
      if (mayReceiveEvent(event, data, { id: userId, role }, ctx.config)) send(peer, event, data);
    }
  });
  /** Takes the role of a socket's user in its session's view again; false when the user is disabled (the socket is closed). */
  const rescope = async (peer: Peer): Promise<boolean> => {
    const context = who(peer);
    const role = await currentRole(ctx, context.userId, context.viewRole);
    if (!peers.has(peer)) return false;
    if (!role) {
      end(peer, 'The user of this socket is disabled');
      return false;
    }
    context.role = role;
    return true;
  };
  const offSession = ctx.events.on('session', ({ tokenIds, ended, viewRole }) => {
    for (const peer of [...peers]) {
      const context = who(peer);
      if (!tokenIds.includes(context.sessionTokenId)) continue;
      if (ended) end(peer, 'The session of this socket ended');
      else {
        context.viewRole = viewRole ?? null;
        // the new view applies to the next event already; the user's row is read again after
        context.role = effectiveRole(context, context.viewRole);
        rescope(peer).catch((err: unknown) => ctx.log.warn({ err }, 'socket view switch failed'));
      }
    }
  });
  const beat = async () => {
    for (const peer of [...peers]) {
      const context = who(peer);
      const session = await tokenStateById(ctx, context.sessionTokenId);
      if (!peers.has(peer)) continue;
      if (!session?.live) {
        end(peer, 'The session of this socket ended');
        continue;
      }
      context.viewRole = session.viewRole;
      if (await rescope(peer)) send(peer, 'heartbeat', { serverTime: new Date().toISOString() });
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
      const token = url.searchParams.get('token');
      const client = clientOf(limits, (request as { ip?: string }).ip, request.headers.get('x-forwarded-for'));
      const blocked = await wrongTokenRefusal(ctx, limits, client, token);
      if (blocked !== null) throw tooMany(blocked, 'wrong tokens');
      const flooding = await takeSocketUpgrade(limits, client);
      if (flooding !== null) throw tooMany(flooding, 'live-socket connections');
      try {
        const verified = await verifyToken(ctx, token, ['session', 'api', 'socket']);
        const { user } = verified;
        const service = serviceOfEmail(user.email, SERVICE_USER_DOMAIN);
        if (service && !serviceMayUseSocket(service)) throw Object.assign(new Error(`The ${service} key cannot open the live socket`), { status: 403 });
        // a socket token belongs to the session it was asked for with (verifyToken took that session's view)
        const { viewRole } = verified;
        const sessionTokenId = verified.parentTokenId ?? verified.tokenId;
        const role = await currentRole(ctx, user.id, viewRole);
        if (!role) throw new Error('The user of this token is disabled');
        return { context: { userId: user.id, role, originalRole: user.originalRole, viewRole, sessionTokenId } satisfies SocketContext };
      } catch (err) {
        const status = (err as { status?: number }).status === 403 ? 403 : 401;
        if (status === 401 && !(token && (await isLiveToken(ctx, token)))) {
          const wait = await countWrongToken(limits, client, token);
          if (wait !== null) throw tooMany(wait, 'wrong tokens');
        }
        throw new Response((err as Error).message, { status });
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
      offSession();
    },
  };
}
