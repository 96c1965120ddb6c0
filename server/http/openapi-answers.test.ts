/**
 * The real answers of the API match the response schemas the routes declare (the payloads of
 * docs/openapi.json and of the typed client): every route that declares one is called on seeded
 * data and its payload parsed by its schema. Uploads, log files and the local developer tools are
 * called by openapi-answers-uploads.test.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fxDir } from '../services/reference-data/fx-rates.js';
import { storeOf } from '../db/dialect.js';
import { fixturesDir } from '../paths.js';
import { savePbiInput } from '../services/pbi-inputs/pbi-inputs.js';
import { createAdjustment } from '../services/adjustments/adjustments.js';
import { insertAdministrator, insertFund, insertFundFile } from '../testing/fund-factory.js';
import { fundRequestInput } from '../testing/fund-input.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';
import { isUploadOrLocalRoute } from './openapi-answer-routes.js';
import { fullPath } from './route.js';
import { allRoutes } from './routes/index.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, pbiInputs: true, devToolsEnabled: true, branchUpdateEnabled: true });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(() => ctx.dispose());

/**
 * Funds (one with files, a child, processes and an import; three to move through the status
 * actions), a custom mapping with two versions that fed the first fund, so the answers hold data.
 */
async function seedPayloadData(ctx: TestContext) {
  const { db, tables: t } = storeOf(ctx);
  const administratorId = await insertAdministrator(ctx, 'openapi-tpa');
  const fund = await insertFund(ctx, { administratorId, alternateCodes: ['ALT-1'] });
  await insertFund(ctx, { parentId: fund.id });
  const [moved, declined, removed] = [await insertFund(ctx), await insertFund(ctx), await insertFund(ctx)];
  const [process] = await db
    .insert(t.processes)
    .values({ fundRequestId: fund.id, stage: 'calculations', payload: { reason: 'test' } })
    .returning();
  const [queued] = await db.insert(t.processes).values({ fundRequestId: fund.id, stage: 'visualization' }).returning();
  for (const fileType of ['NAV', 'NAV']) await insertFundFile(ctx, fund.id, { fileType });
  await insertFundFile(ctx, fund.id, {
    kind: 'standardization',
    fileType: 'NAV',
    validation: { QA_Mapping: [{ column: 'ccy', file: 'NAV.csv', error: 'unmapped' }] },
  });
  await insertFundFile(ctx, fund.id, {
    kind: 'calculation',
    fileType: 'calculations',
    validation: {
      QA_Rec: [
        { name: 'Total NAV', diff: 12.5, status: 'fail' },
        { error: 'Missing price', status: 'warning' },
      ],
    },
  });
  await insertFundFile(ctx, fund.id, { kind: 'work_paper', fileType: 'WP_NAV', fileName: 'nav.xlsx' });
  const v1 = [
    { source_code: 'EQ', target_code: 'Equity' },
    { source_code: 'BD', target_code: 'Bond' },
  ];
  const v2 = [
    { source_code: 'EQ', target_code: 'Equities' },
    { source_code: 'CA', target_code: 'Cash' },
  ];
  const [mapping] = await db
    .insert(t.mappings)
    .values({
      administratorId,
      type: 'instrument_mapping',
      kind: 'custom',
      description: 'openapi custom',
      userId: ctx.boot.admin.id,
      rows: v2,
      sha256: 'cd'.repeat(32),
      version: 2,
    })
    .returning();
  for (const [i, rows] of [v1, v2].entries()) {
    const [version] = await db
      .insert(t.mappingVersions)
      .values({
        mappingId: mapping!.id,
        version: i + 1,
        sha256: String(i).repeat(64),
        rows,
        userId: ctx.boot.admin.id,
        reason: 'upload',
        fileName: 'asset.csv',
      })
      .returning();
    await db.insert(t.mappingVersionUses).values({ mappingVersionId: version!.id, fundRequestId: fund.id });
  }
  await db.insert(t.importFiles).values({ administratorId, fileName: 'nav.csv', sha256: 'ab'.repeat(32), size: 10 });
  const errors = [
    {
      sheet_name: 'Sheet1',
      error_code: 'NO_MATCH',
      error_message: 'No layout matches',
      columns_missing: ['ISIN'],
      closest_match: 'holdings',
      column_match_percent: 80,
    },
  ];
  const [unidentified] = await db.insert(t.unidentifiedFiles).values({ fileName: 'u.csv', administratorId, errors }).returning();
  const [unmatched] = await db.insert(t.unmatchedFiles).values({ fileName: 'm.csv', fileType: 'holdings', fundCode: 'ZZ', administratorId }).returning();
  await db.insert(t.sweptFiles).values({ originalFileName: 's.csv', administratorId, filePathOnMoveit: '/inbox/openapi/s.csv' });
  await db
    .insert(t.orchestrationLogs)
    .values({ fundRequestId: fund.id, stage: 'standardization', status: 'error', payload: { error: 'No layout', warnings: ['Stale rate'] } });
  const team = Buffer.from('engagement_code,email,role\nE-100,ada@example.com,Manager\n');
  await savePbiInput(ctx, ctx.boot.admin, { pbiInputsTypes: 'audit_team', fileName: 'team.csv', bytes: team }, 'https://audit.example.com');
  mkdirSync(fxDir(ctx), { recursive: true });
  writeFileSync(join(fxDir(ctx), 'cross.csv'), 'currency,rate_date,units_per_usd,source\nEUR,2024-12-31,0.96,test\nGBP,2024-12-31,0.79,test\n');
  // a custom mapping no fund uses, for the delete of several
  const [spare] = await db
    .insert(t.mappings)
    .values({
      administratorId,
      type: 'instrument_mapping',
      kind: 'custom',
      description: 'openapi spare',
      userId: ctx.boot.admin.id,
      rows: v1,
      sha256: 'ef'.repeat(32),
    })
    .returning();
  // a fund whose files the file and work-paper actions change
  const acted = await insertFund(ctx, { administratorId });
  const actedFiles = {
    reviewed: await insertFundFile(ctx, acted.id, { fileType: 'NAV' }),
    dropped: await insertFundFile(ctx, acted.id, { fileType: 'TB' }),
  };
  await insertFundFile(ctx, acted.id, { kind: 'standardization', fileType: 'NAV' });
  await insertFundFile(ctx, acted.id, { kind: 'work_paper', fileType: 'WP_NAV', fileName: 'wp.xlsx' });
  return {
    fund,
    moved,
    declined,
    removed,
    process: process!,
    queued: queued!,
    mapping: mapping!,
    acted,
    actedFiles,
    spare: spare!,
    issues: { 'not-identified': unidentified!.id, 'not-matched': unmatched!.id },
  };
}

