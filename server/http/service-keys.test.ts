import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { GROUP_ROLES } from '../services/auth/permissions.js';
import { issueToken } from '../services/auth/tokens.js';
import { generateServiceKey, SERVICE_USERS, type ServiceName } from '../services/dev-tools/keys.js';
import { apiClient, createTestContext, type TestContext } from '../testing/context.js';
import { fullPath } from './route.js';
import { allRoutes } from './routes/index.js';
import { startServer, type RunningServer } from './server.js';

/** What each service needs, written from its purpose (docs/configuration.md "Service keys"), not derived from the code. */
const NEEDS: Record<Exclude<ServiceName, 'system'>, string[]> = {
  sweeper: ['POST /api/sso/login', 'GET /api/v2.0/nrd', 'POST /api/v2.0/import/files', 'POST /api/v2.0/import/list', 'POST /api/v2.0/files/sweeper/logs/list'],
  canvas: [
    'POST /api/sso/login',
    'GET /api/v2.0/nrd',
    'POST /api/v2.0/funds/listing',
    'GET /api/v2.0/fund/:id',
    'GET /api/v2.0/export/token',
    'POST /api/v2.0/export/files',
    'POST /api/v2.0/export/files/list',
    'GET /api/v2.0/export/file/:id',
  ],
  worker: [
    'POST /api/sso/login',
    'GET /api/v2.0/nrd',
    'GET /api/v2.0/ws-token',
    'GET /api/v2.0/processes',
    'POST /api/v2.0/logs/processes',
    'POST /api/v2.0/fund/process/reset',
    'POST /api/v2.0/fund/process/cancel',
    'POST /api/v2.0/fund/reset',
  ],
  'test-runner': [
    'POST /api/sso/login',
    'GET /api/v2.0/nrd',
    'GET /api/v2.0/dev-tools/test-runner/tests',
    'GET /api/v2.0/dev-tools/test-runner/tests/:id',
    'POST /api/v2.0/dev-tools/test-runner/test/stop',
    'POST /api/v2.0/dev-tools/test-runner/schedule',
  ],
};

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
const userOf = {} as Record<ServiceName, number>;

beforeAll(async () => {
  ctx = await createTestContext({ devToolsEnabled: true, devToolsLocal: true, rateLimitBadTokensPerMinute: 100_000 });
  api = apiClient(ctx);
  for (const service of Object.keys(SERVICE_USERS) as ServiceName[]) userOf[service] = (await generateServiceKey(ctx, ctx.boot.admin, service)).userId;
});
afterAll(() => ctx.dispose());

const concrete = (path: string) => path.replace(/:(\w+)/g, '1');
const services = Object.keys(SERVICE_USERS) as ServiceName[];
const cases = allRoutes
  .filter((r) => r.group !== 'public')
  .flatMap((r) =>
    services.map((service) => {
      const call = `${r.method} ${fullPath(r)}`;
      const roleAllows = GROUP_ROLES[r.group as Exclude<typeof r.group, 'public'>].includes(SERVICE_USERS[service].role);
      const needed = service === 'system' ? r.group !== 'devTools' && r.group !== 'devToolsLocal' : NEEDS[service].includes(call);
      return { call, r, service, allowed: roleAllows && needed };
    }),
  );

describe('service keys reach only what their service needs', () => {
  it.each(cases)('$call with the $service key (allowed: $allowed)', async ({ r, service, allowed }) => {
    const path = concrete(fullPath(r));
    // a fresh key per call (some calls, like logout, revoke the one they are made with)
    const res =
      r.tokenFrom === 'query'
        ? await api.call(r.method, `${path}?token=${(await issueToken(ctx, userOf[service], 'download', 60_000)).token}`)
        : await api.call(r.method, path, { token: (await issueToken(ctx, userOf[service], 'api', 60_000)).token, body: r.method === 'GET' ? undefined : {} });
    if (allowed) expect(res.status).not.toBe(403);
    else expect(res.status).toBe(403);
  });

  const downloads = cases.filter((c) => c.r.tokenFrom === 'query' && !c.allowed);
  it.each(downloads)('$call with the $service download token and a junk x-access-token beside it is refused', async ({ r, service }) => {
    const download = (await issueToken(ctx, userOf[service], 'download', 60_000)).token;
    const res = await api.call(r.method, `${concrete(fullPath(r))}?token=${download}`, { headers: { 'x-access-token': 'junk' } });
    expect([401, 403]).toContain(res.status);
  });

  it("refuses a service's download token beside another user's session, and a key beside another ?token=", async () => {
    const download = (await issueToken(ctx, userOf.sweeper, 'download', 60_000)).token;
    const admin = (await issueToken(ctx, ctx.boot.admin.id, 'session', 60_000)).token;
    const both = await api.call('GET', `/api/v2.0/dev-tools/audit-log/export?token=${download}`, { headers: { 'x-access-token': admin } });
    expect(both.status).toBe(401);
    expect(both.body.errors[0]).toBe('The call carries two different tokens (the x-access-token header and ?token=); send only one');
    const key = (await issueToken(ctx, userOf.sweeper, 'api', 60_000)).token;
    expect((await api.call('POST', '/api/v2.0/fund/remove?token=junk', { token: key, body: { ids: [1] } })).status).toBe(401);
    // the canvas key reaches its own download with its download token alone
    const canvas = (await issueToken(ctx, userOf.canvas, 'download', 60_000)).token;
    expect((await api.call('GET', `/api/v2.0/export/file/1?token=${canvas}`)).status).not.toBe(403);
  });

  it('names the key and the call it refused', async () => {
    const key = (await issueToken(ctx, userOf.sweeper, 'api', 60_000)).token;
    const res = await api.post('fund/remove', { ids: [1] }, key);
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toBe('The sweeper key cannot use this part of Fund Audit (POST /api/v2.0/fund/remove)');
    const system = (await issueToken(ctx, userOf.system, 'api', 60_000)).token;
    expect((await api.get('/api/v2.0/key/sweeper', system)).body.errors[0]).toBe('The test user key cannot use the developer tools');
  });

  it('lets only the worker and test user keys open the live socket', async () => {
    const server: RunningServer = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    try {
      const status = async (service: ServiceName) => {
        const token = (await issueToken(ctx, userOf[service], 'api', 60_000)).token;
        return new Promise<number>((resolve) => {
          const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws?token=${token}`);
          ws.on('open', () => {
            ws.close();
            resolve(101);
          });
          ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.on('error', () => undefined);
        });
      };
      expect(await status('worker')).toBe(101);
      expect(await status('system')).toBe(101);
      expect(await status('sweeper')).toBe(403);
      expect(await status('canvas')).toBe(403);
      expect(await status('test-runner')).toBe(403);
    } finally {
      await server.close();
    }
  });
});
