/**
 * The live socket: `ws(s)://<host>/ws?token=...` opened after sign-in with a fresh socket token,
 * heartbeat replies, reconnect with backoff, and a typed event emitter pages subscribe to.
 */
import { wsToken } from '../api/endpoints';
import { backoffDelay, dispatchConnection } from './connection';
import { Emitter } from './emitter';
import { parseSocketMessage, shouldReplyToHeartbeat, socketUrl } from './socket-protocol';
import { BASE_PATH } from '../api/base-path';

export { parseSocketMessage, socketUrl, type SocketMessage } from './socket-protocol';
import { session } from './session';

/**
 * Events pushed by the server. Payload shapes are owned by the pages that use them
 * (the spec only says a file event carries an updated upload file that replaces the matching one by id).
 */
export interface SocketEventMap extends Record<string, unknown> {
  connect: unknown;
  file: unknown;
  process: unknown;
  export: unknown;
  'upload-file': unknown;
  'import-file': unknown;
  'test-run': unknown;
}

/** Subscribe with `socketEvents.on('file', handler)`; the returned function unsubscribes. */
export const socketEvents = new Emitter<SocketEventMap>();

/** Heartbeats come every 20 s; with none for this long the socket is considered dead. */
const HEARTBEAT_TIMEOUT_MS = 50_000;

let ws: WebSocket | null = null;
let running = false;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let heartbeatTimer: ReturnType<typeof setTimeout> | undefined;
let hadError = false;
let lastHeartbeatReply = 0;

async function freshToken(): Promise<string | null> {
  try {
    const { token } = await wsToken();
    if (token) return token;
  } catch {
    // fall back to the session token
  }
  return session.token;
}

function armHeartbeatWatch(socket: WebSocket): void {
  clearTimeout(heartbeatTimer);
  heartbeatTimer = setTimeout(() => socket.close(), HEARTBEAT_TIMEOUT_MS);
}

function onMessage(socket: WebSocket, raw: unknown): void {
  armHeartbeatWatch(socket);
  const msg = parseSocketMessage(raw);
  if (!msg) return;
  if (msg.event === 'heartbeat') {
    // Reply to the server's heartbeat; the server also answers client heartbeats, so a reply is
    // sent at most once per window to avoid an endless ping-pong.
    const now = Date.now();
    if (shouldReplyToHeartbeat(lastHeartbeatReply, now)) {
      lastHeartbeatReply = now;
      socket.send(JSON.stringify({ event: 'heartbeat' }));
    }
    return;
  }
  socketEvents.emit(msg.event, msg.data);
}

/**
 * Waits, then opens the socket again. The indicator says 'reconnecting' for the whole wait (spec
 * section 4), not only the moment an attempt starts: a failed attempt's error shows
 * 'disconnected' until the next wait begins.
 */
function scheduleRetry(): void {
  if (!running) return;
  clearTimeout(retryTimer);
  dispatchConnection('retry');
  retryTimer = setTimeout(() => void open(), backoffDelay(attempt));
  attempt++;
}

async function open(): Promise<void> {
  const token = await freshToken();
  if (!running) return;
  if (!token) {
    stopSocket(); // signed out meanwhile: a later sign-in starts again
    return;
  }
  hadError = false;
  let socket: WebSocket;
  try {
    socket = new WebSocket(socketUrl(token, location, BASE_PATH));
  } catch {
    dispatchConnection('error');
    scheduleRetry();
    return;
  }
  ws = socket;
  socket.onopen = () => {
    attempt = 0;
    dispatchConnection('open');
    armHeartbeatWatch(socket);
  };
  socket.onmessage = (e) => onMessage(socket, e.data);
  socket.onerror = () => {
    hadError = true;
    dispatchConnection('error');
  };
  socket.onclose = () => {
    clearTimeout(heartbeatTimer);
    if (ws === socket) ws = null;
    if (!running) return;
    if (!hadError) dispatchConnection('close');
    scheduleRetry();
  };
}

/** Opens the socket (no-op when already running). Call after the session is fulfilled. */
export function startSocket(): void {
  if (running) return;
  running = true;
  attempt = 0;
  dispatchConnection('start');
  void open();
}

/** Closes the socket and stops reconnecting (logout). */
export function stopSocket(): void {
  running = false;
  clearTimeout(retryTimer);
  clearTimeout(heartbeatTimer);
  const socket = ws;
  ws = null;
  socket?.close();
  dispatchConnection('stop');
}
