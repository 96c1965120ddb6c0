/** The shared client core: operation names to URLs, and envelopes read from a real server. */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiResponse, Operation } from '../server/http/contract.js';
import { startServer, type RunningServer } from '../server/http/server.js';
import { createTestContext, sessionToken, type TestContext } from '../server/testing/context.js';
import { operationUrl, sendOperation, type ApiClientOptions, type CallInput } from './api.js';

describe('operation URLs', () => {
  it('fills path parameters (encoded), appends the query and keeps a query already in the path', async () => {
    expect(operationUrl('GET /api/v2.0/fund/:id', { id: 7 })).toEqual({ method: 'GET', path: '/api/v2.0/fund/7' });
    expect(operationUrl('POST /api/v2.0/tpa/:code/files/:fileId', { code: 'a b', fileId: '3' }).path).toBe('/api/v2.0/tpa/a%20b/files/3');
    expect(operationUrl('GET /api/v2.0/logs', undefined, { page: 2, kinds: ['a', 'b'], none: undefined }).path).toBe('/api/v2.0/logs?page=2&kinds=a&kinds=b');
    expect(operationUrl('GET /api/v2.0/x?at=10:00', undefined, { n: 1 }).path).toBe('/api/v2.0/x?at=10%3A00&n=1');
  });

  it('names the operation and the parameter that is missing', async () => {
    expect(() => operationUrl('GET /api/v2.0/fund/:id', {})).toThrow('GET /api/v2.0/fund/:id: the path parameter id is missing');
  });
});

describe('the contract (checked by the type checker)', () => {
  it('names operations by method and full path and types their parts', async () => {
    expectTypeOf<'POST /api/v2.0/funds/listing'>().toExtend<Operation>();
    expectTypeOf<'GET /api/v2.0/fund/:id'>().toExtend<Operation>();
    expectTypeOf<'GET /api/health'>().toExtend<Operation>();
    expectTypeOf<'POST /api/v2.0/fund/approve'>().toExtend<Operation>();
    expectTypeOf<'GET /api/v2.0/no-such-route'>().not.toExtend<Operation>();
    expectTypeOf<CallInput<'GET /api/v2.0/fund/:id'>['params']>().toEqualTypeOf<Record<'id', string | number>>();
    expectTypeOf<ApiResponse<'POST /api/v2.0/funds/listing'>['pagination']>().toEqualTypeOf<{
      offset: number;
      limit: number;
      count: number;
      countCapped: boolean;
      next: string | null;
      previous: string | null;
    }>();
    expectTypeOf<ApiResponse<'GET /api/v2.0/filters'>[number]['fixed']>().toEqualTypeOf<boolean>();
  });
});

describe('calls to a running server', () => {
  let ctx: TestContext;
  let server: RunningServer;
  let options: ApiClientOptions;
  beforeAll(async () => {
    ctx = await createTestContext({ basePath: '/fund-audit' });
    server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    options = { baseUrl: server.url, send: (url, init) => fetch(url, init), headers: () => ({ 'x-access-token': token }) };
  });
  afterAll(async () => {
    await server.close();
    await ctx.dispose();
  });

  it('answers the typed payload of a route', async () => {
    const answer = await sendOperation(options, 'GET /api/v2.0/filters', {});
    expect(answer.ok).toBe(true);
    expect(answer.envelope?.payload.map((f) => f.title)).toEqual(['Pending', 'Open', 'Deleted']);
    const session = await sendOperation(options, 'POST /api/sso/login', { body: {} });
    expect(session.envelope?.payload.user.email).toBe(ctx.boot.admin.email);
  });

  it('reports a refusal with its status and the server errors', async () => {
    const answer = await sendOperation({ ...options, headers: () => ({}) }, 'GET /api/v2.0/filters', {});
    expect(answer).toMatchObject({ ok: false, status: 401 });
    expect(answer.envelope?.errors[0]).toMatch(/Sign-in required/);
    const invalid = await sendOperation(options, 'POST /api/v2.0/filter/delete', { body: { id: 'x' as unknown as number } });
    expect(invalid).toMatchObject({ ok: false, status: 400 });
  });
});
