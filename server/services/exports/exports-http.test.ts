import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../jobs/engine.js';
import { issueToken } from '../auth/tokens.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../../testing/context.js';
import { addUser, ensureAdmin } from '../users/users.js';
import { exportStageHandler } from '../../jobs/exports/job.js';
import { saveZip, seedExportFund, zipNames } from '../../testing/export-fund.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let adminToken: string;
let auditorToken: string;
let auditorId: number;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
  adminToken = await sessionToken(ctx, (await ensureAdmin(ctx, ctx.config.adminEmail)).user.id);
  auditorId = (await addUser(ctx, { email: 'aud@example.com', name: 'Ada Auditor', role: 'Auditor' })).id;
  auditorToken = await sessionToken(ctx, auditorId);
});
afterEach(() => ctx.dispose());

const download = (id: number, token?: string) =>
  api.app.fetch(new Request(`http://test.local/api/v2.0/export/file/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`));
const downloadToken = async (token: string) => (await api.get('export/token', token)).body.payload.token as string;

describe('export routes', () => {
  it('queues with the success message, lists, refuses unready downloads, then serves the zip', async () => {
    const f = await seedExportFund(ctx);
    const queued = await api.post(
      'export/files',
      { fundRequests: [f.id], fundRequestStages: ['visualization', 'calculations'], excludeDisabledVisualizations: false, reviewedVisualizationsOnly: false },
      auditorToken,
    );
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ success: true, message: 'Successfully added to Queue.', payload: { status: 'pending', user: 'Ada Auditor' } });
    const id = queued.body.payload.id as number;
    const list = await api.post('export/files/list', { offset: 0 }, auditorToken);
    expect(list.body.payload.rows.map((r: any) => [r.id, r.status])).toEqual([[id, 'pending']]);
    expect(list.body.payload.rows[0].payload.fund_requests[f.id]).toEqual({
      name: 'Fund LUX01',
      fundCode: 'LUX01',
      client: 'Client, "Quoted"',
      administrator: 'Exports TPA',
    });

    const early = await download(id, await downloadToken(auditorToken));
    expect(early.status).toBe(400);
    expect((await early.json()).errors).toEqual(['The export is not ready yet (status: pending)']);

    await new Engine(ctx, { export: exportStageHandler }).drain();
    const res = await download(id, await downloadToken(auditorToken));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="fund_export_${id}_\\d{8}\\.zip"$`));
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const zip = saveZip(mkdtempSync(join(tmpdir(), 'fa-export-')), bytes);
    expect(zipNames(zip)).toEqual([`${f.prefix}_work_papers.xlsx`, `${f.prefix}_calculations.csv`, `${f.prefix}_logs.csv`, `${f.prefix}_errors.csv`]);
    expect((await api.post('export/files/list', {}, adminToken)).body.payload.rows[0]).toMatchObject({ id, status: 'done', user_auth_id: auditorId });
  });

  it('downloads need a download token in ?token=: missing, expired or a session token -> 401', async () => {
    const f = await seedExportFund(ctx);
    const id = (await api.post('export/files', { fundRequests: [f.id], fundRequestStages: ['calculations'] }, adminToken)).body.payload.id;
    await new Engine(ctx, { export: exportStageHandler }).drain();
    const missing = await download(id);
    expect(missing.status).toBe(401);
    expect((await missing.json()).errors[0]).toMatch(/Download token missing/);
    expect((await download(id, adminToken)).status).toBe(401);
    const expired = (await issueToken(ctx, (await ensureAdmin(ctx, ctx.config.adminEmail)).user.id, 'download', -1)).token;
    const res = await download(id, expired);
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0]).toBe('The token has expired');
    expect((await download(id, await downloadToken(adminToken))).status).toBe(200);
    // the auditor cannot fetch an export that is not theirs
    expect((await download(id, await downloadToken(auditorToken))).status).toBe(404);
  });

  it('validates requests and keeps delete-old at 90 days or more', async () => {
    const bad = await api.post('export/files', { fundRequests: [999], fundRequestStages: ['calculations'] }, adminToken);
    expect([bad.status, bad.body.errors]).toEqual([400, ['No such fund request with id: 999']]);
    const stage = await api.post('export/files', { fundRequests: [1], fundRequestStages: ['nope'] }, adminToken);
    expect(stage.status).toBe(400);
    expect((await api.post('export/files/delete-old', { days: 30 }, adminToken)).status).toBe(400);
    const del = await api.post('export/files/delete-old', {}, auditorToken);
    expect([del.status, del.body.payload]).toEqual([200, { deleted: 0 }]);
    expect((await api.post('export/files/list', {}, null)).status).toBe(401);
  });
});
