/** `POST /fund/reviewall`, `/fund/set-aggreg-force-run` and `/fund/triggerdbpush` over HTTP: statuses and bodies the page relies on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFundFile, insertMeridianBondFund } from '../testing/fund-factory.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
let fundId: number;

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
  fundId = (await insertMeridianBondFund(ctx)).id;
  await insertFundFile(ctx, fundId, { kind: 'work_paper', fileType: 'work_papers', status: 'done', fileName: 'wp.xlsx' });
});
afterAll(() => ctx.dispose());

describe('fund details actions over HTTP', () => {
  it('reviews all work papers, then answers 400 when none is left to review', async () => {
    const first = await api.post('fund/reviewall', { id: fundId }, token);
    expect(first.status).toBe(200);
    expect(first.body.payload.files.map((f: { filename: string; reviewed: boolean }) => [f.filename, f.reviewed])).toEqual([['wp.xlsx', true]]);
    const again = await api.post('fund/reviewall', { id: fundId }, token);
    expect(again.status).toBe(400);
    expect(again.body.errors.join(' ')).toMatch(/No work papers to review/);
    expect((await api.post('fund/reviewall', { id: 987_654 }, token)).status).toBe(404);
  });

  it('sets the forced aggregation rerun flag, which the fund details then show', async () => {
    const res = await api.post('fund/set-aggreg-force-run', { id: fundId, value: true }, token);
    expect(res.body.payload).toEqual({ id: fundId, aggreg_force_run: true });
    expect((await api.get(`fund/${fundId}`, token)).body.payload.aggreg_force_run).toBe(true);
    expect((await api.post('fund/set-aggreg-force-run', { id: fundId }, token)).status).toBe(400);
  });

  it("answers 409 'not enabled' for a Db push on a server without isDbPushEnabled (not 403, which would sign the user out of the page)", async () => {
    const res = await api.post('fund/triggerdbpush', { fundId }, token);
    expect(res.status).toBe(409);
    expect(res.body.errors.join(' ')).toMatch(/Db push is not enabled/);
  });
});
