import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestContext, sessionToken, type TestContext } from '../testing.js';
import { startServer, type RunningServer } from './server.js';

let ctx: TestContext;
let server: RunningServer;
beforeAll(async () => {
  ctx = await createTestContext();
  server = await startServer(ctx, { host: '127.0.0.1', port: 0, heartbeatMs: 200 });
});
afterAll(async () => {
  await server.close();
  ctx.dispose();
});

function open(token: string): Promise<{ ws: WebSocket; messages: any[]; next: (event: string) => Promise<any> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws?token=${token}`);
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

describe('live socket', () => {
  it('greets with connect, sends heartbeats and forwards server events', async () => {
    const { ws, next } = await open(sessionToken(ctx, ctx.boot.admin.id));
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
    const res = await fetch(`${server.url}/api/v2.0/ws-token`, { headers: { 'x-access-token': sessionToken(ctx, ctx.boot.admin.id) } });
    const { payload } = await res.json();
    const { ws, next } = await open(payload.token);
    expect((await next('connect')).event).toBe('connect');
    ws.close();
  });
});
