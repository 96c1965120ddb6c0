/**
 * The first start with demo data on both databases: the shipped TPAs, their master mappings, the
 * real fund requests of fixtures/fund-requests/real-funds.csv and the demo deliveries marked due;
 * a later start finds the administrator and adds nothing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { bootstrap } from './bootstrap.js';
import { storeOf } from './db/dialect.js';
import { describeEachDialect } from './testing/dialects.js';
import { createTestContext, type TestContext } from './testing/context.js';

describeEachDialect('first start with demo data', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: true });
  });
  afterEach(() => ctx.dispose());

  it('loads the shipped TPAs, mappings and fund requests once, and marks the demo deliveries due', async () => {
    const { db, tables: t } = storeOf(ctx);
    const counts = async () => ({
      administrators: (await db.select().from(t.administrators)).map((a) => a.code).sort(),
      masterMappings: (await db.select().from(t.mappings)).filter((m) => m.kind === 'master').length,
      fundRequests: (await db.select().from(t.fundRequests)).length,
      users: (await db.select().from(t.users)).length,
    });
    expect(ctx.boot).toMatchObject({ adminCreated: true, demoSeeded: true });
    const first = await counts();
    expect(first).toMatchObject({ administrators: ['demo_test', 'keystone_admin', 'meridian_fund_services'], fundRequests: 4, users: 1 });
    expect(first.masterMappings).toBeGreaterThan(0);
    expect((await db.select().from(t.settings)).find((s) => s.key === 'demoDeliveriesDue')?.value).toBe(true);
    expect(await bootstrap(ctx)).toMatchObject({ adminCreated: false, demoSeeded: false });
    expect(await counts()).toEqual(first);
  });
});
