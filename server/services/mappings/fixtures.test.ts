import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addShippedAdministrators } from '../setup/prepare.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { forceFixtureMasterMappings } from './fixtures.js';
import { masterMappings, seedFixtureMappings, upsertMasterMapping } from './store.js';
import { mappingHistory } from './versions.js';

describeEachDialect('shipped master mappings', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    await addShippedAdministrators(ctx);
  });
  afterEach(() => ctx.dispose());

  it('are loaded for shipped TPAs without mappings, and reloading them changes only what differs', async () => {
    expect(await seedFixtureMappings(ctx)).toBe(15);
    expect(await seedFixtureMappings(ctx)).toBe(0);
    const unchanged = await forceFixtureMasterMappings(ctx, ctx.boot.admin);
    expect(unchanged.map((e) => [e.administrator, e.loaded.length, e.changed])).toEqual([
      ['demo_test', 5, []],
      ['keystone_admin', 5, []],
      ['meridian_fund_services', 5, []],
    ]);
    const { db, tables: t } = storeOf(ctx);
    const [keystone] = await db.select().from(t.administrators).where(eq(t.administrators.code, 'keystone_admin'));
    const instruments = (await masterMappings(ctx, keystone.id)).instrument_mapping!;
    await upsertMasterMapping(ctx, {
      administratorId: instruments.administratorId,
      adminCode: 'keystone_admin',
      type: 'instrument_mapping',
      rows: instruments.rows.slice(1),
      userId: ctx.boot.admin.id,
      reason: 'one row dropped',
    });
    const reloaded = await forceFixtureMasterMappings(ctx, ctx.boot.admin);
    expect(reloaded.map((e) => [e.administrator, e.changed])).toEqual([
      ['demo_test', []],
      ['keystone_admin', ['instrument_mapping']],
      ['meridian_fund_services', []],
    ]);
    const history = await mappingHistory(ctx, instruments.id);
    expect(history.versions.map((v) => [v.version, v.reason])).toEqual([
      [3, 'shipped mapping reloaded'],
      [2, 'one row dropped'],
      [1, 'shipped demo mapping'],
    ]);
    expect(history.versions[0].sha256).toBe(history.versions[2].sha256);
  });
});
