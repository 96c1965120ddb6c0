import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { insertAdministrator, insertFund, insertFundFile } from '../testing/fund-factory.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let admin: string;
let client: string;
let stranger: string;
let adminId: number;
let fundId: number;

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
  admin = await sessionToken(ctx, ctx.boot.admin.id);
  const { db, tables: t } = storeOf(ctx);
  const [tpaUser, other] = await db
    .insert(t.users)
    .values([
      { email: 'ops@tpa.example.com', username: 'ops', role: 'Client', originalRole: 'Client' },
      { email: 'other@elsewhere.example.com', username: 'other', role: 'Client', originalRole: 'Client' },
    ])
    .returning();
  client = await sessionToken(ctx, tpaUser!.id);
  stranger = await sessionToken(ctx, other!.id);
  adminId = await insertAdministrator(ctx, 'http_tpa');
  fundId = (await insertFund(ctx, { administratorId: adminId, client: 'Http Client', status: 'Approved', dueDate: '2026-01-10' })).id;
});
afterAll(() => ctx.dispose());

describe('chasing API', () => {
  it('adds a TPA contact, and answers a bad address as a field error', async () => {
    const bad = await api.post('contacts', { administratorId: adminId, email: 'ops@', role: 'data' }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ column: 'email', message: "'ops@' is not an e-mail address (RFC 5322)" }]);
    const ok = await api.post('contacts', { administratorCode: 'http_tpa', full_name: 'TPA Ops', email: 'ops@tpa.example.com', role: 'data' }, admin);
    expect(ok.status).toBe(200);
    expect(ok.body.payload).toMatchObject({ administratorCode: 'http_tpa', email: 'ops@tpa.example.com' });
    // a Client user cannot manage contacts
    expect((await api.post('contacts', { administratorId: adminId, email: 'x@example.com' }, client)).status).toBe(403);
  });

  it("a reviewer's Return to TPA is a chase the TPA's contact sees, answers with a file, and which resolves when the new file is in", async () => {
    const file = await insertFundFile(ctx, fundId, { fileType: 'holdings', fileName: 'holdings-dec.csv' });
    const noReason = await api.post(`fund/${fundId}/return`, { fundFileId: file, reason: ' ' }, admin);
    expect(noReason.status).toBe(400);
    const returned = await api.post(`fund/${fundId}/return`, { fundFileId: file, reason: 'Prices are as of 30 Nov, not the period end' }, admin);
    expect(returned.status).toBe(200);
    const chaseId = returned.body.payload.id;
    expect(returned.body.payload).toMatchObject({ reason: 'returned', state: 'scheduled', evidence: { fileName: 'holdings-dec.csv', fileType: 'holdings' } });
    expect((await api.post(`fund/${fundId}/return`, { fundFileId: file, reason: 'again' }, admin)).status).toBe(409);

    const mine = await api.get(`chases/mine?fund=${fundId}`, client);
    expect(mine.body.payload.map((c: { id: number }) => c.id)).toEqual([chaseId]);
    expect((await api.get('chases/mine', stranger)).body.payload).toEqual([]);

    const form = new FormData();
    form.append('upload', new Blob(['security_id,quantity\nUS0000000001,10\n']), 'holdings-corrected.csv');
    // a chase not addressed to the user is not told to exist
    const refused = await api.call('POST', `chases/${chaseId}/answer`, { token: stranger, body: form });
    expect([refused.status, refused.body.errors]).toEqual([404, [`No chase with id: ${chaseId}`]]);
    expect((await api.get(`chases/${chaseId}/evidence.csv`, stranger)).status).toBe(404);
    const form2 = new FormData();
    form2.append('upload', new Blob(['security_id,quantity\nUS0000000001,10\n']), 'holdings-corrected.csv');
    const answered = await api.call('POST', `chases/${chaseId}/answer`, { token: client, body: form2 });
    expect(answered.status).toBe(200);
    expect(answered.body.payload.chase.state).toBe('answered');
    expect(answered.body.payload.chase.events.map((e: { state: string; note: string; actor: string }) => [e.state, e.note, e.actor])[0]).toEqual([
      'answered',
      'holdings-corrected.csv uploaded',
      'ops@tpa.example.com',
    ]);
    const { db, tables: t } = storeOf(ctx);
    expect((await db.select().from(t.importFiles)).map((f) => f.fileName)).toContain('holdings-corrected.csv');

    // the pipeline identified the new file for the fund: the next run resolves the chase
    await insertFundFile(ctx, fundId, { fileType: 'holdings', fileName: 'holdings-corrected.csv' });
    const run = await api.post('chase/run', { dryRun: true }, admin);
    expect(run.status).toBe(200);
    const { runChase } = await import('../services/chasing/run.js');
    await runChase(ctx, {});
    const after = await api.get(`fund/${fundId}/chases`, admin);
    const chase = after.body.payload.find((c: { id: number }) => c.id === chaseId);
    expect(chase.state).toBe('resolved');
    expect(chase.events.map((e: { state: string }) => e.state)).toEqual(['resolved', 'answered', 'scheduled']);
    expect(chase.fundFileId).toBe(file);
    // the answer's outcome stays on the TPA's list with recent=1 (after the open ones); without it only open chases are listed
    const ids = async (query: string) =>
      (await api.get(`chases/mine?fund=${fundId}${query}`, client)).body.payload.map((c: { id: number; state: string }) => [c.id, c.state]);
    expect(await ids('')).not.toContainEqual([chaseId, 'resolved']);
    expect((await ids('&recent=1')).at(-1)).toEqual([chaseId, 'resolved']);
  });

  it('refuses to return a file of a closed fund request, or a file marked not required, and lists who contacts belong to', async () => {
    const closed = (await insertFund(ctx, { administratorId: adminId, client: 'Http Client', status: 'Completed - Fund Closed' })).id;
    const file = await insertFundFile(ctx, closed, { fileType: 'trial_balance' });
    const refused = await api.post(`fund/${closed}/return`, { fundFileId: file, reason: 'Wrong period' }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatch(/^Only pending and open fund requests are chased; this one is /);
    const dropped = await insertFundFile(ctx, fundId, { fileType: 'share_capital', disabled: true });
    expect((await api.post(`fund/${fundId}/return`, { fundFileId: dropped, reason: 'Wrong period' }, admin)).body.errors).toEqual([
      'The file is marked not required',
    ]);
    const owners = await api.get('contacts/owners', admin);
    expect(owners.status).toBe(200);
    expect(owners.body.payload.administrators.find((a: { code: string }) => a.code === 'http_tpa')).toMatchObject({ contacts: 1, ownSchedule: false });
    expect(owners.body.payload.clients).toContainEqual({ name: 'Http Client', funds: 2, contacts: 0 });
    expect((await api.get('contacts/owners', client)).status).toBe(403);
  });
});