/** An adjustment for the adjustment routes' calls. */
const ADJUSTMENT = {
  type: 'uk_apportionment',
  description: 'Management fee charged to capital',
  bookedByTpa: false,
  lines: [
    { account: 'EXPENSE_MANAGEMENT_FEE', target: 'tb_balance', amount: -1_250 },
    { account: 'CAPITAL', target: 'tb_balance', amount: 1_250 },
  ],
};

/** The multipart upload of a custom instrument mapping of the seeded administrator (a real mapping csv of a TPA). */
function customMappingForm(name: string): FormData {
  const form = new FormData();
  const fields = {
    administrator: 'openapi-tpa',
    mappingType: 'instrument_mapping',
    mappingMode: 'custom',
    mappingName: name,
    rationale: 'client classification',
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const csv = readFileSync(join(fixturesDir(), 'tpas', 'meridian_fund_services', 'mappings', 'instrument_mapping.csv'));
  form.append('upload', new Blob([new Uint8Array(csv)]), 'instrument_mapping.csv');
  return form;
}

/** The multipart upload of a PowerBI audit team csv. */
function pbiInputForm(): FormData {
  const form = new FormData();
  form.append('pbiInputsTypes', 'audit_team');
  form.append('upload', new Blob(['engagement_code,email,role\nE-200,grace@example.com,Senior\n']), 'team-2.csv');
  return form;
}

describe('Response schemas', () => {
  it('answers every route that declares a response with a payload matching it', async () => {
    const { fund, moved, declined, removed, process, queued, mapping, acted, actedFiles, spare, issues } = await seedPayloadData(ctx);
    const installed = allRoutes.find((r) => r.path === '/dev-tools/configurations/current')!;
    const branch = (await api.get(fullPath(installed), token)).body.payload.branch as string;
    const newFund = fundRequestInput('openapi-tpa');
    // routes with path parameters or a body; a page of `rows` must not be empty
    // a body or url given as a function is made from the payloads answered before it (by path)
    const answers: Record<string, any> = {};
    const adjustment = await createAdjustment(ctx, ctx.boot.admin, fund.id, ADJUSTMENT);
    const calls: { method: 'GET' | 'POST' | 'DELETE'; path: string; url?: string | (() => string); body?: unknown; before?: () => unknown }[] = [
      { method: 'POST', path: '/data-layer/navigate', body: { page: 'Funds', path: '/data-platform' } },
      { method: 'POST', path: '/export/files/delete-old', body: {} },
      { method: 'POST', path: '/funds/listing', body: {} },
      { method: 'POST', path: '/funds/listing/count', body: {} },
      { method: 'GET', path: '/user/funds/:offset/:limit', url: '/user/funds/0/10' },
      { method: 'POST', path: '/user/fundsByTpa', body: { tpa: 'openapi-tpa' } },
      { method: 'POST', path: '/export/files', body: { fundRequests: [fund.id], fundRequestStages: ['fundRequest'] } },
      { method: 'POST', path: '/export/files/list', body: {} },
      { method: 'POST', path: '/logs/processes', body: { id: fund.id } },
      { method: 'POST', path: '/fund/process/cancel', body: { id: process.id } },
      { method: 'POST', path: '/fund/process/reset', body: { id: queued.id } },
      { method: 'POST', path: '/import/list', body: {} },
      { method: 'POST', path: '/sso/login', body: {} },
      { method: 'POST', path: '/privacy/accept', body: {} },
      { method: 'POST', path: '/user/switch-role', body: { view: 'delivery' } },
      { method: 'POST', path: '/dev-tools/configurations/update', body: { branch } },
      { method: 'POST', path: '/dev-tools/testing/update', body: { branch } },
      { method: 'GET', path: '/fund/:id', url: `/fund/${fund.id}` },
      { method: 'GET', path: '/mappings/types/:administratorCode', url: '/mappings/types/openapi-tpa' },
      { method: 'GET', path: '/mappings/types-for-fund-request/:id', url: `/mappings/types-for-fund-request/${fund.id}` },
      { method: 'GET', path: '/mappings/:id/history', url: `/mappings/${mapping.id}/history` },
      { method: 'GET', path: '/mappings/:id/diff', url: `/mappings/${mapping.id}/diff?from=1&to=2` },
      // status actions, in an order that moves the funds (a refused move answers with a warning)
      ...(['approve', 'rerun', 'pause', 'issue', 'close', 'reset'] as const).map((action) => ({
        method: 'POST' as const,
        path: `/fund/${action}`,
        body: { ids: [moved.id] },
      })),
      { method: 'POST', path: '/fund/decline', body: { ids: [declined.id, moved.id] } },
      { method: 'POST', path: '/fund/remove', body: { ids: [removed.id] } },
      { method: 'POST', path: '/fund/undo-delete', body: { ids: [removed.id] } },
      { method: 'POST', path: '/fund/changeDataRequestedStatus', body: { ids: [moved.id], status: 'Requested' } },
      { method: 'POST', path: '/logs/trail', body: { id: moved.id } },
      { method: 'GET', path: '/fund/:id/adjustments', url: `/fund/${fund.id}/adjustments` },
      { method: 'POST', path: '/fund/:id/adjustments', url: `/fund/${fund.id}/adjustments`, body: ADJUSTMENT },
      {
        method: 'POST',
        path: '/fund/:id/adjustments/:adjustmentId',
        url: `/fund/${fund.id}/adjustments/${adjustment.id}`,
        body: { ...ADJUSTMENT, bookedByTpa: true },
      },
      { method: 'POST', path: '/fund/:id/adjustments/rerun', url: `/fund/${fund.id}/adjustments/rerun`, body: { rerun: 'apportionment' } },
      { method: 'DELETE', path: '/fund/:id/adjustments/:adjustmentId', url: `/fund/${fund.id}/adjustments/${adjustment.id}` },
      { method: 'POST', path: '/fund', body: { fund: newFund } },
      { method: 'POST', path: '/fund/validate', body: { fund: newFund } },
      ...(['not-identified', 'not-matched'] as const).flatMap((list) => [
        { method: 'POST' as const, path: `/files/${list}/list`, body: {} },
        { method: 'POST' as const, path: `/files/${list}/assign`, body: { ids: [issues[list]], userId: ctx.boot.admin.id } },
        { method: 'POST' as const, path: `/files/${list}/action`, body: { ids: [issues[list]], action: 'Ignored' } },
        { method: 'POST' as const, path: `/files/${list}/remove`, body: { ids: [issues[list]] } },
      ]),
      { method: 'POST', path: '/files/sweeper/logs/list', body: {} },
      { method: 'POST', path: '/pbi-inputs/list', body: {} },
      { method: 'POST', path: '/dev-tools/test-runner/schedule', body: { administratorCodes: ['demo_test'], testIds: ['1'] } },
      { method: 'GET', path: '/dev-tools/test-runner/tests/:id', url: () => `/dev-tools/test-runner/tests/${answers['/dev-tools/test-runner/schedule'].id}` },
      { method: 'POST', path: '/dev-tools/test-runner/test/stop', body: () => ({ id: answers['/dev-tools/test-runner/schedule'].id }) },
      { method: 'POST', path: '/logs/orchestration', body: { id: fund.id } },
      { method: 'POST', path: '/logs/errors', body: { id: fund.id } },
      { method: 'POST', path: '/file/review', body: { ids: [actedFiles.reviewed], reviewed: true, fundRequestId: acted.id } },
      { method: 'POST', path: '/file/disable', body: { ids: [actedFiles.dropped], disabled: true } },
      { method: 'POST', path: '/file/remove', body: { ids: [actedFiles.dropped] } },
      { method: 'POST', path: '/fund/file/reset', body: { id: acted.id, fileType: 'NAV' } },
      { method: 'POST', path: '/fund/workpapers/release', body: { fundRequestId: acted.id, released: true } },
      { method: 'POST', path: '/fund/reviewall', body: { id: acted.id } },
      { method: 'POST', path: '/fund/set-aggreg-force-run', body: { id: fund.id, value: true } },
      { method: 'POST', path: '/pbi-inputs/save', body: () => pbiInputForm() },
      { method: 'POST', path: '/mappings/create', body: () => customMappingForm('openapi_created') },
      { method: 'POST', path: '/mappings/assign', body: () => ({ fundRequestId: acted.id, mappingId: answers['/mappings/create'].id }) },
      { method: 'POST', path: '/mappings/remove', body: () => ({ fundRequestId: acted.id, mappingId: answers['/mappings/create'].id }) },
      { method: 'POST', path: '/mappings/assign-bulk', body: () => ({ fundRequestIds: [acted.id], mappingId: answers['/mappings/create'].id }) },
      {
        method: 'POST',
        path: '/mappings/remove-bulk',
        body: () => ({ fundMappingPairs: [{ fundRequestId: acted.id, mappingId: answers['/mappings/create'].id }] }),
      },
      { method: 'POST', path: '/mappings/delete', body: () => ({ id: answers['/mappings/create'].id }) },
      { method: 'POST', path: '/mappings/delete-selected-custom-mappings', body: { ids: [spare.id] } },
      {
        method: 'POST',
        path: '/fund/triggerdbpush',
        before: () => Object.assign(ctx.config, { isDbPushEnabled: true }),
        body: { fundId: acted.id },
      },
      { method: 'POST', path: '/administrators', body: { code: 'openapi_new_tpa', name: 'OpenAPI New TPA', region: 'US' } },
      {
        method: 'DELETE',
        path: '/reference/fx-rates/:file',
        url: '/reference/fx-rates/spare-rates.csv',
        before: () => writeFileSync(join(fxDir(ctx), 'spare-rates.csv'), 'rate_date,currency,units_per_usd\n2024-12-31,GBP,0.79\n'),
      },
      { method: 'GET', path: '/sdm-upload/check-name', url: '/sdm-upload/check-name?code=openapi_new_tpa' },
      { method: 'POST', path: '/filter', body: { title: 'Open funds', filter: [{ field: 'status', type: 'enum', value: ['Approved'] }] } },
      { method: 'POST', path: '/filter/delete', body: () => ({ id: answers['/filter'].id }) },
      // the demo steps last: demo mode turns off the view switch above
      ...(['step', 'fund-request', 'files', 'reset'] as const).map((step) => ({
        method: 'POST' as const,
        path: `/demo/${step}`,
        before: async () => {
          Object.assign(ctx.config, { demo: true });
          if (step === 'step') await insertAdministrator(ctx, 'demo_test');
        },
        body: { codes: ['demo_test'], tests: ['2'] },
      })),
    ];
    // the sign-in flows (one-time tokens, signing out) are exercised by their own tests
    const signIn = ['/sso/redeemToken', '/sso/logout'];
    // GETs that need a query are called above too
    const withQuery = ['/sdm-upload/check-name'];
    const declared = allRoutes.filter(
      (r) => r.response && (r.method !== 'GET' || r.path.includes(':') || withQuery.includes(r.path)) && !signIn.includes(r.path) && !isUploadOrLocalRoute(r),
    );
    expect(declared.map((r) => `${r.method} ${r.path}`).sort()).toEqual(calls.map((c) => `${c.method} ${c.path}`).sort());
    for (const call of calls) {
      const route = allRoutes.find((r) => r.path === call.path && r.method === call.method)!;
      expect(route.response, `${call.method} ${call.path} declares a response`).toBeDefined();
      const url = fullPath(route).replace(route.path, (typeof call.url === 'function' ? call.url() : call.url) ?? route.path);
      await call.before?.();
      const body = typeof call.body === 'function' ? call.body() : call.body;
      const res =
        call.method === 'GET'
          ? await api.get(url, token)
          : call.method === 'DELETE' || body instanceof FormData
            ? await api.call(call.method, url, { token, body })
            : await api.post(url, body, token);
      expect(res.status, `${call.path}: ${JSON.stringify(res.body.errors)}`).toBe(200);
      answers[call.path] = res.body.payload;
      const parsed = route.response!.safeParse(res.body.payload);
      expect(parsed.success, `${call.path}: ${parsed.error?.message}`).toBe(true);
      if (Array.isArray(res.body.payload?.rows)) expect(res.body.payload.rows.length, `${call.path} returns rows`).toBeGreaterThan(0);
      if (Array.isArray(res.body.payload?.errors)) expect(res.body.payload.errors.length, `${call.path} finds the duplicate`).toBeGreaterThan(0);
    }
    // routes without path parameters, read after the calls above left processes, exports and audit entries
    const seededLists = ['/mappings', '/processes', '/dev-tools/audit-log', '/dev-tools/fx-rates', '/dev-tools/users'];
    const plainGets = allRoutes.filter(
      (r) => r.response && r.method === 'GET' && !r.path.includes(':') && !withQuery.includes(r.path) && !isUploadOrLocalRoute(r),
    );
    expect(plainGets.length).toBeGreaterThan(2);
    for (const r of plainGets) {
      const res = await api.get(fullPath(r), token);
      expect(res.status, fullPath(r)).toBe(200);
      const parsed = r.response!.safeParse(res.body.payload);
      expect(parsed.success, `${fullPath(r)}: ${parsed.error?.message}`).toBe(true);
      if (seededLists.includes(r.path)) expect(res.body.payload.length, `${r.path} lists the seeded data`).toBeGreaterThan(0);
    }
  });

  it('rejects a payload whose field was renamed', async () => {
    const listing = allRoutes.find((r) => r.path === '/funds/listing')!.response!;
    const pagination = { offset: 0, limit: 10, count: 0, countCapped: false, next: null, previous: null };
    const page = { rows: [], pagination };
    expect(listing.safeParse(page).success).toBe(true);
    const { count: _count, ...rest } = pagination;
    expect(listing.safeParse({ ...page, pagination: { ...rest, total: 0 } }).success).toBe(false);
  });
});
