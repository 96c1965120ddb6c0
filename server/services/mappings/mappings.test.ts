import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { duplicateMappingMessage } from '../../../rules/messages.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { createTestContext, errorOf, type TestContext } from '../../testing/context.js';
import type { User } from '../auth/tokens.js';
import { insertAdministrator, insertFund } from '../../testing/fund-factory.js';
import { effectiveMappings } from './store.js';
import { assignMapping, removeMappings } from './assignments.js';
import { createMapping, deleteMappings, listMappings, listMappingsFor, mappingTypesForFund } from './mappings.js';

const INSTRUMENTS = 'source_code,target_code,description\nCASH,CASH_EQUIVALENT,Cash at bank\nEQ,EQUITY,Shares\n';
const csv = (text: string) => Buffer.from(text);

/** A TPA with a master instrument mapping and two custom ones (created by the administrator of the test context). */
async function setUp(ctx: TestContext) {
  await insertAdministrator(ctx, 'acme_admin', 'Acme Administration');
  const upload = (input: { mappingMode: 'master' | 'custom'; mappingName?: string; clientName?: string; rationale?: string }) =>
    createMapping(ctx, ctx.boot.admin, {
      administrator: 'acme_admin',
      mappingType: 'instrument_mapping',
      fileName: 'instrument_mapping.csv',
      bytes: csv(INSTRUMENTS),
      ...input,
    });
  const master = await upload({ mappingMode: 'master' });
  const custom = await upload({ mappingMode: 'custom', mappingName: 'acme_bonds', clientName: 'Acme Client', rationale: 'bonds as debt' });
  const spare = await upload({ mappingMode: 'custom', mappingName: 'acme_spare', rationale: 'not used' });
  return { master, custom, spare };
}

/** A user of another role, as stored. */
async function insertUser(ctx: TestContext, email: string, role: User['role']): Promise<User> {
  const { db, tables: t } = storeOf(ctx);
  const [user] = await db.insert(t.users).values({ email, username: email, firstName: 'Ann', lastName: 'Other', role, originalRole: role }).returning();
  return user;
}

describeEachDialect('live mappings', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  it('creates custom mappings at version 1 under the name rules, refusing a name taken', async () => {
    const { master, custom } = await setUp(ctx);
    expect(master).toMatchObject({ kind: 'master', description: 'acme_admin_instrument_mapping', version: 1 });
    expect(custom).toMatchObject({ kind: 'custom', description: 'acme_bonds', clientName: 'Acme Client', rationale: 'bonds as debt', version: 1 });
    const again = await errorOf<ValidationError>(() =>
      createMapping(ctx, ctx.boot.admin, {
        administrator: 'acme_admin',
        mappingType: 'instrument_mapping',
        mappingMode: 'custom',
        mappingName: 'acme_bonds',
        rationale: 'again',
        fileName: 'x.csv',
        bytes: csv(INSTRUMENTS),
      }),
    );
    expect(again.message).toBe(duplicateMappingMessage('acme_bonds'));
    // the creator or a delivery team member may change a custom mapping, an auditor who did not create it may not
    const auditor = await insertUser(ctx, 'auditor@example.com', 'Auditor');
    const update = { administrator: 'acme_admin', mappingType: 'instrument_mapping', mappingMode: 'update-custom' as const, customId: custom.id };
    expect(await errorOf(() => createMapping(ctx, auditor, { ...update, fileName: 'x.csv', bytes: csv(INSTRUMENTS) }))).toBeInstanceOf(ForbiddenError);
    const toggles = await listMappingsFor(ctx, auditor);
    expect(toggles.map((m) => [m.description, m.canToggle])).toEqual([
      ['acme_bonds', false],
      ['acme_spare', false],
      ['acme_admin_instrument_mapping', false],
    ]);
  });

  it('lists which funds each mapping feeds and which block deleting it; deletes only free custom mappings', async () => {
    const { master, custom, spare } = await setUp(ctx);
    const adminId = master.administratorId;
    const withCustom = await insertFund(ctx, { administratorId: adminId, fundCode: 'ACME1' });
    const plain = await insertFund(ctx, { administratorId: adminId, fundCode: 'ACME2' });
    await insertFund(ctx, { administratorId: adminId, fundCode: 'ACME3', status: 'Deleted' });
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.fundMappings).values({ fundRequestId: withCustom.id, mappingId: custom.id });
    const list = await listMappings(ctx, { administrator: 'acme_admin' });
    const byName = Object.fromEntries(list.map((m) => [m.description, m]));
    expect(byName.acme_admin_instrument_mapping).toMatchObject({ canLiveMappingBeDeleted: false, fundRequests: [], funds: [{ id: plain.id, code: 'ACME2' }] });
    expect(byName.acme_bonds).toMatchObject({
      canLiveMappingBeDeleted: false,
      fundRequests: [{ id: withCustom.id, code: 'ACME1' }],
      owner: 'Fund Audit Administrator',
    });
    expect(byName.acme_spare).toMatchObject({ canLiveMappingBeDeleted: true, fundRequests: [], rowCount: 2 });
    const types = await mappingTypesForFund(ctx, withCustom.id);
    expect(types.find((x) => x.type === 'instrument_mapping')?.inUse).toBe(custom.id);
    expect((await mappingTypesForFund(ctx, plain.id)).find((x) => x.type === 'instrument_mapping')?.inUse).toBe(master.id);
    // what the pipeline applies: the assigned custom mapping of a type, else the master
    expect((await effectiveMappings(ctx, withCustom.id)).used.instrument_mapping).toMatchObject({ id: custom.id, kind: 'custom', version: 1 });
    expect((await effectiveMappings(ctx, plain.id)).used.instrument_mapping).toMatchObject({ id: master.id, kind: 'master', version: 1 });
    expect((await effectiveMappings(ctx, plain.id)).codeMaps.instrument_mapping).toBeDefined();

    const refused = await errorOf<ValidationError>(() => deleteMappings(ctx, ctx.boot.admin, [master.id, custom.id]));
    expect(refused.errors).toEqual([
      'acme_bonds is used by fund request(s) ACME1',
      'acme_admin_instrument_mapping is a master mapping; master mappings cannot be deleted',
    ]);
    expect(await deleteMappings(ctx, ctx.boot.admin, [spare.id])).toEqual({ deleted: [spare.id] });
    expect((await listMappings(ctx)).map((m) => m.description)).not.toContain('acme_spare');
    const [entry] = await db
      .select()
      .from(t.auditLog)
      .where(and(eq(t.auditLog.action, 'mapping-deleted'), eq(t.auditLog.subject, `mappings:${spare.id}`)));
    expect(entry).toBeDefined();
  });
});

