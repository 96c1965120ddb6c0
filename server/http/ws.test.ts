import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eq } from 'drizzle-orm';
import { storeOf } from '../db/dialect.js';
import type { Role } from '../db/schema/index.js';
import { addUser } from '../services/users/users.js';
import { createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { startServer, type RunningServer } from './server.js';

let ctx: TestContext;
let server: RunningServer;
beforeAll(async () => {
  ctx = await createTestContext();
  server = await startServer(ctx, { host: '127.0.0.1', port: 0, heartbeatMs: 200 });
});
afterAll(async () => {
  await server.close();
  await ctx.dispose();
});

function open(token: string) {
  return openAt(server, token);
}

describe('live socket', () => {
  it('greets with connect, sends heartbeats and forwards server events', async () => {
    const { ws, next } = await open(await sessionToken(ctx, ctx.boot.admin.id));
    const connect = await next('connect');
    expect(connect.data.userId).toBe(ctx.boot.admin.id);
    ws.send(JSON.stringify({ event: 'heartbeat' }));
    expect((await next('heartbeat')).data.serverTime).toMatch(/^\d{4}-/);
    ctx.events.publish('process', { id: 7, fundRequestId: 3, stage: 'identification', status: 'running' });
    expect((await next('process')).data).toEqual({ id: 7, fundRequestId: 3, stage: 'identification', status: 'running' });
    ws.close();
  });

  it('refuses a connection without a valid token', async () => {
    await expect(open('nope')).rejects.toThrow(/401/);
  });

  it('accepts a short-lived socket token from /ws-token', async () => {
    const res = await fetch(`${server.url}/api/v2.0/ws-token`, { headers: { 'x-access-token': await sessionToken(ctx, ctx.boot.admin.id) } });
    const { payload } = await res.json();
    const { ws, next } = await open(payload.token);
    expect((await next('connect')).event).toBe('connect');
    ws.close();
  });

  it('tells each role only the events whose data it may read over HTTP', async () => {
    const roles: Role[] = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'];
    const sockets = new Map<Role, Awaited<ReturnType<typeof open>>>();
    const ids = new Map<Role, number>();
    for (const role of roles) {
      const user = await addUser(ctx, { email: `socket-${role.toLowerCase()}@example.com`, name: `${role} Socket`, role });
      ids.set(role, user.id);
      const socket = await open(await sessionToken(ctx, user.id));
      await socket.next('connect');
      sockets.set(role, socket);
    }
    const events: Array<[string, Parameters<typeof ctx.events.publish>[1]]> = [
      ['process', { id: 1, fundRequestId: 3, stage: 'identification', status: 'running' }],
      ['import-file', { id: 2, fileName: 'tb.csv', status: 'Awaiting', administratorId: 4 }],
      ['file', { id: 3, fundRequestId: null, status: 'Unidentified', fileName: 'junk.csv' }],
      ['file', { id: 4, fundRequestId: 3, status: 'Valid', fileName: 'holdings.csv' }],
      ['fund-request', { ids: [3], action: 'approve' }],
      ['upload-file', { sdmUploadId: 5, file: { id: 6 } }],
      ['test-run', { id: 7, status: 'done' }],
      ['export', { id: 8, status: 'done', userId: ids.get('Auditor') }],
      ['export', { id: 9, status: 'done', userId: ids.get('Admin') }],
    ];
    for (const [name, data] of events) ctx.events.publish(name as 'process', data as never);
    // a last event everyone may read would be none for a Client: wait on heartbeats instead
    for (const socket of sockets.values()) {
      await socket.next('heartbeat');
      await socket.next('heartbeat');
    }
    const seen = (role: Role) =>
      (sockets.get(role)?.messages ?? [])
        .filter((m) => m.event !== 'heartbeat' && m.event !== 'connect')
        .map((m) => `${m.event}:${m.data.id ?? m.data.sdmUploadId ?? m.data.ids?.join()}`);
    const delivery = ['process:1', 'import-file:2', 'file:3', 'file:4', 'fund-request:3', 'test-run:7', 'export:8', 'export:9'];
    expect(seen('Root')).toEqual([...delivery.slice(0, 5), 'upload-file:5', ...delivery.slice(5)]);
    expect(seen('Admin')).toEqual([...delivery.slice(0, 5), 'upload-file:5', ...delivery.slice(5)]);
    expect(seen('DeliveryTeamMember')).toEqual(delivery);
    expect(seen('Auditor')).toEqual(['file:4', 'fund-request:3', 'upload-file:5', 'export:8']);
    expect(seen('Client')).toEqual([]);
    for (const socket of sockets.values()) socket.ws.close();
  });

  it("follows the view of the session it was opened from, and closes a disabled user's socket", async () => {
    const user = await addUser(ctx, { email: 'socket-viewer@example.com', name: 'View Switcher', role: 'Admin' });
    const session = await sessionToken(ctx, user.id);
    await fetch(`${server.url}/api/v2.0/user/switch-role`, {
      method: 'POST',
      headers: { 'x-access-token': session, 'content-type': 'application/json' },
      body: JSON.stringify({ view: 'auditor' }),
    });
    const res = await fetch(`${server.url}/api/v2.0/ws-token`, { headers: { 'x-access-token': session } });
    const socket = await open((await res.json()).payload.token);
    await socket.next('connect');
    ctx.events.publish('process', { id: 11, fundRequestId: 3, stage: 'identification', status: 'running' });
    ctx.events.publish('fund-request', { ids: [12], action: 'approve' });
    expect((await socket.next('fund-request')).data.ids).toEqual([12]);
    expect(socket.messages.some((m) => m.event === 'process')).toBe(false);
    const closed = new Promise<number>((r) => socket.ws.on('close', (code) => r(code)));
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.users).set({ disabled: true }).where(eq(t.users.id, user.id));
    expect(await closed).toBe(4401);
  });
});

