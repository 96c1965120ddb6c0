/** A server started under a base path: API, health, metrics, UI, downloads and the live socket answer under the prefix only. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../config.js';
import { fixturesDir } from '../paths.js';
import { publicBaseUrl } from '../public-url.js';
import { signinLink } from '../services/auth/session.js';
import { createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { pathInApp } from './base-path.js';
import { startServer, type RunningServer } from './server.js';
import { readWebFile, setWebFileReader } from './static.js';

const INDEX =
  '<!doctype html>\n<html lang="en">\n<head>\n<link rel="stylesheet" href="/assets/app-X.css">\n</head>\n<body><div id="root"></div><script type="module" src="/assets/app-X.js"></script></body>\n</html>\n';
const METRICS_KEY = 'k'.repeat(24);
let ctx: TestContext;
let server: RunningServer;
let origin: string;
let web: string;
const originalReader = readWebFile;

beforeAll(async () => {
  web = mkdtempSync(join(tmpdir(), 'fund-audit-web-'));
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), INDEX);
  writeFileSync(join(web, 'assets/app-X.js'), 'console.log(1);\n');
  setWebFileReader((rel) => {
    try {
      return readFileSync(join(web, rel));
    } catch {
      return undefined;
    }
  });
  ctx = await createTestContext({ basePath: '/fund-audit', metricsKey: METRICS_KEY });
  server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
  origin = new URL(server.url).origin;
});
afterAll(async () => {
  await server.close();
  await ctx.dispose();
  setWebFileReader(originalReader);
  rmSync(web, { recursive: true, force: true });
});

const get = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { redirect: 'manual', ...init });

describe('serving under a base path', () => {
  it('reports its address with the prefix and prints sign-in links under it', async () => {
    expect(server.url).toBe(`${origin}/fund-audit`);
    const base = publicBaseUrl(ctx.config, server).url;
    expect((await signinLink(ctx, ctx.boot.admin, base)).url.startsWith(`${origin}/fund-audit/redeemToken/#`)).toBe(true);
  });

  it('answers the API, health and metrics under the prefix', async () => {
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const login = await get('/fund-audit/api/sso/login', {
      method: 'POST',
      headers: { 'x-access-token': token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(login.status).toBe(200);
    expect((await login.json()).payload.user.email).toBe(ctx.boot.admin.email);
    const filters = await get('/fund-audit/api/v2.0/filters', { headers: { 'x-access-token': token } });
    expect(filters.status).toBe(200);
    expect((await filters.json()).payload.length).toBeGreaterThan(0);
    const download = (await (await get('/fund-audit/api/v2.0/export/token', { headers: { 'x-access-token': token } })).json()).payload.token;
    const template = await get(`/fund-audit/api/v2.0/fund-request/download?token=${download}`);
    expect(template.status).toBe(200);
    expect(template.headers.get('content-disposition')).toMatch(/attachment/);
    const health = await get('/fund-audit/api/health');
    expect(health.status).toBe(200);
    expect((await health.json()).payload.ready).toBeTypeOf('boolean');
    expect((await get('/fund-audit/api/health', { method: 'HEAD' })).status).toBe(200);
    const metrics = await get('/fund-audit/metrics', { headers: { authorization: `Bearer ${METRICS_KEY}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# TYPE');
    const unknown = await get('/fund-audit/api/v2.0/no-such-route');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).errors[0]).toMatch(/No such API route: GET \/api\/v2.0\/no-such-route/);
  });

  it('serves the UI with asset addresses and the base path written into index.html', async () => {
    for (const path of ['/fund-audit/', '/fund-audit/dashboard', '/fund-audit/fund/3']) {
      const res = await get(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('gzip');
      const html = await res.text();
      expect(html).toContain('<meta name="fund-audit-base-path" content="/fund-audit">');
      expect(html).toContain('src="/fund-audit/assets/app-X.js"');
      expect(html).toContain('href="/fund-audit/assets/app-X.css"');
    }
    const asset = await get('/fund-audit/assets/app-X.js');
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1);\n');
  });

  it('redirects / and the bare prefix to <prefix>/, and answers 404 elsewhere outside it', async () => {
    for (const path of ['/', '/fund-audit']) {
      const res = await get(path);
      expect(res.status).toBe(308);
      expect(res.headers.get('location')).toBe('/fund-audit/');
    }
    for (const path of ['/api/health', '/api/v2.0/filters', '/assets/app-X.js', '/metrics', '/fund-auditx/api/health', '/dashboard']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toBe('Not found: Fund Audit is served under /fund-audit/');
    }
  });

  it('opens the live socket at <prefix>/ws and refuses /ws', async () => {
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/fund-audit/ws?token=${token}`);
    const first = await new Promise<{ event: string }>((resolve, reject) => {
      ws.on('message', (raw) => resolve(JSON.parse(String(raw))));
      ws.on('error', reject);
    });
    expect(first.event).toBe('connect');
    ws.close();
    const root = new WebSocket(`${origin.replace('http', 'ws')}/ws?token=${token}`);
    const refused = await new Promise<number>((resolve) => {
      root.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      root.on('open', () => resolve(101));
      root.on('error', () => resolve(-1));
    });
    expect(refused).toBe(404);
  });

  it('takes uploads (multipart bodies streamed to the route) under the prefix', async () => {
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const form = new FormData();
    form.append('upload', new Blob([readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv'))]), 'real-funds.csv');
    const res = await get('/fund-audit/api/v2.0/funds/upload', { method: 'POST', headers: { 'x-access-token': token }, body: form });
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer.errors)).toBe(200);
    expect(answer.success).toBe(true);
  });
});

describe('base path setting', () => {
  it('takes /fund-audit or /fund-audit/ and refuses a path that is not one', async () => {
    expect(loadConfig({ dataDir: web, env: { FUND_AUDIT_BASE_PATH: '/fund-audit/' } }).basePath).toBe('/fund-audit');
    expect(loadConfig({ dataDir: web, flags: { basePath: '/a/b' } }).basePath).toBe('/a/b');
    expect(loadConfig({ dataDir: web, env: {} }).basePath).toBe('');
    expect(() => loadConfig({ dataDir: web, env: { FUND_AUDIT_BASE_PATH: 'fund-audit' } })).toThrow(/FUND_AUDIT_BASE_PATH: a path such as \/fund-audit/);
    expect(() => loadConfig({ dataDir: web, env: { FUND_AUDIT_BASE_PATH: '/fund audit' } })).toThrow(/FUND_AUDIT_BASE_PATH/);
  });

  it('refuses a publicUrl whose path is not the base path', async () => {
    expect(() => loadConfig({ dataDir: web, env: { FUND_AUDIT_BASE_PATH: '/fund-audit', FUND_AUDIT_PUBLIC_URL: 'https://example.com' } })).toThrow(
      /FUND_AUDIT_PUBLIC_URL: must be the address users open, with the base path \/fund-audit/,
    );
    expect(loadConfig({ dataDir: web, env: { FUND_AUDIT_BASE_PATH: '/fund-audit', FUND_AUDIT_PUBLIC_URL: 'https://example.com/fund-audit/' } }).publicUrl).toBe(
      'https://example.com/fund-audit/',
    );
  });

  it('maps request paths into the app', async () => {
    expect(pathInApp('/fund-audit', '/fund-audit/api/health')).toBe('/api/health');
    expect(pathInApp('/fund-audit', '/fund-audit/')).toBe('/');
    expect(pathInApp('/fund-audit', '/fund-auditx/')).toBeNull();
    expect(pathInApp('', '/api/health')).toBe('/api/health');
  });
});
