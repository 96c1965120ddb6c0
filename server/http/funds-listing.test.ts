import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../services/users/users.js';
import { UNCHANGED_WARNING } from '../services/funds/actions.js';
import { daysFromToday, insertAdministrator, insertFund } from '../testing/fund-factory.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let admin: string;
let auditor: string;
const f: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
  admin = await sessionToken(ctx, ctx.boot.admin.id);
  auditor = await sessionToken(ctx, (await addUser(ctx, { email: 'aud@example.com', name: 'Au Ditor', role: 'Auditor' })).id);
  const tpa = await insertAdministrator(ctx, 'alpha', 'Alpha');
  f.pending = (await insertFund(ctx, { name: 'Pending One', administratorId: tpa, dueDate: daysFromToday(-5), requestDate: '2025-01-02' })).id;
  f.open = (
    await insertFund(ctx, {
      name: 'Open One',
      status: 'Approved',
      administratorId: tpa,
      dueDate: daysFromToday(-4),
      requestDate: '2025-01-01',
      alternateCodes: ['ZZ9'],
    })
  ).id;
  f.paused = (await insertFund(ctx, { name: 'Paused One', status: 'Paused', dueDate: daysFromToday(3), requestDate: '2024-12-01' })).id;
});
afterAll(() => ctx.dispose());

