import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { signinLink } from '../services/auth/session.js';
import { issueToken, verifyToken } from '../services/auth/tokens.js';
import { addUser, getUserByEmail } from '../services/users/users.js';
import { eq } from 'drizzle-orm';
import { storeOf } from '../db/dialect.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
beforeEach(async () => {
  ctx = await createTestContext();
  api = apiClient(ctx);
});
afterEach(() => ctx.dispose());

const linkToken = (url: string) => url.split('#')[1];

describe('sign-in', () => {
  it('redeems a one-time link once for a session whose login returns every session field', async () => {
    const link = await signinLink(ctx, ctx.boot.admin, 'http://127.0.0.1:8080');
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/redeemToken\/#[\w-]{40,}$/);
    const redeemed = await api.post('/api/sso/redeemToken', { token: linkToken(link.url) });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.success).toBe(true);
    const session = await api.post('/api/sso/login', {}, redeemed.body.payload.token);
    expect(session.status).toBe(200);
    const { user, config } = session.body.payload;
    expect(user).toMatchObject({ email: 'admin@fund-audit.local', role: 'Admin', originalRole: 'Admin', accepted_privacy_version: null });
    expect(Object.keys(user).sort()).toEqual([
      'accepted_privacy_version',
      'email',
      'firstName',
      'fullName',
      'id',
      'lastName',
      'originalRole',
      'role',
      'username',
    ]);
    for (const key of [
      'mode',
      'devTools',
      'mappings',
      'testRunner',
      'demo',
      'aggregation',
      'sdmUpload',
      'customMappings',
      'deleteLuxData',
      'pbiInputs',
      'allowQAValidation',
      'investmentAnalyzerEnabled',
      'newStatusDesign',
      'privacyStatementVersion',
      'identificationProcess',
      'branchChangeEnabled',
      'branchUpdateEnabled',
      'impersonateEnabled',
      'isDbPushEnabled',
      'dbName',
      'dependencies',
    ]) {
      expect(config).toHaveProperty(key);
    }
    expect(config.devTools).toEqual({ enabled: false, isLocalEnvironment: false });
    expect(config.dependencies.map((d: any) => d.name)).toContain('fund-audit');

    const again = await api.post('/api/sso/redeemToken', { token: linkToken(link.url) });
    expect(again.status).toBe(401);
    expect(again.body.errors[0]).toMatch(/already used/);
  });

  it('stores tokens only as hashes', async () => {
    const link = await signinLink(ctx, ctx.boot.admin, 'http://x');
    const raw = linkToken(link.url);
    const { db, tables: t } = storeOf(ctx);
    const rows = await db.select().from(t.tokens);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.tokenHash === raw)).toBe(false);
    expect(rows.every((r) => /^[a-f0-9]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('answers 401 with no token, a wrong one, an expired one and after logout', async () => {
    expect((await api.post('/api/sso/login', {})).status).toBe(401);
    expect((await api.post('/api/sso/login', {}, 'not-a-token')).status).toBe(401);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.tokens).set({ expiresAt: '2000-01-01T00:00:00.000Z' });
    const expired = await api.post('/api/sso/login', {}, token);
    expect(expired.status).toBe(401);
    expect(expired.body.errors[0]).toMatch(/expired/);
    const fresh = await sessionToken(ctx, ctx.boot.admin.id);
    expect((await api.post('/api/sso/logout', {}, fresh)).status).toBe(200);
    const after = await api.post('/api/sso/login', {}, fresh);
    expect(after.status).toBe(401);
    expect(after.body.errors[0]).toMatch(/revoked/);
  });

  it('records the privacy notice acceptance with its version', async () => {
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const wrong = await api.post('privacy/accept', { version: '0.1' }, token);
    expect(wrong.status).toBe(400);
    const accepted = await api.post('privacy/accept', { version: '1.0' }, token);
    expect(accepted.body.payload.user.accepted_privacy_version).toBe('1.0');
    const session = await api.post('/api/sso/login', {}, token);
    expect(session.body.payload.user.accepted_privacy_version).toBe('1.0');
    const { db, tables: t } = storeOf(ctx);
    const rows = await db
      .select({ version: t.privacyAcceptances.version })
      .from(t.privacyAcceptances)
      .where(eq(t.privacyAcceptances.userId, ctx.boot.admin.id));
    expect(rows).toEqual([{ version: '1.0' }]);
  });
});

describe('role switch', () => {
  it('lets an Admin take the auditor view and come back, keeping originalRole', async () => {
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const toAuditor = await api.post('user/switch-role', { view: 'auditor' }, token);
    expect(toAuditor.body.payload.user).toMatchObject({ role: 'Auditor', originalRole: 'Admin' });
    const back = await api.post('user/switch-role', { view: 'delivery' }, token);
    expect(back.body.payload.user).toMatchObject({ role: 'Admin', originalRole: 'Admin' });
  });

  it("switches only the session that asked: the user's other sessions, API keys and the CLI keep the user's role", async () => {
    const browser = await sessionToken(ctx, ctx.boot.admin.id);
    const otherTab = await sessionToken(ctx, ctx.boot.admin.id);
    const key = (await issueToken(ctx, ctx.boot.admin.id, 'api', 3_600_000)).token;
    expect((await api.post('user/switch-role', { view: 'auditor' }, browser)).body.payload.user.role).toBe('Auditor');
    expect((await api.post('/api/sso/login', {}, browser)).body.payload.user).toMatchObject({ role: 'Auditor', originalRole: 'Admin' });
    expect((await api.post('/api/sso/login', {}, otherTab)).body.payload.user).toMatchObject({ role: 'Admin', originalRole: 'Admin' });
    // a delivery call: refused to the auditor view, answered for the API key and the other session
    expect((await api.get('filters', browser)).status).toBe(403);
    expect((await api.get('filters', key)).status).toBe(200);
    expect((await api.get('filters', otherTab)).status).toBe(200);
    // the CLI works on the user row, which keeps the user's own role
    expect((await getUserByEmail(ctx, 'admin@fund-audit.local')).role).toBe('Admin');
    // a socket token asked for by the auditor view acts in that view too
    const socket = (await api.get('ws-token', browser)).body.payload.token;
    expect((await verifyToken(ctx, socket, ['socket'])).user.role).toBe('Auditor');
  });

  it('loses the auditor view of a session when the user is no longer allowed it', async () => {
    const user = await addUser(ctx, { email: 'dtm@example.com', name: 'Dee Tee', role: 'DeliveryTeamMember' });
    const token = await sessionToken(ctx, user.id);
    await api.post('user/switch-role', { view: 'auditor' }, token);
    const { db, tables: t } = storeOf(ctx);
    await db.update(t.users).set({ role: 'Client', originalRole: 'Client' }).where(eq(t.users.id, user.id));
    expect((await api.post('/api/sso/login', {}, token)).body.payload.user).toMatchObject({ role: 'Client', originalRole: 'Client' });
  });

  it.each(['Root', 'Auditor', 'Client'] as const)('refuses the delivery view to a %s original', async (role) => {
    const user = await addUser(ctx, { email: `${role.toLowerCase()}@example.com`, name: `${role} User`, role });
    const res = await api.post('user/switch-role', { view: 'delivery' }, await sessionToken(ctx, user.id));
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatch(/cannot switch to the delivery team/);
  });

  it('is disabled in demo mode', async () => {
    const demo = await createTestContext({ demo: true });
    try {
      const res = await apiClient(demo).post('user/switch-role', { view: 'auditor' }, await sessionToken(demo, demo.boot.admin.id));
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatch(/demo mode/);
    } finally {
      await demo.dispose();
    }
  });
});
