import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addUser } from '../services/users/users.js';
import { DEFAULT_WIKI } from '../services/wiki/wiki.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
afterEach(() => ctx?.dispose());

const sdmLink = (payload: any) => payload.sections.flatMap((s: any) => s.items).find((i: any) => i.title === 'Standard data model');

describe('onboarding guide', () => {
  it("the wiki's 'Standard data model' link downloads the guide, also from a wiki.json written before it existed", async () => {
    ctx = await createTestContext();
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const link = sdmLink((await api.get('wiki-data', token)).body.payload);
    expect(link.url).toBe('/api/v2.0/docs/onboarding.md');

    const dl = (await api.get('export/token', token)).body.payload.token;
    const res = await api.app.fetch(new Request(`http://t${link.url}?token=${dl}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/markdown');
    const text = await res.text();
    expect(text).toMatch(/^# Onboarding a TPA/);
    expect(text).toContain('| `market_value_base` | number | yes, unless `market_value_local` is mapped |');
    expect((await api.app.fetch(new Request('http://t/api/v2.0/docs/onboarding.md'))).status).toBe(401);

    const old = structuredClone(DEFAULT_WIKI);
    sdmLink(old).url = 'https://www.sec.gov/files/formn-port.pdf';
    writeFileSync(join(ctx.dir, 'wiki.json'), JSON.stringify(old));
    expect(sdmLink((await api.get('wiki-data', token)).body.payload).url).toBe('/api/v2.0/docs/onboarding.md');
  });

  it('opens for a Client too, whose download token reaches nothing else', async () => {
    ctx = await createTestContext({ seedDemoData: false });
    const api = apiClient(ctx);
    const client = await addUser(ctx, { email: 'client@example.com', name: 'Cleo Client', role: 'Client' });
    const token = await sessionToken(ctx, client.id);
    const link = sdmLink((await api.get('wiki-data', token)).body.payload);
    const issued = await api.get('export/token', token);
    expect(issued.status).toBe(200);
    const res = await api.app.fetch(new Request(`http://t${link.url}?token=${issued.body.payload.token}`));
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^# Onboarding a TPA/);
    const again = (await api.get('export/token', token)).body.payload.token;
    expect((await api.app.fetch(new Request(`http://t/api/v2.0/fund-request/download?token=${again}`))).status).toBe(403);
  });

  it('POST /administrators creates a TPA and refuses a taken or invalid code', async () => {
    ctx = await createTestContext();
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const res = await api.post('administrators', { code: 'northwind_admin', name: 'Northwind Administration', region: 'EMEA' }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payload).toMatchObject({ code: 'northwind_admin', name: 'Northwind Administration', region: 'EMEA', selfOnboarded: false });
    expect((await api.post('administrators', { code: 'northwind_admin', name: 'Again' }, token)).body.errors[0]).toBe('Administrator already exist');
    const bad = await api.post('administrators', { code: 'North Wind', name: 'x' }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/lowercase/);
  });
});
