/**
 * Demo mode over HTTP (auditor spec 2.2 "Demo side widget", section 7 `/demo/*`): the three steps,
 * and that steps 1 and 3 remove only what the demo created and nobody changed since: a user's
 * paused fund request, a request with delivered files and a demo request a user opened all stay.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { Engine } from '../jobs/engine.js';
import { allJobs } from '../jobs/stages/index.js';
import { fixturesDir } from '../paths.js';
import { importFile } from '../services/imports/imports.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
afterEach(() => ctx?.dispose());
const demoBody = { codes: ['demo_test'], tests: ['2'] };
const KENTUCKY = 'Kentucky Tax-Free Short-to-Medium Series';

async function demoContext() {
  ctx = await createTestContext({ demo: true });
  const api = apiClient(ctx);
  const token = await sessionToken(ctx, ctx.boot.admin.id);
  const { db, tables: t } = storeOf(ctx);
  /** Fund requests of the demo TPA: [id, name, status]. */
  const demoTpaFunds = async () =>
    (
      await db
        .select({ id: t.fundRequests.id, name: t.fundRequests.name, status: t.fundRequests.status })
        .from(t.fundRequests)
        .innerJoin(t.administrators, eq(t.administrators.id, t.fundRequests.administratorId))
        .where(eq(t.administrators.code, 'demo_test'))
        .orderBy(asc(t.fundRequests.id))
    ).map((f) => [f.id, f.name, f.status]);
  return { api, token, db, t, demoTpaFunds };
}

/** A user's own fund request of the demo TPA: the real AST Bond Portfolio row of real-funds.csv, uploaded for demo_test; its id. */
async function uploadUsersFund(api: ReturnType<typeof apiClient>, token: string): Promise<number> {
  const rows = parse(readFileSync(join(fixturesDir(), 'fund-requests', 'real-funds.csv')), { columns: true, bom: true }) as Array<Record<string, string>>;
  const ast = { ...rows.find((r) => r.fundName === 'AST Bond Portfolio 2022')!, tpa: 'demo_test' };
  const form = new FormData();
  form.append('upload', new Blob([stringify([ast], { header: true })]), 'my-funds.csv');
  const res = await api.call('POST', 'fund-request/bulk', { token, body: form });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload.saved[0].id;
}

