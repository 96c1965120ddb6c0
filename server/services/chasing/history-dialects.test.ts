import { afterAll, beforeAll, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { insertAdministrator, insertFund } from '../../testing/fund-factory.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { chaseEvents, recordChaseEvent } from './history.js';

describeEachDialect('chase history', (dialect) => {
  let ctx: TestContext;
  let adminA: number;
  let adminB: number;

  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    adminA = await insertAdministrator(ctx, 'hist_a');
    adminB = await insertAdministrator(ctx, 'hist_b');
  });
  afterAll(() => ctx.dispose());

  async function chase(administratorId: number, client: string) {
    const fund = await insertFund(ctx, { administratorId, client });
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db
      .insert(t.chases)
      .values({ fundRequestId: fund.id, administratorId, client, reason: 'missing_files', key: 'missing_files', evidence: {}, recipients: [] })
      .returning();
    return row!;
  }

  it('returns every state change in time order, filtered by window, TPA and client', async () => {
    const a = await chase(adminA, 'Client X');
    const b = await chase(adminB, 'Client Y');
    await recordChaseEvent(ctx, a, 'scheduled', { at: '2026-01-02T08:00:00.000Z' });
    await recordChaseEvent(ctx, b, 'scheduled', { at: '2026-01-03T08:00:00.000Z' });
    await recordChaseEvent(ctx, a, 'sent', { at: '2026-01-05T08:00:00.000Z', note: 'reminder 1' });
    await recordChaseEvent(ctx, a, 'resolved', { at: '2026-02-01T09:30:00.000Z', actor: { id: 1, email: 'admin@fund-audit.local' } });

    const all = await chaseEvents(ctx);
    expect(all.map((e) => [e.chaseId, e.state])).toEqual([
      [a.id, 'scheduled'],
      [b.id, 'scheduled'],
      [a.id, 'sent'],
      [a.id, 'resolved'],
    ]);
    expect(all[3]).toMatchObject({ fundRequestId: a.fundRequestId, reason: 'missing_files', actor: 'admin@fund-audit.local', administratorId: adminA });
    expect(all[2]).toMatchObject({ actor: 'system', note: 'reminder 1' });

    const january = await chaseEvents(ctx, { from: '2026-01-01', to: '2026-02-01' });
    expect(january.map((e) => e.state)).toEqual(['scheduled', 'scheduled', 'sent']);
    expect((await chaseEvents(ctx, { administratorId: adminB })).map((e) => e.chaseId)).toEqual([b.id]);
    expect((await chaseEvents(ctx, { client: 'Client X' })).map((e) => e.state)).toEqual(['scheduled', 'sent', 'resolved']);
  });
});
