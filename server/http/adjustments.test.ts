import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { insertFund } from '../testing/fund-factory.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
let fundId: number;

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  fundId = (await insertFund(ctx, { status: 'Approved', currency: 'USD' })).id;
});
afterAll(() => ctx.dispose());

const distribution = {
  type: 'distributions',
  description: 'Final distribution for the period',
  bookedByTpa: false,
  lines: [
    { account: 'DISTRIBUTABLE_EARNINGS', target: 'tb_balance', amount: 125_000.5 },
    { account: '20500', target: 'tb_balance', amount: -125_000.5, description: 'Distribution payable' },
  ],
};

describe('/fund/{id}/adjustments over HTTP', () => {
  it('adds, lists, changes and deletes an adjustment; bad fields come back as 400 naming them', async () => {
    const added = await api.post(`fund/${fundId}/adjustments`, distribution, token);
    expect(added.status).toBe(200);
    expect(added.body.message).toBe('Adjustment added');
    expect(added.body.payload).toMatchObject({ fundRequestId: fundId, type: 'distributions', bookedByTpa: false, lines: distribution.lines });
    const id = added.body.payload.id as number;

    const bad = await api.post(`fund/${fundId}/adjustments/${id}`, { ...distribution, lines: [distribution.lines[0]] }, token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      success: false,
      message: 'The adjustment is not valid',
      errors: [{ column: 'lines', message: 'Distributions is a double entry: it needs at least two trial balance lines (a debit and a credit)' }],
    });
    const shape = await api.post(`fund/${fundId}/adjustments`, { ...distribution, lines: [{ account: 'X', target: 'tb_balance', amount: '12' }] }, token);
    expect(shape.status).toBe(400);
    expect(shape.body.errors[0]).toMatch(/^body\.lines\.0\.amount: /);

    const saved = await api.post(`fund/${fundId}/adjustments/${id}`, { ...distribution, bookedByTpa: true }, token);
    expect(saved.body.payload.bookedByTpa).toBe(true);
    const list = await api.get(`fund/${fundId}/adjustments`, token);
    expect(list.body.payload.map((a: { id: number; bookedByTpa: boolean }) => [a.id, a.bookedByTpa])).toEqual([[id, true]]);

    const rerun = await api.post(`fund/${fundId}/adjustments/rerun`, { rerun: 'adjustments' }, token);
    expect(rerun.body).toMatchObject({ message: 'Recalculation queued', payload: { rerun: 'adjustments', adjustments: 1, booked: 1 } });
    const { db, tables: t } = storeOf(ctx);
    const [process] = await db.select().from(t.processes).where(eq(t.processes.id, rerun.body.payload.processId));
    expect(process?.stage).toBe('calculations');

    const gone = await api.call('DELETE', `fund/${fundId}/adjustments/${id}`, { token });
    expect(gone.body.payload).toEqual({ id, deleted: true });
    expect((await api.call('DELETE', `fund/${fundId}/adjustments/${id}`, { token })).status).toBe(404);
    expect((await api.get(`fund/999999/adjustments`, token)).body.errors).toEqual(['No such fund request with id: 999999']);
    const rows = await db.select({ action: t.trail.action }).from(t.trail).where(eq(t.trail.fundRequestId, fundId)).orderBy(asc(t.trail.id));
    expect(rows.map((r) => r.action)).toEqual(['adjustment-create', 'adjustment-update', 'rerun-adjustments', 'adjustment-delete']);
  });

  it('is for the delivery team: an auditor is refused', async () => {
    const auditor = await addUser(ctx, { email: 'auditor@example.com', name: 'Ada Auditor', role: 'Auditor' });
    const res = await api.post(`fund/${fundId}/adjustments`, distribution, await sessionToken(ctx, auditor.id));
    expect(res.status).toBe(403);
  });
});
