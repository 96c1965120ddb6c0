import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { createApp } from './app.js';
import { formFiles, type StagedUpload } from './multipart.js';
import { defineRoute } from './route.js';
import { allRoutes } from './routes/index.js';

let ctx: TestContext;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext({ maxUploadBytes: 2048, seedDemoData: false });
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(() => ctx.dispose());

const probe = [
  defineRoute({
    method: 'POST',
    path: '/probe/validate',
    group: 'session',
    tag: 't',
    summary: 'probe',
    body: z.object({ ids: z.array(z.number()).min(1) }),
    handler: ({ body }) => body.ids.length,
  }),
  defineRoute({
    method: 'GET',
    path: '/probe/crash',
    group: 'session',
    tag: 't',
    summary: 'probe',
    handler: () => {
      throw new Error('SQLITE_ERROR: no such column secret_column at /srv/app/x.ts:12');
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/probe/form',
    group: 'session',
    tag: 't',
    summary: 'probe',
    multipart: true,
    form: z.object({
      count: z.coerce.number().int().min(1),
      note: z.string().optional(),
      upload: formFiles({ what: 'probe file', description: 'one small file', maxBytes: 10 }),
    }),
    handler: ({ form }) => {
      const f = form as { count: number; note?: string; upload: StagedUpload[] };
      return { count: f.count, note: f.note ?? null, files: f.upload.map((u) => [u.fileName, u.size]) };
    },
  }),
];

/** Posts a multipart form to the form probe. */
async function postForm(build: (form: FormData) => void) {
  const app = createApp(ctx, [...allRoutes, ...probe] as any);
  const form = new FormData();
  build(form);
  const res = await app.fetch(new Request('http://t/api/v2.0/probe/form', { method: 'POST', body: form, headers: { 'x-access-token': token } }));
  return { status: res.status, body: await res.json() };
}

async function call(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const app = createApp(ctx, [...allRoutes, ...probe] as any);
  const res = await app.fetch(
    new Request(`http://t${path}`, { method, body, headers: { 'x-access-token': token, 'content-type': 'application/json', ...headers } }),
  );
  return { status: res.status, body: await res.json() };
}

describe('answers and errors', () => {
  it('wraps payloads in the envelope', async () => {
    const res = await apiClient(ctx).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, errors: [], payload: { version: '1.15.223', schemaVersion: ctx.schemaVersion } });
  });

  it('answers 400 with message, errors and totalErrorsFound for invalid input', async () => {
    const res = await call('POST', '/api/v2.0/probe/validate', JSON.stringify({ ids: [] }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, payload: null, message: 'The request is not valid', totalErrorsFound: 1 });
    expect(res.body.errors[0]).toMatch(/^body\.ids: /);
  });

  it('names each bad field with a code beside the messages', async () => {
    const res = await call('POST', '/api/v2.0/probe/validate', JSON.stringify({ ids: ['x', 2] }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.fieldErrors).toEqual([{ in: 'body', field: 'ids.0', code: 'invalid_type', message: expect.any(String) }]);
    expect(res.body.errors).toEqual([`body.ids.0: ${res.body.fieldErrors[0].message}`]);
  });

  it('checks a multipart form against the route schema before the handler runs', async () => {
    const good = await postForm((f) => {
      f.append('count', '2');
      f.append('upload', new Blob(['abc']), 'a.csv');
    });
    expect(good).toMatchObject({ status: 200, body: { payload: { count: 2, note: null, files: [['a.csv', 3]] } } });

    const bad = await postForm((f) => {
      f.append('count', 'zero');
      f.append('upload', new Blob(['abc']), 'a.csv');
      f.append('upload', new Blob(['0123456789abc']), 'b.csv');
      f.append('extra', new Blob(['x']), 'c.csv');
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.fieldErrors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['count', 'invalid_type'],
      ['upload', 'too_many_files'],
      ['upload', 'too_large'],
      ['extra', 'unexpected_field'],
    ]);
    expect(bad.body.message).toBe(bad.body.fieldErrors[0].message);

    const none = await postForm((f) => f.append('count', '1'));
    expect(none.status).toBe(400);
    expect(none.body.fieldErrors).toEqual([
      { in: 'form', field: 'upload', code: 'missing_file', message: expect.stringMatching(/^No probe file was uploaded/) },
    ]);
  });

  it('gives every error answer the code of its kind', async () => {
    const res = await call('GET', '/api/v2.0/no/such/thing');
    expect(res.body.code).toBe('not_found');
    const unsigned = await call('GET', '/api/v2.0/probe/crash', undefined, { 'x-access-token': '' });
    expect(unsigned).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await call('POST', '/api/v2.0/probe/validate', '{ids: ');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is not valid JSON');
  });

  it('answers 404 for an unknown API path', async () => {
    const res = await call('GET', '/api/v2.0/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toBe('No such API route: GET /api/v2.0/no/such/thing');
  });

  it('answers 413 for a request over the upload limit', async () => {
    const res = await call('POST', '/api/v2.0/probe/validate', JSON.stringify({ ids: [1], pad: 'x'.repeat(4096) }));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('File upload failed. File size limit has been reached 2048B');
  });

  it('answers 500 "An error occurred" without the stack or SQL', async () => {
    const res = await call('GET', '/api/v2.0/probe/crash');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, payload: null, errors: ['An error occurred'], message: 'An error occurred', code: 'internal_error' });
    expect(JSON.stringify(res.body)).not.toMatch(/SQLITE|secret_column|x\.ts/);
  });
});