describe('demo mode', () => {
  it('is refused when demo mode is off', async () => {
    ctx = await createTestContext();
    const res = await apiClient(ctx).post('demo/fund-request', demoBody, await sessionToken(ctx, ctx.boot.admin.id));
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toBe('Demo mode is off on this server');
  });

  it('runs the three steps (fund request, input files through the pipeline, reset) and can run them again', async () => {
    const { api, token, db, t, demoTpaFunds } = await demoContext();
    // the demo data's request of the demo TPA is the demo's own: step 1 says it would replace it
    const [[seededId]] = await demoTpaFunds();
    const s0 = (await api.post('demo/step', {}, token)).body.payload;
    expect(s0).toMatchObject({
      step: 1,
      cleanup: { fundRequests: [{ id: seededId, name: KENTUCKY, fund_code: 'S000012000' }], kept: [], otherFundRequests: 0 },
    });
    expect((await api.post('demo/files', demoBody, token)).body.errors[0]).toBe('Create the demo fund request first');

    const s1 = await api.post('demo/fund-request', demoBody, token);
    expect(s1.status).toBe(200);
    expect(s1.body.payload).toMatchObject({
      step: 2,
      fundRequestDemo: [{ userId: ctx.boot.admin.id, email: 'admin@fund-audit.local' }],
      removed: { fundRequests: [{ id: seededId, name: KENTUCKY }], importFiles: [] },
    });
    const fundId = s1.body.payload.fundRequestDemo[0].fundRequestId;
    expect((await api.get(`fund/${fundId}`, token)).body.payload).toMatchObject({ name: KENTUCKY, administrator: { code: 'demo_test' } });

    const s2 = await api.post('demo/files', demoBody, token);
    expect(s2.body.payload.step).toBe(3);
    const imports = await db
      .select({ fileName: t.importFiles.fileName })
      .from(t.importFiles)
      .where(eq(t.importFiles.source, 'demo'))
      .orderBy(asc(t.importFiles.fileName));
    expect(imports.map((r) => r.fileName)).toEqual(['demo_holdings.csv', 'demo_share_capital.csv', 'demo_trial_balance.csv']);
    await new Engine(ctx, allJobs).drain();
    expect((await api.get(`fund/${fundId}`, token)).body.payload.workPapers).toHaveLength(1);

    // the confirmation names what a reset takes: the demo request and the three demo files
    const before = (await api.post('demo/step', {}, token)).body.payload.cleanup;
    expect(before).toEqual({
      fundRequests: [{ id: fundId, name: KENTUCKY, fund_code: 'S000012000', status: 'Pending' }],
      importFiles: ['demo_holdings.csv', 'demo_share_capital.csv', 'demo_trial_balance.csv'],
      kept: [],
      otherFundRequests: 0,
    });
    const s3 = await api.post('demo/reset', demoBody, token);
    expect(s3.body.payload).toMatchObject({ step: 1, fundRequestDemo: [], loading: false, removed: before });
    expect((await api.get(`fund/${fundId}`, token)).status).toBe(404);
    expect(await db.select({ n: count() }).from(t.importFiles).where(eq(t.importFiles.source, 'demo'))).toEqual([{ n: 0 }]);

    // a second run delivers the files again through the pipeline (they are not duplicates of the removed ones)
    expect((await api.post('demo/fund-request', demoBody, token)).body.payload.removed.fundRequests).toEqual([]);
    await api.post('demo/files', demoBody, token);
    const pending = await db
      .select({ n: count() })
      .from(t.processes)
      .where(and(eq(t.processes.stage, 'identification'), eq(t.processes.status, 'pending')));
    expect(pending).toEqual([{ n: 3 }]);
  }, 60_000);

  it("keeps a user's paused fund request and a request with delivered files through both actions, and says why", async () => {
    const { api, token, db, t, demoTpaFunds } = await demoContext();
    const usersFund = await uploadUsersFund(api, token);
    for (const action of ['approve', 'pause']) expect((await api.post(`fund/${action}`, { ids: [usersFund], requestedBy: 'Auditor' }, token)).status).toBe(200);

    const s1 = (await api.post('demo/fund-request', demoBody, token)).body.payload;
    expect(s1.removed).toMatchObject({ fundRequests: [{ name: KENTUCKY }], kept: [], otherFundRequests: 1 });
    const demoFund = s1.fundRequestDemo[0].fundRequestId;

    // a TPA delivers a file for the demo's fund request (not through the demo)
    await importFile(ctx, {
      administratorCode: 'demo_test',
      fileName: 'holdings_2022-12-31.csv',
      bytes: readFileSync(join(fixturesDir(), 'tpas', 'demo_test', 'inputs', 'demo_holdings.csv')),
      userId: ctx.boot.admin.id,
      source: 'upload',
    });
    await new Engine(ctx, allJobs).drain();
    expect((await api.get(`fund/${demoFund}`, token)).body.payload.inputFiles.map((f: any) => f.filename)).toEqual(['holdings_2022-12-31.csv']);

    const plan = (await api.post('demo/step', {}, token)).body.payload.cleanup;
    expect(plan).toEqual({
      fundRequests: [],
      importFiles: [],
      kept: [{ id: demoFund, name: KENTUCKY, fund_code: 'S000012000', status: 'Pending', reason: '1 input file not from the demo delivered to it' }],
      otherFundRequests: 1,
    });
    const reset = (await api.post('demo/reset', demoBody, token)).body.payload;
    expect(reset.removed).toEqual(plan);
    expect(await demoTpaFunds()).toEqual([
      [usersFund, 'AST Bond Portfolio 2022', 'Paused'],
      [demoFund, KENTUCKY, 'Pending'],
    ]);

    // step 1 cannot make its request beside the one that stays: it says which and removes nothing
    const again = await api.post('demo/fund-request', demoBody, token);
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toBe(
      `The demo fund request cannot be created: ${KENTUCKY} (S000012000, id ${demoFund}) has the same fund code and period end, and it stays (1 input file not from the demo delivered to it). Delete it in the Funds Listing to run the demo again.`,
    );
    expect((await demoTpaFunds()).map(([id]) => id)).toEqual([usersFund, demoFund]);
    expect(
      await db
        .select({ n: count() })
        .from(t.fundFiles)
        .where(inArray(t.fundFiles.fundRequestId, [demoFund])),
    ).not.toEqual([{ n: 0 }]);
    expect((await api.post('demo/step', {}, token)).body.payload.step).toBe(1);
  }, 60_000);

  it('keeps a demo request a user changed, naming what they did', async () => {
    const { api, token, demoTpaFunds } = await demoContext();
    const s1 = (await api.post('demo/fund-request', demoBody, token)).body.payload;
    const demoFund = s1.fundRequestDemo[0].fundRequestId;
    await api.post('fund/approve', { ids: [demoFund], requestedBy: 'Auditor' }, token);
    const reset = (await api.post('demo/reset', demoBody, token)).body.payload;
    expect(reset.removed).toMatchObject({ fundRequests: [], kept: [{ id: demoFund, reason: 'changed since the demo created it (approve)' }] });
    expect(await demoTpaFunds()).toEqual([[demoFund, KENTUCKY, 'Approved']]);
  });
});
