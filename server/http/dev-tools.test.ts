/** Developer tools over HTTP: dev info, Options, database actions, keys, impersonation and logs. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { appVersion } from '../paths.js';
import { logsDir } from '../services/dev-tools/logs.js';
import { insertFund, insertProcess } from '../testing/fund-factory.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, defaultTestDialect, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext({ devToolsEnabled: true, devToolsLocal: true, impersonateEnabled: true, branchUpdateEnabled: true });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  writeFileSync(join(logsDir(ctx), 'tail.log'), Array.from({ length: 150 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
});
afterAll(() => ctx.dispose());

describe('developer tools over HTTP', () => {
  const cases: Array<{ name: string; method: 'GET' | 'POST'; path: string; body?: unknown; status: number; check: (body: any) => void }> = [
    {
      name: 'configurations branch',
      method: 'GET',
      path: 'dev-tools/configurations/current',
      status: 200,
      check: (b) => expect(b.payload).toMatchObject({ branch: `installed-${appVersion()}`, behind: 0 }),
    },
    {
      name: 'testing branch up to date',
      method: 'POST',
      path: 'dev-tools/testing/update',
      body: { branch: `installed-${appVersion()}` },
      status: 200,
      check: (b) => expect(b.message).toBe(`Testing branch installed-${appVersion()} is up to date`),
    },
    {
      name: 'branch change refused as a validation error',
      method: 'POST',
      path: 'dev-tools/configurations/update',
      body: { branch: 'main' },
      status: 400,
      check: (b) =>
        expect([b.message, b.errors]).toEqual([
          'Configuration branch update failed',
          ['Branch changes are disabled on this server (setting branchChangeEnabled)'],
        ]),
    },
    {
      name: 'config sources',
      method: 'GET',
      path: 'dev-tools/config/sources',
      status: 200,
      check: (b) =>
        expect(b.payload.settings.find((s: any) => s.key === 'devToolsEnabled')).toEqual({
          key: 'devToolsEnabled',
          source: 'default',
          env: 'FUND_AUDIT_DEV_TOOLS_ENABLED',
        }),
    },
    { name: 'iomConfig', method: 'GET', path: 'dev-tools/iomConfig', status: 200, check: (b) => expect(b.payload.mappingTypes).toContain('account_mapping') },
    {
      name: 'log files',
      method: 'POST',
      path: 'logs/list',
      status: 200,
      check: (b) => expect(b.payload.map((f: any) => f.file)).toEqual(expect.arrayContaining(['fund-audit.log', 'tail.log'])),
    },
    {
      name: 'tail of 100 lines by default',
      method: 'POST',
      path: 'logs/last-lines',
      body: { file: 'tail.log' },
      status: 200,
      check: (b) => expect([b.payload.lines.length, b.payload.lines[0], b.payload.lines[99]]).toEqual([100, 'line 51', 'line 150']),
    },
    {
      name: 'tail of an unknown file',
      method: 'POST',
      path: 'logs/last-lines',
      body: { file: 'gone.log', count: 5 },
      status: 404,
      check: (b) => expect(b.errors).toEqual(['No log file named gone.log']),
    },
    {
      name: 'clear without confirmation',
      method: 'POST',
      path: 'dev-tools/db/clear',
      body: {},
      status: 400,
      check: (b) => expect(b.errors[0]).toMatch(/Confirm that you want to clear the database: send \{confirm: true\}/),
    },
    {
      name: 'administrators of an unknown region',
      method: 'POST',
      path: 'dev-tools/db/populate/administrators',
      body: { region: 'Mars' },
      status: 400,
      check: (b) => expect(b.message).toBe("Unknown region 'Mars'"),
    },
    {
      name: 'key of an unknown user',
      method: 'GET',
      path: 'dev-tools/user/key/999',
      status: 404,
      check: (b) => expect(b.errors).toEqual(['No user with id: 999']),
    },
    {
      name: 'impersonation for another lifetime',
      method: 'GET',
      path: 'dev-tools/user/key/1/2h',
      status: 400,
      check: (b) => expect(b.message).toMatch(/use '10h'/),
    },
  ];
  it.each(cases)('$name: $method $path -> $status', async ({ method, path, body, status, check }) => {
    const res = await api.call(method, path, { token, body });
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(status === 200);
    check(res.body);
  });

  it('downloads a log file with a download token', async () => {
    const dl = (await api.get('export/token', token)).body.payload.token;
    const res = await api.app.fetch(new Request(`http://t/api/v2.0/logs/download?file=tail.log&token=${dl}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tail.log"');
    expect((await res.text()).split('\n')[149]).toBe('line 150');
    const missing = await api.app.fetch(new Request(`http://t/api/v2.0/logs/download?file=tail.log`));
    expect(missing.status).toBe(401);
  });

  it('lists the top 5 distinct funds with running work, with who created and reran them', async () => {
    const dev = await addUser(ctx, { email: 'rerun@example.com', name: 'Rita Rerun', role: 'DeliveryTeamMember' });
    const funds = [];
    for (let i = 0; i < 7; i++) funds.push(await insertFund(ctx, { createdById: ctx.boot.admin.id, rerunById: dev.id }));
    for (const f of funds) {
      await insertProcess(ctx, f.id, 'standardization', 'pending');
      await insertProcess(ctx, f.id, 'calculations', 'pending');
    }
    const top = (await api.get('processes?top=5', token)).body.payload;
    expect(top).toHaveLength(5);
    expect(new Set(top.map((p: any) => p.fund_request_id)).size).toBe(5);
    expect(top[0]).toMatchObject({ fund_request_id: funds[6].id, stage: 'calculations', createdBy: 'Fund Audit Administrator', reRunBy: 'Rita Rerun' });
    expect((await api.get('processes', token)).body.payload).toHaveLength(14);
  });

  it('generates a service key that works at once and stops working when a new one is generated', async () => {
    const first = (await api.get('key/sweeper', token)).body.payload;
    expect(first).toMatchObject({ service: 'sweeper', role: 'DeliveryTeamMember' });
    expect((await api.post('import/list', {}, first.token)).status).toBe(200);
    const second = (await api.get('key/sweeper', token)).body.payload;
    expect(second.revoked).toBe(1);
    expect((await api.post('import/list', {}, first.token)).status).toBe(401);
    expect((await api.post('import/list', {}, second.token)).status).toBe(200);
    const system = (await api.get('dev-tools/user/key/system', token)).body.payload;
    expect(system).toMatchObject({ service: 'system', role: 'Admin', email: 'system@service.fund-audit.local' });
  });

  it('impersonates a user: the token signs in as that user', async () => {
    const aud = await addUser(ctx, { email: 'imp@example.com', name: 'Imp Ersonated', role: 'Auditor' });
    const imp = (await api.get(`dev-tools/user/key/${aud.id}/10h`, token)).body.payload;
    const session = await api.post('/api/sso/login', undefined, imp.token);
    expect(session.body.payload.user).toMatchObject({ email: 'imp@example.com', role: 'Auditor' });
  });

  it('clears with a confirmation, then populates again', async () => {
    const { db, tables: t } = storeOf(ctx);
    const cleared = await api.post('dev-tools/db/clear', { confirm: true }, token);
    expect(cleared.status).toBe(200);
    expect(cleared.body.message).toBe('Database cleared');
    expect(await db.select().from(t.fundRequests)).toHaveLength(0);
    const populated = await api.post('dev-tools/db/populate', {}, token);
    expect(populated.body.payload.fundRequests).toBe(4);
    expect(await db.select().from(t.fundRequests)).toHaveLength(4);
  });

  it('drops every table and answers a new session for the caller (refused on PostgreSQL, naming dropdb and createdb)', async () => {
    const { db, tables: t } = storeOf(ctx);
    const dropped = await api.post('dev-tools/tables/drop', { confirm: true }, token);
    // dropping the tables rebuilds a SQLite data directory; a PostgreSQL database is dropped and
    // created with the database's own tools instead, which the refusal names
    if (defaultTestDialect() === 'postgres') {
      expect(dropped.status).toBe(400);
      expect(dropped.body.message).toBe('Dropping the tables is available on a SQLite data directory only');
      expect(dropped.body.errors[0]).toMatch(/dropdb, createdb/);
      // nothing was dropped: the session still answers and the users are still there
      expect((await api.get('dev-tools/users', token)).status).toBe(200);
      expect(await db.select().from(t.users).where(eq(t.users.email, 'rerun@example.com'))).toHaveLength(1);
      return;
    }
    expect(dropped.status).toBe(200);
    expect((await api.get('dev-tools/users', token)).status).toBe(401);
    const users_ = await api.get('dev-tools/users', dropped.body.payload.token);
    expect(users_.body.payload.map((u: any) => u.email)).toEqual(['admin@fund-audit.local']);
    expect(await db.select().from(t.users).where(eq(t.users.email, 'rerun@example.com'))).toHaveLength(0);
  });
});

describe('local-only developer tools', () => {
  it('are refused when the environment is not local, while the other developer tools answer', async () => {
    const remote = await createTestContext({ seedDemoData: false, devToolsEnabled: true });
    try {
      const client = apiClient(remote);
      const admin = await sessionToken(remote, remote.boot.admin.id);
      for (const path of ['key/canvas', 'dev-tools/user/key/system']) {
        const res = await client.get(path, admin);
        expect(res.status, path).toBe(403);
        expect(res.body.errors).toEqual(['Only available in a local environment']);
      }
      expect((await client.post('dev-tools/db/reset', { confirm: true }, admin)).status).toBe(403);
      expect((await client.get('dev-tools/configurations/current', admin)).status).toBe(200);
    } finally {
      await remote.dispose();
    }
  });
});
