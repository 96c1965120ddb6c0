import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { insertAdministrator, insertFund, insertFundFile, insertProcess } from '../testing/fund-factory.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
let auditor: string;
let fund: number;
const id: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
  const member = await addUser(ctx, { email: 'dtm@example.com', name: 'Dee Member', role: 'DeliveryTeamMember' });
  token = await sessionToken(ctx, member.id);
  id.member = member.id;
  auditor = await sessionToken(ctx, (await addUser(ctx, { email: 'aud@example.com', name: 'Au Ditor', role: 'Auditor' })).id);
  const tpa = await insertAdministrator(ctx, 'alpha', 'Alpha');
  fund = (await insertFund(ctx, { administratorId: tpa })).id;
  id.pending = await insertFundFile(ctx, fund, { fileType: 'holdings', status: 'pending', fileName: 'hold.csv' });
  id.tb = await insertFundFile(ctx, fund, { fileType: 'trial_balance', fileName: 'tb.csv' });
  id.tx = await insertFundFile(ctx, fund, { fileType: 'transactions', fileName: 'tx.csv' });
  id.wp = await insertFundFile(ctx, fund, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' });
  const { db, tables: t } = storeOf(ctx);
  const [unidentified] = await db
    .insert(t.unidentifiedFiles)
    .values({ fileName: 'u.csv', administratorId: tpa, errors: [] })
    .returning({ id: t.unidentifiedFiles.id });
  id.unidentified = unidentified!.id;
  const [unmatched] = await db
    .insert(t.unmatchedFiles)
    .values({ fileName: 'm.csv', fileType: 'holdings', fundCode: 'ZZ', administratorId: tpa })
    .returning({ id: t.unmatchedFiles.id });
  id.unmatched = unmatched!.id;
  await db.insert(t.sweptFiles).values({ originalFileName: 's.csv', administratorId: tpa, filePathOnMoveit: '/inbox/alpha/s.csv' });
  await db.insert(t.orchestrationLogs).values([
    { fundRequestId: fund, stage: 'standardization', status: 'error', payload: { error: 'No layout' }, createdAt: '2025-01-01T00:00:00.000Z' },
    { fundRequestId: fund, stage: 'calculations', status: 'success', payload: {}, createdAt: '2025-01-02T00:00:00.000Z' },
  ]);
  id.pendingProcess = await insertProcess(ctx, fund, 'calculations', 'pending');
  id.doneProcess = await insertProcess(ctx, fund, 'visualization', 'done');
  id.runningProcess = await insertProcess(ctx, fund, 'standardization', 'running');
});
afterAll(() => ctx.dispose());