describe('fund listing and actions over HTTP', () => {
  it.each([
    {
      name: 'listing page',
      path: 'funds/listing',
      body: { pagination: { limit: 2 } },
      status: 200,
      check: (p: any) => expect(p.pagination).toMatchObject({ offset: 0, limit: 2, count: 3, countCapped: false, previous: null }),
    },
    {
      name: 'exact count',
      path: 'funds/listing/count',
      body: { search: 'one' },
      status: 200,
      check: (p: any) => expect(p).toEqual({ count: 3 }),
    },

    {
      name: 'search by alternate code',
      path: 'funds/listing',
      body: { search: 'zz9' },
      status: 200,
      check: (p: any) => expect(p.rows.map((r: any) => r.name)).toEqual(['Open One']),
    },
    {
      name: 'saved filter',
      path: 'funds/listing',
      body: { filterId: 1 },
      status: 200,
      check: (p: any) => expect(p.rows.map((r: any) => r.name)).toEqual(['Pending One']),
    },
    {
      name: 'unknown filter field',
      path: 'funds/listing',
      body: { filters: [{ field: 'colour', type: 'text', value: 'x' }] },
      status: 400,
      message: 'Unknown filter field: colour',
    },
    { name: 'limit too large', path: 'funds/listing', body: { pagination: { limit: 5000 } }, status: 400, message: 'The request is not valid' },
    { name: 'unknown saved filter', path: 'funds/listing', body: { filterId: 999 }, status: 404, message: 'No such filter with id: 999' },
    { name: 'a cursor that is not one', path: 'funds/listing', body: { cursor: 'nope' }, status: 400, message: 'The page cursor is not valid' },
    { name: 'action without ids', path: 'fund/approve', body: {}, status: 400, message: 'The request is not valid' },
    { name: 'action on unknown fund', path: 'fund/approve', body: { ids: [777] }, status: 404, message: 'No such fund request with id: 777' },
    {
      name: 'bad data-requested status',
      path: 'fund/changeDataRequestedStatus',
      body: { ids: [1], status: 'Maybe' },
      status: 400,
      message: 'The request is not valid',
    },
    { name: 'trail of unknown fund', path: 'logs/trail', body: { id: 777 }, status: 404, message: 'No such fund request with id: 777' },
  ])('$name -> $status', async ({ path, body, status, message, check }) => {
    const res = await api.post(path, body, admin);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(status === 200);
    if (message) expect(res.body.message).toBe(message);
    if (check) check(res.body.payload);
  });

  it('approves with the envelope, marks unchanged funds and writes a trail the log shows', async () => {
    const res = await api.post('fund/approve', { ids: [f.pending, f.open], requestedBy: 'Dee Livery' }, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      errors: [],
      payload: {
        funds: [
          { id: f.pending, status: 'Approved', statusLabel: 'Open', isStatusUnChanged: false },
          { id: f.open, status: 'Approved', statusLabel: 'Open', isStatusUnChanged: true },
        ],
        warning: UNCHANGED_WARNING,
      },
    });
    const log = await api.post('logs/trail', { id: f.pending }, admin);
    expect(log.status).toBe(200);
    expect(log.body.payload.pagination).toEqual({ offset: 0, limit: 200, count: 1 });
    expect(log.body.payload.rows).toMatchObject([
      { user: 'Fund Audit Administrator', userId: ctx.boot.admin.id, action: 'approve', before: { status: 'Pending' }, after: { status: 'Approved' } },
    ]);
    const filtered = await api.post('logs/trail', { id: f.pending, filters: [{ field: 'action', type: 'enum', value: ['remove'] }] }, admin);
    expect(filtered.body.payload.rows).toEqual([]);
  });

  it('lets an auditor close only open funds and refuses delivery-only calls', async () => {
    const res = await api.post('fund/close', { ids: [f.paused], requestedBy: 'Auditor' }, auditor);
    expect(res.status).toBe(200);
    expect(res.body.payload.funds[0]).toMatchObject({ status: 'Paused', isStatusUnChanged: true });
    expect((await api.post('fund/decline', { ids: [f.open] }, auditor)).status).toBe(403);
    expect((await api.post('funds/listing', {}, auditor)).status).toBe(403);
  });

  it('saves and deletes filters with success messages', async () => {
    const saved = await api.post('filter', { title: 'Alpha', filter: [{ field: 'administrator', type: 'enum', value: ['Alpha'] }] }, admin);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ success: true, message: 'filter saved', payload: { id: 1000, title: 'Alpha', fixed: false } });
    expect((await api.post('filter', { title: ' ', filter: [] }, admin)).body.message).toBe('A filter name must not be empty');
    const list = await api.get('filters', admin);
    expect(list.body.payload.map((x: any) => x.id)).toEqual([1, 2, 3, 1000]);
    const fixed = await api.post('filter/delete', { id: 1 }, admin);
    expect(fixed.status).toBe(409);
    expect(fixed.body.message).toBe('Built-in filters cannot be deleted');
    const del = await api.post('filter/delete', { id: 1000 }, admin);
    expect(del.body).toMatchObject({ success: true, message: 'filter deleted', payload: { id: 1000 } });
    expect((await api.post('filter/delete', { id: 1000 }, admin)).status).toBe(404);
  });

  it('exports the listing as an xlsx download', async () => {
    const res = await api.app.fetch(
      new Request('http://t/api/v2.0/funds/export-all', {
        method: 'POST',
        headers: { 'x-access-token': admin, 'content-type': 'application/json' },
        body: JSON.stringify({ search: 'one', sorting: [{ field: 'name', order: 'asc' }] }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="fundrequests.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    expect(wb.worksheets[0].rowCount).toBe(4);
    const bad = await api.post('funds/export-all', { filters: [{ field: 'nope', type: 'text', value: 'x' }] }, admin);
    expect(bad.status).toBe(400);
  });

  it('serves the auditor listing, listing by TPA and the status report', async () => {
    const page = await api.get('user/funds/0/2', auditor);
    expect(page.status).toBe(200);
    expect(page.body.payload.pagination).toMatchObject({ offset: 0, limit: 2, count: 3, countCapped: false, previous: null });
    expect(page.body.payload.rows.map((r: any) => r.name)).toEqual(['Paused One', 'Open One']);
    const next = await api.get(`user/funds/2/2?cursor=${encodeURIComponent(page.body.payload.pagination.next)}`, auditor);
    expect(next.body.payload.rows.map((r: any) => r.name)).toEqual(['Pending One']);
    expect(next.body.payload.pagination).toMatchObject({ offset: 2, next: null, previous: expect.any(String) });
    expect((await api.get('user/funds/count', auditor)).body.payload).toEqual({ count: 3 });
    const sorted = await api.get('user/funds/0/5?sort=name&order=asc', auditor);
    expect(sorted.body.payload.rows.map((r: any) => r.name)).toEqual(['Open One', 'Paused One', 'Pending One']);
    expect((await api.get('user/funds/-1/5', auditor)).status).toBe(400);
    expect((await api.get('user/funds/0/5?sort=colour', auditor)).status).toBe(400);
    const byTpa = await api.post('user/fundsByTpa', { offset: 0, limit: 10, tpa: 'alpha' }, auditor);
    expect(byTpa.body.payload.rows.map((r: any) => r.name).sort()).toEqual(['Open One', 'Pending One']);
    expect((await api.post('user/fundsByTpa', { offset: 0, limit: 10, tpa: 'nobody' }, auditor)).status).toBe(404);
    const report = await api.get('user/status-report', auditor);
    expect(report.status).toBe(200);
    expect(report.body.payload).toMatchObject({ totalFunds: { count: 3 }, activeFunds: { count: 2 }, lateFunds: { count: 2 }, onTimeFunds: { count: 0 } });
    expect(
      (
        await api.get(
          'user/status-report',
          await sessionToken(ctx, (await addUser(ctx, { email: 'dtm@example.com', name: 'D T', role: 'DeliveryTeamMember' })).id),
        )
      ).status,
    ).toBe(403);
  });
});