describeEachDialect('assigning custom mappings to funds', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  it('replaces the custom mapping of the same type, records it in the trail and reruns the fund; removing counts what was there', async () => {
    const { master, custom, spare } = await setUp(ctx);
    const fund = await insertFund(ctx, { administratorId: master.administratorId, fundCode: 'ACME1' });
    const other = await insertAdministrator(ctx, 'other_admin');
    const stranger = await insertFund(ctx, { administratorId: other, fundCode: 'OTHER1' });
    expect((await errorOf<ValidationError>(() => assignMapping(ctx, ctx.boot.admin, { fundRequestIds: [stranger.id], mappingId: custom.id }))).message).toBe(
      `Fund request(s) ${stranger.id} belong to another administrator than mapping acme_bonds`,
    );
    await assignMapping(ctx, ctx.boot.admin, { fundRequestIds: [fund.id], mappingId: custom.id });
    await assignMapping(ctx, ctx.boot.admin, { fundRequestIds: [fund.id], mappingId: spare.id });
    const { db, tables: t } = storeOf(ctx);
    expect(await db.select({ m: t.fundMappings.mappingId }).from(t.fundMappings).where(eq(t.fundMappings.fundRequestId, fund.id))).toEqual([{ m: spare.id }]);
    const trail = await db
      .select()
      .from(t.trail)
      .where(and(eq(t.trail.fundRequestId, fund.id), eq(t.trail.action, 'mapping-assign')));
    expect(trail.map((x) => [x.before, x.after])).toEqual([
      [{ mappings: [] }, { mappings: ['acme_bonds'] }],
      [{ mappings: ['acme_bonds'] }, { mappings: ['acme_spare'] }],
    ]);
    const queued = await db
      .select()
      .from(t.processes)
      .where(and(eq(t.processes.fundRequestId, fund.id), eq(t.processes.stage, 'standardization')));
    expect(queued.map((p) => [p.status, p.forceRun])).toEqual([['pending', true]]);
    const pair = { fundRequestId: fund.id, mappingId: spare.id };
    expect(await removeMappings(ctx, ctx.boot.admin, [pair])).toEqual({ removed: 1 });
    expect(await removeMappings(ctx, ctx.boot.admin, [pair])).toEqual({ removed: 0 });
  });
});