describe('file, issue-list and log routes', () => {
  it.each([
    {
      name: 'review a pending file',
      path: 'file/review',
      body: () => ({ ids: [id.pending], reviewed: true }),
      status: 400,
      message: 'File hold.csv is still pending',
    },
    { name: 'review without ids', path: 'file/review', body: () => ({ reviewed: true }), status: 400, message: 'The request is not valid' },
    { name: 'review an unknown file', path: 'file/review', body: () => ({ ids: [9999], reviewed: true }), status: 404, message: 'No such file with id: 9999' },
    {
      name: 'review',
      path: 'file/review',
      body: () => ({ ids: [id.tb], reviewed: true, fundRequestId: fund }),
      status: 200,
      check: (p: any) => expect(p.files).toMatchObject([{ id: id.tb, reviewed: true, filename: 'tb.csv' }]),
    },
    { name: 'disable a reviewed file', path: 'file/disable', body: () => ({ ids: [id.tb], disabled: true }), status: 400, message: /File tb.csv is reviewed/ },
    {
      name: 'disable',
      path: 'file/disable',
      body: () => ({ ids: [id.tx], disabled: true }),
      status: 200,
      check: (p: any) => expect(p.queued).toMatchObject([{ fundRequestId: fund }]),
    },
    {
      name: 'reset a file type',
      path: 'fund/file/reset',
      body: () => ({ id: fund, fileType: 'trial_balance', forceReset: false }),
      status: 200,
      check: (p: any) => expect(p.files[0]).toMatchObject({ id: id.tb, status: 'pending', reviewed: false }),
    },
    {
      name: 'reset an unknown type',
      path: 'fund/file/reset',
      body: () => ({ id: fund, fileType: 'prices' }),
      status: 404,
      message: /^Fund request \d+ has no prices input file$/,
    },
    {
      name: 'release all',
      path: 'fund/workpapers/release',
      body: () => ({ fundRequestId: fund, released: true }),
      status: 200,
      check: (p: any) => expect(p).toMatchObject({ changed: 1, skipped: [], files: [{ id: id.wp, released: true }] }),
    },
    { name: 'remove a work paper', path: 'file/remove', body: () => ({ ids: [id.wp] }), status: 400, message: /only input files can be removed/ },
    { name: 'remove', path: 'file/remove', body: () => ({ ids: [id.pending] }), status: 200, check: (p: any) => expect(p.removed).toEqual([id.pending]) },
    {
      name: 'unidentified list',
      path: 'files/not-identified/list',
      body: () => ({ offset: 0 }),
      status: 200,
      check: (p: any) =>
        expect(p).toMatchObject({
          rows: [{ id: id.unidentified, file_name: 'u.csv', tpa: 'Alpha', action: 'Unidentified' }],
          pagination: { count: 1, limit: 200 },
        }),
    },
    {
      name: 'assign to unknown user',
      path: 'files/not-identified/assign',
      body: () => ({ ids: [id.unidentified], userId: 777 }),
      status: 404,
      message: 'No such user with id: 777',
    },
    {
      name: 'assign',
      path: 'files/not-identified/assign',
      body: () => ({ ids: [id.unidentified], userId: id.member }),
      status: 200,
      check: (p: any) => expect(p).toEqual({ ids: [id.unidentified], userId: id.member }),
    },
    {
      name: 'bad action',
      path: 'files/not-identified/action',
      body: () => ({ ids: [id.unidentified], action: 'Done' }),
      status: 400,
      message: 'The request is not valid',
    },
    { name: 'action', path: 'files/not-identified/action', body: () => ({ ids: [id.unidentified], action: 'Manually handled' }), status: 200 },
    {
      name: 'unmatched list (limit via pagination)',
      path: 'files/not-matched/list',
      body: () => ({ pagination: { limit: 10 } }),
      status: 200,
      check: (p: any) => expect(p).toMatchObject({ rows: [{ id: id.unmatched, file_type: 'holdings', fund_code: 'ZZ' }], pagination: { limit: 10 } }),
    },
    { name: 'unmatched assign', path: 'files/not-matched/assign', body: () => ({ ids: [id.unmatched], userId: id.member }), status: 200 },
    { name: 'unmatched action', path: 'files/not-matched/action', body: () => ({ ids: [id.unmatched], action: 'Closed' }), status: 200 },
    {
      name: 'unmatched remove',
      path: 'files/not-matched/remove',
      body: () => ({ ids: [id.unmatched] }),
      status: 200,
      check: (p: any) => expect(p).toEqual({ removed: [id.unmatched] }),
    },
    {
      name: 'unidentified remove of an unknown file',
      path: 'files/not-identified/remove',
      body: () => ({ ids: [id.unmatched + 50] }),
      status: 404,
      message: /^No such file with id: \d+$/,
    },
    {
      name: 'swept files',
      path: 'files/sweeper/logs/list',
      body: () => ({}),
      status: 200,
      check: (p: any) => expect(p.rows).toMatchObject([{ original_file_name: 's.csv', tpa: 'Alpha' }]),
    },
    {
      name: 'orchestration logs',
      path: 'logs/orchestration',
      body: () => ({ id: fund }),
      status: 200,
      check: (p: any) => expect(p.rows.map((r: any) => r.stage)).toEqual(['calculations', 'standardization']),
    },
    {
      name: 'orchestration logs of unknown fund',
      path: 'logs/orchestration',
      body: () => ({ id: 999 }),
      status: 404,
      message: 'No such fund request with id: 999',
    },
    {
      name: 'error log',
      path: 'logs/errors',
      body: () => ({ id: fund }),
      status: 200,
      check: (p: any) => expect(p.rows).toMatchObject([{ stage: 'standardization', message: 'No layout', payload: { error: 'No layout' } }]),
    },
  ])('$name -> $status', async ({ path, body, status, message, check }) => {
    const res = await api.post(path, body(), token);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(status === 200);
    if (status === 200) {
      expect(res.body.errors).toEqual([]);
      check?.(res.body.payload);
    } else {
      expect(res.body.payload).toBeNull();
      expect(res.body.message).toMatch(message!);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it("the trail holds the member's file actions with before/after", async () => {
    const { db, tables: t } = storeOf(ctx);
    const entries = await db.select().from(t.trail).where(eq(t.trail.fundRequestId, fund)).orderBy(asc(t.trail.id));
    expect(entries.map((e) => e.action)).toEqual(['file-review', 'file-disable', 'file-reset', 'work-paper-release', 'file-remove']);
    expect(entries.every((e) => e.userId === id.member)).toBe(true);
    expect(entries[0]).toMatchObject({ before: { id: id.tb, reviewed: false }, after: { id: id.tb, reviewed: true } });
    expect(await db.select().from(t.fundFiles).where(eq(t.fundFiles.id, id.pending))).toEqual([]);
  });

  it('refuses an auditor (delivery group)', async () => {
    const res = await api.post('file/review', { ids: [id.tb], reviewed: false }, auditor);
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
  });
});

describe('process routes', () => {
  it.each([
    {
      name: 'cancel a pending process',
      path: 'fund/process/cancel',
      body: () => ({ id: id.pendingProcess, filters: {} }),
      status: 200,
      check: (p: any) => expect(p).toMatchObject({ id: id.pendingProcess, status: 'suspended', fund_request_id: fund }),
    },
    {
      name: 'cancel it again',
      path: 'fund/process/cancel',
      body: () => ({ id: id.pendingProcess }),
      status: 400,
      message: /only pending or running processes can be cancelled/,
    },
    {
      name: 'reset a finished process',
      path: 'fund/process/reset',
      body: () => ({ id: id.doneProcess }),
      status: 400,
      message: /is done; only pending or running processes can be reset/,
    },
    {
      name: 'reset a running process',
      path: 'fund/process/reset',
      body: () => ({ id: id.runningProcess }),
      status: 200,
      check: (p: any) => expect(p).toMatchObject({ id: id.runningProcess, status: 'pending', force_run: true }),
    },
    { name: 'reset an unknown process', path: 'fund/process/reset', body: () => ({ id: 9999 }), status: 404, message: 'No such process with id: 9999' },
    { name: 'cancel without id', path: 'fund/process/cancel', body: () => ({}), status: 400, message: 'The request is not valid' },
    {
      name: 'processes of a fund',
      path: 'logs/processes',
      body: () => ({ id: fund, offset: 0 }),
      status: 200,
      check: (p: any) => expect(p.pagination.count).toBeGreaterThanOrEqual(3),
    },
    { name: 'processes of an unknown fund', path: 'logs/processes', body: () => ({ id: 999 }), status: 404, message: 'No such fund request with id: 999' },
  ])('$name -> $status', async ({ path, body, status, message, check }) => {
    const res = await api.post(path, body(), token);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(status === 200);
    if (status === 200) check?.(res.body.payload);
    else expect(res.body.message).toMatch(message!);
  });

  it('GET /processes lists pending and running work; the trail records the process actions', async () => {
    const res = await api.get('processes', token);
    expect(res.status).toBe(200);
    const ids = res.body.payload.map((p: any) => p.id);
    // the running process was reset (queued again), the pending one cancelled, the done one left alone
    expect(ids).toContain(id.runningProcess);
    expect(ids).not.toContain(id.pendingProcess);
    expect(ids).not.toContain(id.doneProcess);
    const { db, tables: t } = storeOf(ctx);
    const [reset] = await db.select().from(t.processes).where(eq(t.processes.id, id.runningProcess));
    expect(reset?.status).toBe('pending');
    const actions = (await db.select().from(t.trail).where(eq(t.trail.fundRequestId, fund)).orderBy(asc(t.trail.id))).filter((e) =>
      e.action.startsWith('process-'),
    );
    expect(actions.map((a) => [a.action, (a.before as any).status, (a.after as any).status])).toEqual([
      ['process-cancel', 'pending', 'suspended'],
      ['process-reset', 'running', 'pending'],
    ]);
  });
});
