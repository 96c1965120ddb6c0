import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: true });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(() => ctx.dispose());

describe('POST /funds/listing over HTTP', () => {
  it('answers the envelope, gzip-compressed for a client that accepts it, with the same payload', async () => {
    const plain = await api.call('POST', 'funds/listing', { token, body: {} });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body.success).toBe(true);
    expect(plain.body.payload.rows.map((r: { name: string }) => r.name)).toContain('Goldman Sachs Bond Fund');

    const res = await api.app.fetch(
      new Request('http://test.local/api/v2.0/funds/listing', {
        method: 'POST',
        headers: { 'x-access-token': token, 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' },
        body: '{}',
      }),
    );
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8'));
    expect(body).toEqual(plain.body);
  });

  it('shows a status change made through the API on the next page read', async () => {
    const before = (await api.post('funds/listing', { search: 'Goldman' }, token)).body.payload.rows[0];
    expect(before.status).toBe('Pending');
    expect((await api.post('fund/approve', { ids: [before.id], requestedBy: 'test' }, token)).status).toBe(200);
    const after = (await api.post('funds/listing', { search: 'Goldman' }, token)).body.payload.rows[0];
    expect(after.status).toBe('Approved');
  });
});
