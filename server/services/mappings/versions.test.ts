import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseMappingCsv } from '../../../pipeline/mappings/parse.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { createTestContext, errorOf, type TestContext } from '../../testing/context.js';
import { insertAdministrator, insertFund } from '../../testing/fund-factory.js';
import { upsertMasterMapping } from './store.js';
import { diffMappingVersions, mappingHistory, mappingVersion, recordMappingUses } from './versions.js';

const V1 = 'source_code,target_code,description\nCASH,CASH_EQUIVALENT,Cash at bank\nEQ,EQUITY,Shares\nBOND,DEBT,Bonds\n';
const V2 =
  'source_code,target_code,description\nCASH,CASH_EQUIVALENT,Cash at bank\nEQ,EQUITY,Listed shares\nLOAN,LOAN,Loans\nMM,CASH_EQUIVALENT,Money market\n';
const rowsOf = (csv: string) => parseMappingCsv('instrument_mapping', 'instrument_mapping.csv', Buffer.from(csv)).rows;

describeEachDialect('mapping versions', (dialect) => {
  let ctx: TestContext;
  let adminId: number;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    adminId = await insertAdministrator(ctx, 'acme_admin', 'Acme Administration');
  });
  afterEach(() => ctx.dispose());

  const upsert = (csv: string, reason: string) =>
    upsertMasterMapping(ctx, {
      administratorId: adminId,
      adminCode: 'acme_admin',
      type: 'instrument_mapping',
      rows: rowsOf(csv),
      userId: ctx.boot.admin.id,
      reason,
      fileName: 'instrument_mapping.csv',
    });

  it('adds a version per changed content only, and lists them newest first with author, reason and row count', async () => {
    const first = await upsert(V1, 'first delivery');
    expect(first).toMatchObject({ changed: true, mapping: { version: 1, description: 'acme_admin_instrument_mapping', kind: 'master' } });
    expect(await upsert(V1, 'same again')).toMatchObject({ changed: false, mapping: { id: first.mapping.id, version: 1 } });
    const second = await upsert(V2, 'loans are loans');
    expect(second).toMatchObject({ changed: true, mapping: { id: first.mapping.id, version: 2 } });
    const history = await mappingHistory(ctx, first.mapping.id);
    expect(history).toMatchObject({ description: 'acme_admin_instrument_mapping', currentVersion: 2, administrator: { code: 'acme_admin' } });
    expect(history.versions.map((v) => [v.version, v.rowCount, v.reason, v.author, v.fileName, v.current])).toEqual([
      [2, 4, 'loans are loans', 'Fund Audit Administrator', 'instrument_mapping.csv', true],
      [1, 3, 'first delivery', 'Fund Audit Administrator', 'instrument_mapping.csv', false],
    ]);
    expect(history.versions[0].createdAt >= history.versions[1].createdAt).toBe(true);
    expect((await mappingVersion(ctx, first.mapping.id, 1)).rows).toEqual(rowsOf(V1));
    const diff = await diffMappingVersions(ctx, first.mapping.id, 1, 2);
    expect(diff.added.map((a) => a.key).sort()).toEqual(['loan', 'mm']);
    expect(diff.removed.map((r) => r.key)).toEqual(['bond']);
    expect(diff.changed.map((c) => [c.key, c.columns])).toEqual([['eq', ['description']]]);
    expect(diff.unchanged).toBe(1);
  });

  it('names a missing mapping or version', async () => {
    const { mapping } = await upsert(V1, 'first delivery');
    const missing = await errorOf(() => mappingVersion(ctx, mapping.id, 3));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe(`Mapping acme_admin_instrument_mapping (id ${mapping.id}) has no version 3; it has versions 1 to 1`);
    expect(await errorOf(() => mappingHistory(ctx, mapping.id + 100))).toBeInstanceOf(NotFoundError);
    expect((await errorOf(() => mappingHistory(ctx, 0))).message).toBe("Mapping ids are positive whole numbers, not '0'");
    expect(await errorOf(() => mappingVersion(ctx, mapping.id, 1.5))).toBeInstanceOf(ValidationError);
  });

  it('records each fund a version fed once, moving its last use, and the history names the fund', async () => {
    const { mapping } = await upsert(V1, 'first delivery');
    const fund = await insertFund(ctx, { administratorId: adminId, fundCode: 'ACME1', name: 'Acme Income Fund' });
    const used = { id: mapping.id, kind: 'master' as const, description: mapping.description, version: 1, sha256: mapping.sha256 };
    await recordMappingUses(ctx, fund.id, [used]);
    const { db, tables: t } = storeOf(ctx);
    const [firstUse] = await db.select().from(t.mappingVersionUses).where(eq(t.mappingVersionUses.fundRequestId, fund.id));
    await new Promise((r) => setTimeout(r, 5));
    await recordMappingUses(ctx, fund.id, [used, { ...used, version: 7 }]);
    const uses = await db.select().from(t.mappingVersionUses).where(eq(t.mappingVersionUses.fundRequestId, fund.id));
    expect(uses).toHaveLength(1);
    expect(uses[0].lastUsedAt > firstUse.lastUsedAt).toBe(true);
    await upsert(V2, 'loans are loans');
    const history = await mappingHistory(ctx, mapping.id);
    expect(history.versions.map((v) => [v.version, v.funds.map((f) => [f.id, f.code, f.name])])).toEqual([
      [2, []],
      [1, [[fund.id, 'ACME1', 'Acme Income Fund']]],
    ]);
  });

  it('writes a new version in the transaction of its caller: rolled back with it, mapping and version alike', async () => {
    const { mapping } = await upsert(V1, 'first delivery');
    await expect(
      transaction(ctx, async () => {
        await upsert(V2, 'never kept');
        throw new Error('the change this belonged to failed');
      }),
    ).rejects.toThrow('the change this belonged to failed');
    const history = await mappingHistory(ctx, mapping.id);
    expect(history.currentVersion).toBe(1);
    expect(history.versions.map((v) => v.version)).toEqual([1]);
    expect((await upsert(V1, 'same again')).changed).toBe(false);
  });
});
