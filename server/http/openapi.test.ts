/**
 * The OpenAPI document (docs/openapi.json, GET /api/openapi.json): one operation per route with a
 * unique operationId, its parameters, multipart parts, error answers and success payload. That the
 * real answers match the payload schemas is checked by openapi-answers*.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot } from '../paths.js';
import { apiClient, createTestContext, type TestContext } from '../testing/context.js';
import { formParts } from './multipart.js';
import { buildOpenApi } from './openapi.js';
import { fullPath, type RouteDef } from './route.js';
import { allRoutes } from './routes/index.js';

type Operation = {
  operationId: string;
  parameters: { name: string; in: string }[];
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: any }> }>;
  requestBody?: { content: Record<string, { schema: any }> };
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, any>> };

const doc = JSON.parse(JSON.stringify(buildOpenApi(allRoutes))) as Doc;
const templateOf = (r: RouteDef) => fullPath(r).replace(/:(\w+)/g, '{$1}');
const opOf = (r: RouteDef) => doc.paths[templateOf(r)][r.method.toLowerCase()];

/** Every `$ref` string anywhere in a JSON value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  return out;
}

/** The value a local JSON pointer (`#/components/...`) names in the document, or undefined. */
function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: any = doc;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
});
afterAll(() => ctx.dispose());

describe('OpenAPI document', () => {
  it('docs/openapi.json matches the mounted routes (regenerate with `fund-audit openapi > docs/openapi.json`)', () => {
    const committed = JSON.parse(readFileSync(join(appRoot(), 'docs/openapi.json'), 'utf8'));
    expect(committed).toEqual(doc);
  });

  it('documents every route with its method and a unique operationId', () => {
    const ids = new Set<string>();
    for (const r of allRoutes) {
      const op = opOf(r);
      expect(op, `${r.method} ${fullPath(r)}`).toBeDefined();
      expect(op.operationId, `${r.method} ${fullPath(r)}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(op.operationId), `operationId ${op.operationId} used twice`).toBe(false);
      ids.add(op.operationId);
    }
    expect(ids.size).toBe(allRoutes.length);
    expect(opOf(allRoutes.find((r) => r.path === '/fund/:id' && r.method === 'GET')!).operationId).toBe('getFundById');
  });

  it('has a valid structure: every $ref resolves and every path parameter is declared', () => {
    expect((doc as any).openapi).toBe('3.1.0');
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(allRoutes.length);
    for (const ref of refs) expect(resolve(ref), ref).toBeDefined();
    for (const [path, ops] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(ops)) {
        expect(['get', 'post', 'delete']).toContain(method);
        expect(
          op.parameters
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .sort(),
          `${method} ${path}`,
        ).toEqual(inPath);
        expect(op.responses['200'] ?? op.responses['302'], `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('says what a redirect or a bare document answers instead of a file', () => {
    const responses = (path: string) => doc.paths[path].get.responses as Record<string, { description: string }>;
    expect(responses('/api/sso/authorize')['302'].description).toMatch(/Redirect to the identity provider/);
    expect(responses('/api/sso/authorize')['200']).toBeUndefined();
    expect(responses('/api/health/ready')['503'].description).toMatch(/Not ready/);
    expect(responses('/api/v2.0/mappings/download')['200'].description).toMatch(/file/);
  });

  it('documents the error answers in the envelope: 400, 404, 409, 413, 429 everywhere, 401 and 403 on signed-in routes', () => {
    const errorEnvelope = doc.components.schemas.ErrorEnvelope;
    expect(errorEnvelope.required).toEqual(['success', 'payload', 'errors']);
    for (const r of allRoutes) {
      const codes = Object.keys(opOf(r).responses);
      const expected = ['400', '404', '409', '413', '429', '500', ...(r.group === 'public' ? [] : ['401', '403'])];
      for (const code of expected) expect(codes, `${r.method} ${fullPath(r)}`).toContain(code);
      for (const code of expected) {
        const answer = resolve(opOf(r).responses[code].$ref!) as { content: Record<string, { schema: { $ref: string } }> };
        expect(answer.content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelope');
      }
    }
    expect((resolve('#/components/responses/TooManyRequests') as any).headers['Retry-After']).toBeDefined();
  });

  it('names the real parts of every multipart upload', () => {
    const multipart = allRoutes.filter((r) => r.multipart);
    expect(multipart.length).toBeGreaterThan(5);
    for (const r of multipart) {
      expect(r.form, `${r.method} ${fullPath(r)} declares its form`).toBeDefined();
      const declared = formParts(r.form!).map(([name]) => name);
      expect(declared.length, `${r.method} ${fullPath(r)} declares its parts`).toBeGreaterThan(0);
      const schema = opOf(r).requestBody!.content['multipart/form-data'].schema;
      expect(Object.keys(schema.properties)).toEqual(declared);
      const files = Object.values(schema.properties as Record<string, any>).filter((p) => p.format === 'binary' || p.items?.format === 'binary');
      expect(files.length, `${r.method} ${fullPath(r)} takes a file`).toBeGreaterThan(0);
    }
    const parts = (path: string) => Object.keys(opOf(allRoutes.find((r) => r.path === path)!).requestBody!.content['multipart/form-data'].schema.properties);
    expect(parts('/import/files')).toEqual(['administrator', 'upload']);
    expect(parts('/mappings/create')).toEqual(expect.arrayContaining(['mappingName', 'mappingType', 'mappingMode', 'administrator', 'upload']));
    expect(parts('/sdm-upload/add-file')).toEqual(['sdmUploadId', 'upload']);
    expect(parts('/sdm-upload/validate-mappings')).toEqual(['mappings']);
    expect(parts('/pbi-inputs/save')).toEqual(['pbiInputsTypes', 'upload']);
  });

  it('describes the payload of routes that declare a response', () => {
    const health = opOf(allRoutes.find((r) => r.path === '/health')!).responses['200'].content!['application/json'].schema;
    expect(health.allOf[1].properties.payload.properties.checks).toBeDefined();
    const listing = opOf(allRoutes.find((r) => r.path === '/funds/listing')!).responses['200'].content!['application/json'].schema;
    expect(Object.keys(listing.allOf[1].properties.payload.properties)).toEqual(['rows', 'pagination']);
  });

  it('answers errors with the documented envelope', async () => {
    const res = await api.get('fund/1', null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, payload: null });
    expect(Array.isArray(res.body.errors)).toBe(true);
  });

  it('serves the same document at GET /api/openapi.json without sign-in, cacheable', async () => {
    const res = await api.app.fetch(new Request('http://test.local/api/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.json()).toEqual(doc);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await api.app.fetch(new Request('http://test.local/api/openapi.json', { headers: { 'if-none-match': etag } }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});
