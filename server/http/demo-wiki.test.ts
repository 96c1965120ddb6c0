import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { storeOf } from '../db/dialect.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing.js';

let ctx: TestContext;
afterEach(() => ctx?.dispose());
const demoBody = { codes: ['demo_test'], tests: ['2'] };

describe('demo mode', () => {
  it('is refused when demo mode is off', async () => {
    ctx = await createTestContext();
    const res = await apiClient(ctx).post('demo/fund-request', demoBody, await sessionToken(ctx, ctx.boot.admin.id));
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toBe('Demo mode is off on this server');
  });

  it('runs the three steps: fund request, input files through the pipeline, reset', async () => {
    ctx = await createTestContext({ demo: true });
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    expect((await api.post('demo/step', {}, token)).body.payload.step).toBe(1);
    expect((await api.post('demo/files', demoBody, token)).body.errors[0]).toBe('Create the demo fund request first');
    const s1 = await api.post('demo/fund-request', demoBody, token);
    expect(s1.status).toBe(200);
    expect(s1.body.payload).toMatchObject({ step: 2, fundRequestDemo: [{ userId: ctx.boot.admin.id, email: 'admin@fund-audit.local' }] });
    const fundId = s1.body.payload.fundRequestDemo[0].fundRequestId;
    expect((await api.get(`fund/${fundId}`, token)).body.payload).toMatchObject({
      name: 'Kentucky Tax-Free Short-to-Medium Series',
      administrator: { code: 'demo_test' },
    });
    const s2 = await api.post('demo/files', demoBody, token);
    expect(s2.body.payload.step).toBe(3);
    const { db, tables: t } = storeOf(ctx);
    const imports = await db
      .select({ fileName: t.importFiles.fileName })
      .from(t.importFiles)
      .where(eq(t.importFiles.source, 'demo'))
      .orderBy(asc(t.importFiles.fileName));
    expect(imports.map((r) => r.fileName)).toEqual(['demo_holdings.csv', 'demo_share_capital.csv', 'demo_trial_balance.csv']);
    const pending = await db
      .select({ n: count() })
      .from(t.processes)
      .where(and(eq(t.processes.stage, 'identification'), eq(t.processes.status, 'pending')));
    expect(pending).toEqual([{ n: 3 }]);
    const s3 = await api.post('demo/reset', demoBody, token);
    expect(s3.body.payload).toEqual({ step: 1, fundRequestDemo: [], loading: false });
    expect((await api.get(`fund/${fundId}`, token)).status).toBe(404);
  });
});

describe('wiki', () => {
  it('serves the default sections and the operator-edited file, naming a broken one', async () => {
    ctx = await createTestContext();
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const first = await api.get('wiki-data', token);
    expect(first.body.payload.sections.map((s: any) => s.title)).toEqual(['Getting started', 'Data delivery']);
    writeFileSync(
      join(ctx.dir, 'wiki.json'),
      JSON.stringify({ sections: [{ title: 'Team', items: [{ type: 'mail', title: 'Audit desk', email: 'desk@example.com' }] }] }),
    );
    expect((await api.get('wiki-data', token)).body.payload).toEqual({
      sections: [{ title: 'Team', items: [{ type: 'mail', title: 'Audit desk', email: 'desk@example.com' }] }],
      dataSandbox: [],
      sampleOutputs: [],
    });
    writeFileSync(join(ctx.dir, 'wiki.json'), '{"sections": [{"items": []}]}');
    const bad = await api.get('wiki-data', token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^sections\.0\.title: /);
  });
});
