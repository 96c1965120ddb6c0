/**
 * The real answers of the upload routes (imports, bulk upload, self-onboarding), the log files and
 * the developer tools of a local environment match the response schemas they declare. The database
 * actions run on a throwaway data directory of their own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../paths.js';
import { logsDir } from '../services/dev-tools/logs.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { UPLOAD_AND_LOCAL_ROUTES } from './openapi-answer-routes.js';
import { fullPath } from './route.js';
import { allRoutes } from './routes/index.js';

type RouteKey = (typeof UPLOAD_AND_LOCAL_ROUTES)[number];

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext({ devToolsEnabled: true, devToolsLocal: true, impersonateEnabled: true });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(() => ctx.dispose());

/** The routes whose answers were checked. */
const checked = new Set<string>();

/**
 * Calls a route and checks its answer: HTTP 200 and a payload its response schema parses.
 * @param input.url the path below the API base with its parameters filled in (default: the route's path)
 * @returns the payload
 */
async function answer(client: ReturnType<typeof apiClient>, key: RouteKey, input: { url?: string; body?: unknown; token: string }): Promise<any> {
  const route = allRoutes.find((r) => `${r.method} ${r.path}` === key)!;
  expect(route.response, `${key} declares a response`).toBeDefined();
  const url = fullPath(route).replace(route.path, input.url ?? route.path);
  const res = await client.call(route.method, url, { token: input.token, body: input.body });
  expect(res.status, `${key}: ${JSON.stringify(res.body.errors)}`).toBe(200);
  const parsed = route.response!.safeParse(res.body.payload);
  expect(parsed.success, `${key}: ${parsed.error?.message}`).toBe(true);
  checked.add(key);
  return res.body.payload;
}

/** A multipart form of text fields and files. */
function form(fields: Record<string, string>, files: Array<{ field: string; name: string; bytes: Uint8Array }> = []): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const x of files) f.append(x.field, new Blob([new Uint8Array(x.bytes)]), x.name);
  return f;
}

const fixture = (...parts: string[]) => readFileSync(join(fixturesDir(), ...parts));
const mappingTypes = ['file_layout', 'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping'];
/** The shipped mapping files of the demo TPA, as the self-onboarding wizard sends them. */
const demoMappings = () => mappingTypes.map((t) => ({ field: 'mappings', name: `${t}.csv`, bytes: fixture('tpas', 'demo_test', 'mappings', `${t}.csv`) }));

