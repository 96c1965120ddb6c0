import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../db/schema/index.js';
import type { RouteGroup } from '../services/auth/permissions.js';
import { issueToken } from '../services/auth/tokens.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { fullPath } from './route.js';
import { allRoutes } from './routes/index.js';

/** Who may call each route group, written from the spec's section 6 (not derived from the code). */
const EXPECTED: Record<RouteGroup, Role[]> = {
  public: ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'],
  session: ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'],
  shared: ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor'],
  auditor: ['Root', 'Admin', 'Auditor'],
  delivery: ['Root', 'Admin', 'DeliveryTeamMember'],
  devTools: ['Root', 'Admin'],
  devToolsLocal: ['Root', 'Admin'],
};
const ROLES: Role[] = ['Root', 'Admin', 'DeliveryTeamMember', 'Auditor', 'Client'];

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
const userOf = {} as Record<Role, number>;
/** A fresh token per call: some routes (logout) revoke the one they are called with. */
const tokenOf = (role: Role) => sessionToken(ctx, userOf[role]);

beforeAll(async () => {
  ctx = await createTestContext({ devToolsEnabled: true, devToolsLocal: true });
  api = apiClient(ctx);
  for (const role of ROLES) {
    const user = await addUser(ctx, { email: `${role.toLowerCase()}@example.com`, name: `${role} Tester`, role });
    userOf[role] = user.id;
  }
});
afterAll(() => ctx.dispose());

const concrete = (path: string) => path.replace(/:(\w+)/g, '1');
const cases = allRoutes.flatMap((r) => ROLES.map((role) => ({ route: `${r.method} ${fullPath(r)}`, r, role, allowed: EXPECTED[r.group].includes(role) })));

describe('every route enforces its role group on the server', () => {
  it.each(cases)('$route as $role (allowed: $allowed)', async ({ r, role, allowed }) => {
    const path = concrete(fullPath(r));
    const res =
      r.tokenFrom === 'query'
        ? await api.call(r.method, `${path}?token=${(await issueToken(ctx, userOf[role], 'download', 60_000)).token}`)
        : await api.call(r.method, path, { token: await tokenOf(role), body: r.method === 'GET' ? undefined : {} });
    if (allowed) expect(res.status).not.toBe(403);
    else expect(res.status).toBe(403);
  });

  it('answers 401, not 403, without a token on guarded routes', async () => {
    for (const r of allRoutes.filter((x) => x.group !== 'public')) {
      const res = await api.call(r.method, concrete(fullPath(r)), { body: r.method === 'GET' ? undefined : {} });
      expect(res.status, `${r.method} ${fullPath(r)}`).toBe(401);
    }
  });

  it('refuses developer routes to an Admin when dev tools are disabled', async () => {
    const off = await createTestContext();
    try {
      const res = await apiClient(off).get('dev-tools/users', await sessionToken(off, off.boot.admin.id));
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatch(/Developer tools are disabled/);
    } finally {
      await off.dispose();
    }
  });

  it('refuses every local-only developer route to an Admin when the environment is not local', async () => {
    const remote = await createTestContext({ seedDemoData: false, devToolsEnabled: true });
    try {
      const client = apiClient(remote);
      const local = allRoutes.filter((r) => r.group === 'devToolsLocal');
      expect(local.map((r) => fullPath(r))).toEqual(
        expect.arrayContaining([
          '/api/v2.0/dev-tools/db/reset',
          '/api/v2.0/dev-tools/tables/drop',
          '/api/v2.0/key/sweeper',
          '/api/v2.0/dev-tools/user/key/system',
        ]),
      );
      for (const r of local) {
        const res = await client.call(r.method, concrete(fullPath(r)), {
          token: await sessionToken(remote, remote.boot.admin.id),
          body: r.method === 'GET' ? undefined : { confirm: true, region: 'AMER' },
        });
        expect(res.status, `${r.method} ${fullPath(r)}`).toBe(403);
        expect(res.body.errors).toEqual(['Only available in a local environment']);
      }
    } finally {
      await remote.dispose();
    }
  });

  it('answers the PowerBI input calls 409 to delivery roles while pbiInputs is off, and 403 to others', async () => {
    const calls = allRoutes.filter((r) => r.tag === 'pbi-inputs' && r.group === 'delivery');
    expect(calls.map((r) => `${r.method} ${fullPath(r)}`).sort()).toEqual([
      'GET /api/v2.0/pbi-inputs/types',
      'POST /api/v2.0/pbi-inputs/list',
      'POST /api/v2.0/pbi-inputs/save',
    ]);
    for (const r of calls) {
      for (const role of ROLES) {
        const form = new FormData();
        form.append('pbiInputsTypes', 'audit_team');
        form.append('upload', new Blob(['engagement_code,email,role\nE,a@b.c,r\n']), 'team.csv');
        const res = await api.call(r.method, fullPath(r), { token: await tokenOf(role), body: r.method === 'GET' ? undefined : r.multipart ? form : {} });
        expect(res.status, `${r.method} ${fullPath(r)} as ${role}`).toBe(EXPECTED.delivery.includes(role) ? 409 : 403);
      }
    }
  });
});