describe('live socket and its session', () => {
  // heartbeats a minute apart: whatever happens here happens at once, not at a heartbeat
  let c: TestContext;
  let s: RunningServer;
  beforeAll(async () => {
    c = await createTestContext();
    s = await startServer(c, { host: '127.0.0.1', port: 0, heartbeatMs: 60_000 });
  });
  afterAll(async () => {
    await s.close();
    await c.dispose();
  });

  const call = (path: string, token: string, body?: unknown) =>
    fetch(`${s.url}/api/v2.0/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-access-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const socketToken = async (session: string) => (await (await call('ws-token', session)).json()).payload.token as string;
  const connect = async (token: string) => {
    const socket = await openAt(s, token);
    await socket.next('connect');
    const closed = new Promise<{ code: number; reason: string }>((r) => socket.ws.on('close', (code, reason) => r({ code, reason: String(reason) })));
    return { ...socket, closed };
  };

  it("closes the session's sockets at logout, and only those", async () => {
    const user = await addUser(c, { email: 'socket-logout@example.com', name: 'Log Out', role: 'DeliveryTeamMember' });
    const session = await sessionToken(c, user.id);
    const other = await sessionToken(c, user.id);
    const viaToken = await connect(await socketToken(session));
    const direct = await connect(session);
    const otherSocket = await connect(await socketToken(other));
    expect((await fetch(`${s.url}/api/sso/logout`, { method: 'POST', headers: { 'x-access-token': session } })).status).toBe(200);
    expect(await viaToken.closed).toEqual({ code: 4401, reason: 'The session of this socket ended' });
    expect((await direct.closed).code).toBe(4401);
    // the user's other session keeps its socket and its events
    c.events.publish('process', { id: 21, fundRequestId: 3, stage: 'identification', status: 'running' });
    expect((await otherSocket.next('process')).data.id).toBe(21);
    // a socket token asked for before the logout opens nothing after it
    const late = await socketToken(other);
    await fetch(`${s.url}/api/sso/logout`, { method: 'POST', headers: { 'x-access-token': other } });
    await expect(openAt(s, late)).rejects.toThrow(/401/);
    expect((await otherSocket.closed).code).toBe(4401);
  });

  it('takes the view a session switches to at once', async () => {
    const user = await addUser(c, { email: 'socket-switch@example.com', name: 'Switch Now', role: 'Admin' });
    const session = await sessionToken(c, user.id);
    const socket = await connect(await socketToken(session));
    c.events.publish('process', { id: 31, fundRequestId: 3, stage: 'identification', status: 'running' });
    expect((await socket.next('process')).data.id).toBe(31);
    expect((await call('user/switch-role', session, { view: 'auditor' })).status).toBe(200);
    // as an Auditor the socket gets no pipeline processes any more, but fund requests still
    c.events.publish('process', { id: 32, fundRequestId: 3, stage: 'identification', status: 'running' });
    c.events.publish('fund-request', { ids: [33], action: 'approve' });
    expect((await socket.next('fund-request')).data.ids).toEqual([33]);
    expect(socket.messages.some((m) => m.event === 'process' && m.data.id === 32)).toBe(false);
    expect((await call('user/switch-role', session, { view: 'delivery' })).status).toBe(200);
    c.events.publish('process', { id: 34, fundRequestId: 3, stage: 'identification', status: 'running' });
    await expect.poll(() => socket.messages.some((m) => m.event === 'process' && m.data.id === 34)).toBe(true);
    socket.ws.close();
  });

  it('limits socket upgrades per client with 429 and Retry-After', async () => {
    const limited = await createTestContext({ rateLimitSocketPerMinute: 3 });
    const at = await startServer(limited, { host: '127.0.0.1', port: 0 });
    try {
      const session = await sessionToken(limited, limited.boot.admin.id);
      const answers: Array<{ status: number; retryAfter?: string }> = [];
      for (let i = 0; i < 4; i++)
        answers.push(
          await new Promise((resolve) => {
            const ws = new WebSocket(`${at.url.replace('http', 'ws')}/ws?token=${session}`);
            ws.on('open', () => {
              ws.close();
              resolve({ status: 101 });
            });
            ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
            ws.on('error', () => undefined);
          }),
        );
      expect(answers.map((a) => a.status)).toEqual([101, 101, 101, 429]);
      expect(Number(answers[3]!.retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await at.close();
      await limited.dispose();
    }
  });
});

/** `open` against another server. */
function openAt(at: RunningServer, token: string) {
  return new Promise<{ ws: WebSocket; messages: any[]; next: (event: string) => Promise<any> }>((resolve, reject) => {
    const ws = new WebSocket(`${at.url.replace('http', 'ws')}/ws?token=${token}`);
    const messages: any[] = [];
    const waiters: Array<{ event: string; resolve: (m: any) => void }> = [];
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      messages.push(msg);
      for (const w of waiters.filter((x) => x.event === msg.event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(msg);
      }
    });
    const next = (event: string) => {
      const seen = messages.find((m) => m.event === event);
      if (seen) {
        messages.splice(messages.indexOf(seen), 1);
        return Promise.resolve(seen);
      }
      return new Promise((r) => waiters.push({ event, resolve: r }));
    };
    ws.on('open', () => resolve({ ws, messages, next }));
    ws.on('error', reject);
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}
