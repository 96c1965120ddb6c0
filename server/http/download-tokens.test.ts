/**
 * Download tokens act in the view of the session they were asked with: an Admin who switched to
 * the auditor view downloads what an Auditor may, not what the Admin role may, also with a token
 * asked for before the switch; a token of a session that ended downloads nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  ctx = await createTestContext({ devToolsEnabled: true, seedDemoData: false });
  api = apiClient(ctx);
});
afterAll(() => ctx.dispose());

const download = (path: string, token: string) => api.app.fetch(new Request(`http://t/api/v2.0/${path}?token=${token}`));

describe('download tokens', () => {
  it('carry the auditor view of the session they were asked with', async () => {
    const session = await sessionToken(ctx, ctx.boot.admin.id);
    const asAdmin = (await api.get('export/token', session)).body.payload.token as string;
    expect((await download('dev-tools/audit-log/export', asAdmin)).status).toBe(200);

    expect((await api.post('user/switch-role', { view: 'auditor' }, session)).status).toBe(200);
    const asAuditor = (await api.get('export/token', session)).body.payload.token as string;
    const refused = await download('dev-tools/audit-log/export', asAuditor);
    expect(refused.status).toBe(403);
    // what an Auditor may download still downloads
    expect((await download('fund-request/download', asAuditor)).status).toBe(200);

    // back in the delivery view, a new token reaches the Admin's downloads again
    expect((await api.post('user/switch-role', { view: 'delivery' }, session)).status).toBe(200);
    const again = (await api.get('export/token', session)).body.payload.token as string;
    expect((await download('dev-tools/audit-log/export', again)).status).toBe(200);
  });

  it('follow a view switch made after they were asked for', async () => {
    const session = await sessionToken(ctx, ctx.boot.admin.id);
    const early = (await api.get('export/token', session)).body.payload.token as string;
    expect((await api.post('user/switch-role', { view: 'auditor' }, session)).status).toBe(200);
    const refused = await download('dev-tools/audit-log/export', early);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors).toEqual(['The Auditor role cannot use this part of Fund Audit']);
    expect((await download('fund-request/download', early)).status).toBe(200);
  });

  it('end with the session they were asked with', async () => {
    const session = await sessionToken(ctx, ctx.boot.admin.id);
    const token = (await api.get('export/token', session)).body.payload.token as string;
    expect((await download('fund-request/download', token)).status).toBe(200);
    expect((await api.post('/api/sso/logout', {}, session)).status).toBe(200);
    const after = await download('fund-request/download', token);
    expect(after.status).toBe(401);
    expect((await after.json()).errors).toEqual(['The session this download token was asked for with has ended; sign in again']);
  });
});
