import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../config.js';
import { issueToken } from '../services/auth/tokens.js';
import { signinLink } from '../services/auth/session.js';
import { proxyWarning } from './rate-limit.js';
import { startServer, type RunningServer } from './server.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

const contexts: TestContext[] = [];
async function serverWith(overrides: Partial<AppConfig> = {}) {
  const ctx = await createTestContext({ seedDemoData: false, ...overrides });
  contexts.push(ctx);
  return { ctx, api: apiClient(ctx) };
}
const servers: RunningServer[] = [];
/** A server listening on a free port of 127.0.0.1 (requests then come from a real connection address). */
async function listening(overrides: Partial<AppConfig> = {}) {
  const { ctx } = await serverWith(overrides);
  const server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
  servers.push(server);
  return { ctx, url: server.url };
}
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const ctx of contexts.splice(0)) await ctx.dispose();
});

describe('security headers', () => {
  it('are on API answers, errors and the UI, with a Content-Security-Policy that allows no inline script and no framing', async () => {
    const { ctx, api } = await serverWith();
    const answers = [
      await api.get('/api/health'),
      await api.post('/api/sso/login', {}),
      await api.get('/api/v2.0/no-such-route'),
      await api.get('/'),
      await api.get('/data-platform'),
      await api.get('filters', await sessionToken(ctx, ctx.boot.admin.id)),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, expect.any(Number), expect.any(Number), 200]);
    for (const { headers } of answers) {
      const csp = headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('add HSTS when the server is reached over TLS', async () => {
    const { api } = await serverWith({ publicUrl: 'https://audit.example.com' });
    expect((await api.get('/api/health')).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    // behind a TLS-terminating proxy: believed only from a trusted proxy
    const proxied = await listening({ trustedProxies: '127.0.0.1' });
    const viaProxy = await fetch(`${proxied.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.headers.get('strict-transport-security')).toMatch(/max-age=/);
    const direct = await listening();
    const claimed = await fetch(`${direct.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('rate limits', () => {
  it('refuses an address that sends too many wrong tokens with 429 and Retry-After, but never a valid session or the health checks', async () => {
    const { ctx, api } = await serverWith({ rateLimitBadTokensPerMinute: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await api.post('/api/sso/login', {}, `guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const refused = await api.post('/api/sso/login', {}, 'another-guess');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.body).toMatchObject({ success: false, payload: null });
    expect(refused.body.errors[0]).toMatch(/Too many wrong tokens: try again in \d+ s/);
    // a user at the same address with a valid session (or key) goes on working
    expect((await api.post('/api/sso/login', {}, await sessionToken(ctx, ctx.boot.admin.id))).status).toBe(200);
    expect((await api.get('filters', (await issueToken(ctx, ctx.boot.admin.id, 'api', 60_000)).token)).status).toBe(200);
    // no token, a revoked or an expired one is still refused
    expect((await api.get('filters')).status).toBe(429);
    expect((await api.get('filters', (await issueToken(ctx, ctx.boot.admin.id, 'session', -1)).token)).status).toBe(429);
    for (const path of ['/api/health', '/api/health/live', '/api/health/ready']) expect((await api.get(path, 'guess-0')).status, path).not.toBe(429);
  });

  it('counts a token refused again against that token, not the address: stale tabs lock nobody out', async () => {
    const { ctx, api } = await serverWith({ rateLimitBadTokensPerMinute: 3 });
    const expired = (await issueToken(ctx, ctx.boot.admin.id, 'session', -1)).token;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api.get('filters', expired)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    // the address has counted that token once: other wrong tokens are still answered 401
    expect((await api.get('filters', 'guess-a')).status).toBe(401);
    expect((await api.get('filters', 'guess-b')).status).toBe(401);
    expect((await api.get('filters', 'guess-c')).status).toBe(429);
  });

  it("never counts a call refused to a valid session against it: the session's other calls go on", async () => {
    const { ctx, api } = await serverWith({ rateLimitBadTokensPerMinute: 3 });
    const session = await sessionToken(ctx, ctx.boot.admin.id);
    // a session sent where a download token is asked for is refused, but it is no guess
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api.call('GET', `/api/v2.0/fund-request/download?token=${session}`)).status);
    expect(statuses).toEqual(Array.from({ length: 6 }, () => 401));
    expect((await api.post('/api/sso/login', {}, session)).status).toBe(200);
    // nor is a sign-in link redeemed from the signed-in tab counted against its session: the wrong
    // links count against the address, and the session does not lift that limit for more links
    const links: number[] = [];
    for (let i = 0; i < 5; i++) links.push((await api.post('/api/sso/redeemToken', { token: `guess-${i}` }, session)).status);
    expect(links).toEqual([401, 401, 401, 429, 429]);
    expect((await api.post('/api/sso/login', {}, session)).status).toBe(200);
    expect((await api.get('filters', session)).status).toBe(200);
  });

  it('keys on the client address: the forwarded one behind a trusted proxy, never one a client claims alone', async () => {
    const proxied = await listening({ rateLimitBadTokensPerMinute: 2, trustedProxies: '127.0.0.1' });
    const login = (url: string, ip: string, token: string) =>
      fetch(`${url}/api/sso/login`, { method: 'POST', headers: { 'x-access-token': token, 'x-forwarded-for': ip } }).then((r) => r.status);
    for (let i = 0; i < 3; i++) await login(proxied.url, '10.0.0.1', `guess-${i}`);
    expect(await login(proxied.url, '10.0.0.1', 'guess-x')).toBe(429);
    expect(await login(proxied.url, '10.0.0.2', 'guess-y')).toBe(401);
    expect(await login(proxied.url, '10.0.0.1', await sessionToken(proxied.ctx, proxied.ctx.boot.admin.id))).toBe(200);
    // no trusted proxy: keyed on the connection's address with the client the proxy names, and the
    // connection's address as a whole gets ten clients' worth
    const direct = await listening({ rateLimitBadTokensPerMinute: 2 });
    for (let i = 0; i < 3; i++) await login(direct.url, '10.0.1.1', `guess-${i}`);
    expect(await login(direct.url, '10.0.1.1', 'guess-x')).toBe(429);
    expect(await login(direct.url, '10.0.1.2', 'guess-y')).toBe(401);
    const rotating: number[] = [];
    for (let i = 0; i < 25; i++) rotating.push(await login(direct.url, `10.0.2.${i}`, `guess-r${i}`));
    expect(rotating.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 401));
    expect(rotating.at(-1)).toBe(429);
    expect(await login(direct.url, '10.0.3.1', 'guess-z')).toBe(429);
    expect(await login(direct.url, '10.0.3.1', await sessionToken(direct.ctx, direct.ctx.boot.admin.id))).toBe(200);
  });

  it('warns at start when the server looks proxied and trustedProxies is empty', () => {
    expect(proxyWarning({ trustedProxies: '', publicUrl: 'https://audit.example.com', basePath: '' })).toMatch(/^trustedProxies is not set/);
    expect(proxyWarning({ trustedProxies: '', publicUrl: undefined, basePath: '/fund-audit' })).toMatch(/^trustedProxies is not set/);
    expect(proxyWarning({ trustedProxies: '10.0.0.1', publicUrl: 'https://audit.example.com', basePath: '' })).toBeNull();
    expect(proxyWarning({ trustedProxies: '', publicUrl: undefined, basePath: '' })).toBeNull();
  });

  it('limits redeeming sign-in links, right or wrong, per address', async () => {
    const { ctx, api } = await serverWith({ rateLimitSignInPerMinute: 3 });
    const link = async (user = ctx.boot.admin) => (await signinLink(ctx, user, 'http://x')).url.split('#')[1];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.post('/api/sso/redeemToken', { token: await link() })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('counts wrong sign-in links as wrong tokens', async () => {
    const { api } = await serverWith({ rateLimitBadTokensPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.post('/api/sso/redeemToken', { token: `guess-${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('limits the calls of one API key, not of other keys or sessions', async () => {
    const { ctx, api } = await serverWith({ rateLimitApiKeyPerMinute: 3 });
    const key = (await issueToken(ctx, ctx.boot.admin.id, 'api', 3_600_000)).token;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get('filters', key)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const another = (await issueToken(ctx, ctx.boot.admin.id, 'api', 3_600_000)).token;
    expect((await api.get('filters', another)).status).toBe(200);
    const session = await sessionToken(ctx, ctx.boot.admin.id);
    for (let i = 0; i < 5; i++) expect((await api.get('filters', session)).status).toBe(200);
  });

  it('limits starting single sign-on per address', async () => {
    const { api } = await serverWith({ rateLimitSignInPerMinute: 2 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await api.call('GET', '/api/sso/authorize'));
    // without single sign-on configured the call sends the browser back to /authenticate; refused, to the page saying why
    expect(answers.map((a) => [a.status, a.headers.get('location')?.split('?')[0]])).toEqual([
      [302, '/authenticate'],
      [302, '/authenticate'],
      [302, '/sign-in-blocked'],
    ]);
  });
});