describe('Response schemas of uploads, log files and the local developer tools', () => {
  it('answers the imports and bulk uploads with payloads matching their schemas', async () => {
    const holdings = fixture('tpas', 'meridian_fund_services', 'inputs', 'MFS_HOLDINGS_S000013795_20230331.csv');
    const imported = await answer(api, 'POST /import/files', {
      token,
      body: form({ administrator: 'meridian_fund_services' }, [{ field: 'upload', name: 'MFS_HOLDINGS_S000013795_20230331.csv', bytes: holdings }]),
    });
    expect(imported).toHaveLength(1);

    // the real fund requests: the demo data holds some of them already (editable rows, overwritten when saved)
    const realFunds = fixture('fund-requests', 'real-funds.csv');
    const validated = await answer(api, 'POST /funds/upload', { token, body: form({}, [{ field: 'upload', name: 'real-funds.csv', bytes: realFunds }]) });
    expect(validated.totalRows).toBeGreaterThan(0);
    const rows = [...validated.accepted, ...validated.editable, ...validated.declined];
    const saved = await answer(api, 'POST /funds', { token, body: { requestDate: '2023-01-02', funds: rows.map((r) => ({ ...r, isEditable: true })) } });
    expect(saved.saved.length + saved.failed.length).toBe(rows.length);
    // the auditor's upload never overwrites: the same rows now fail as duplicates
    const bulk = await answer(api, 'POST /fund-request/bulk', { token, body: form({}, [{ field: 'upload', name: 'real-funds.csv', bytes: realFunds }]) });
    expect(bulk.failed.length).toBeGreaterThan(0);
    expect(bulk.failed[0].errors.faults[0]).toMatchObject({ type: 'Duplicate Fund' });
  });

  it('answers the self-onboarding of a new TPA with payloads matching their schemas', async () => {
    const results = await answer(api, 'POST /sdm-upload/validate-mappings', { token, body: form({ code: 'answers_tpa' }, demoMappings()) });
    expect(Object.keys(results).sort()).toEqual([...mappingTypes].sort());
    const created = await answer(api, 'POST /sdm-upload/create', {
      token,
      body: form(
        { code: 'answers_tpa', name: 'Answers TPA', touchedMappings: JSON.stringify({ deletedMappings: [], newMappings: mappingTypes, updatedMappings: [] }) },
        demoMappings(),
      ),
    });
    const real = fixture('fund-requests', 'real-funds.csv').toString('utf8').split('\n');
    const fundRequest = [real[0], real.find((l) => l.includes(',demo_test,'))!.replace(',demo_test,', ',answers_tpa,')].join('\n');
    const sdmUploadId = String(created.id);
    await answer(api, 'POST /sdm-upload/add-file', {
      token,
      body: form({ sdmUploadId }, [{ field: 'upload', name: 'fund_request.csv', bytes: Buffer.from(fundRequest) }]),
    });
    const added = await answer(api, 'POST /sdm-upload/add-file', {
      token,
      body: form({ sdmUploadId }, [{ field: 'upload', name: 'holdings.csv', bytes: fixture('tpas', 'demo_test', 'inputs', 'demo_holdings.csv') }]),
    });
    expect(added.status).toBe('Validated');
    const processed = await answer(api, 'POST /sdm-upload/process', { token, body: { id: created.id, isSelfOnboarded: true, forceRun: true } });
    expect(processed.uploaded_files.map((f: { status: string }) => f.status)).toEqual(['Uploaded', 'Uploaded']);
    const info = await answer(api, 'POST /sdm-upload/info', { token, body: { id: created.id } });
    expect(info.validationResults.touchedMappings.newMappings).toEqual(mappingTypes);
    expect(info.validationResults.file_layout.valid).toBe(true);
  });

  it('answers an upload of independent FX rates with a payload matching its schema', async () => {
    const fed = fixture('fx-sources', 'fed_h10_fx_monthly.csv');
    const loaded = await answer(api, 'POST /reference/fx-rates', { token, body: form({}, [{ field: 'upload', name: 'fed_h10_fx_monthly.csv', bytes: fed }]) });
    expect(loaded).toMatchObject({ file: 'fed_h10_fx_monthly.csv', format: 'Fed H.10' });
  });

  it('answers the log files, services and keys with payloads matching their schemas', async () => {
    writeFileSync(join(logsDir(ctx), 'answers.log'), Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const files = await answer(api, 'POST /logs/list', { token, body: {} });
    expect(files.map((f: { file: string }) => f.file)).toContain('answers.log');
    const tail = await answer(api, 'POST /logs/last-lines', { token, body: { file: 'answers.log', count: 5 } });
    expect(tail).toMatchObject({ lines: ['line 16', 'line 17', 'line 18', 'line 19', 'line 20'], truncated: true });
    expect(await answer(api, 'POST /dev-tools/services', { token, body: { services: { sweeper: 'off' } } })).toEqual({
      pipeline: 'on',
      sweeper: 'off',
      mail: 'on',
    });
    for (const service of ['sweeper', 'canvas', 'worker', 'test-runner'] as const)
      expect((await answer(api, `GET /key/${service}`, { token })).service).toBe(service);
    expect((await answer(api, 'GET /dev-tools/user/key/system', { token })).role).toBe('Admin');
    const auditor = await addUser(ctx, { email: 'answers@example.com', name: 'Ann Swers', role: 'Auditor' });
    expect((await answer(api, 'GET /dev-tools/user/key/:userId', { token, url: `/dev-tools/user/key/${auditor.id}` })).email).toBe('answers@example.com');
    expect((await answer(api, 'GET /dev-tools/user/key/:userId/:expiry', { token, url: `/dev-tools/user/key/${auditor.id}/10h` })).service).toBeNull();
  });

  it('answers the database actions with payloads matching their schemas', async () => {
    const scratch = await createTestContext({ devToolsEnabled: true, devToolsLocal: true });
    try {
      const client = apiClient(scratch);
      const admin = await sessionToken(scratch, scratch.boot.admin.id);
      await answer(client, 'POST /dev-tools/db/populate', { token: admin, body: {} });
      expect((await answer(client, 'POST /dev-tools/db/populate/administrators', { token: admin, body: { region: 'AMER' } })).region).toBe('AMER');
      const forced = await answer(client, 'POST /dev-tools/db/populate/force-master-mappings', { token: admin, body: {} });
      expect(forced.administrators.length).toBeGreaterThan(0);
      expect((await answer(client, 'POST /dev-tools/db/clear', { token: admin, body: { confirm: true } })).removed.fund_requests).toBeGreaterThan(0);
      const reset = await answer(client, 'POST /dev-tools/db/reset', { token: admin, body: { confirm: true } });
      expect(reset.populated.fundRequests).toBeGreaterThan(0);
    } finally {
      await scratch.dispose();
    }
  });

  it('answers dropping the tables with a payload matching its schema, on a SQLite data directory', async () => {
    // only a SQLite data directory has tables to drop; a PostgreSQL database answers 400 naming
    // dropdb and createdb (developer tools tests), so the answer is checked on SQLite
    const scratch = await createTestContext({ dialect: 'sqlite', devToolsEnabled: true, devToolsLocal: true });
    try {
      const admin = await sessionToken(scratch, scratch.boot.admin.id);
      const dropped = await answer(apiClient(scratch), 'POST /dev-tools/tables/drop', { token: admin, body: { confirm: true } });
      expect(dropped.dropped.length).toBeGreaterThan(0);
    } finally {
      await scratch.dispose();
    }
  });

  it('checked every route of its list', async () => {
    expect([...checked].sort()).toEqual([...UPLOAD_AND_LOCAL_ROUTES].sort());
  });
});
