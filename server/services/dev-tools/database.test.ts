import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { administrators, fundRequests, mappings, processes, referenceData, savedFilters, users } from '../../db/schema/index.js';
import { ConflictError, ValidationError } from '../../errors.js';
import { createTestContext, sessionToken, type TestContext, errorOf } from '../../testing/context.js';
import { verifyToken } from '../auth/tokens.js';
import { insertFund, insertProcess } from '../../testing/fund-factory.js';
import { addUser } from '../users/users.js';
import { clearDatabase, dropTables, forceMasterMappings, populateAdministrators, populateDatabase, resetDatabase } from './database.js';

let ctx: TestContext;
beforeEach(async () => {
  // a first start with demo data: three TPAs, their master mappings, four real fund requests
  ctx = await createTestContext({ devToolsEnabled: true, devToolsLocal: true });
});
afterEach(() => ctx.dispose());

const count = (table: typeof fundRequests | typeof administrators | typeof mappings | typeof users) => ctx.db.select().from(table).all().length;
const keystone = () => ctx.db.select().from(administrators).where(eq(administrators.code, 'keystone_admin')).get()!;

describe('clear', () => {
  it('removes the audit work and keeps users, TPAs and master mappings', async () => {
    const admin = keystone();
    ctx.db
      .insert(mappings)
      .values({ administratorId: admin.id, type: 'account_mapping', kind: 'custom', description: 'my_custom', rows: [], sha256: 'x' })
      .run();
    ctx.db.insert(savedFilters).values({ title: 'Mine', filter: {}, userId: ctx.boot.admin.id }).run();
    const masters = ctx.db.select().from(mappings).where(eq(mappings.kind, 'master')).all().length;
    expect(count(fundRequests)).toBe(4);

    const { removed } = await clearDatabase(ctx, ctx.boot.admin);
    expect(removed).toMatchObject({ fund_requests: 4, custom_mappings: 1, saved_filters: 1 });
    expect(count(fundRequests)).toBe(0);
    expect(
      ctx.db
        .select()
        .from(mappings)
        .all()
        .map((m) => m.kind),
    ).toEqual(Array(masters).fill('master'));
    expect(count(administrators)).toBe(3);
    expect(
      ctx.db
        .select()
        .from(savedFilters)
        .all()
        .map((f) => f.id),
    ).toEqual([1, 2, 3]);
    expect(count(users)).toBe(1);
  });

  it('is refused while a process is running, saying what runs', async () => {
    const fund = await insertFund(ctx);
    await insertProcess(ctx, fund.id, 'standardization', 'running');
    const err = await errorOf<Error & { errors?: unknown[] }>(() => clearDatabase(ctx, ctx.boot.admin));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe('Cannot clear the database now: 1 process is running');
    expect(count(fundRequests)).toBe(5);
  });
});

describe('populate, reset and administrators', () => {
  it('adds only the missing demo data and says why the rest was skipped', async () => {
    const again = await populateDatabase(ctx, ctx.boot.admin);
    expect(again).toMatchObject({ administrators: [], masterMappings: 0, fundRequests: 0, skipped: 4 });
    expect(again.skippedReason).toMatch(/same unique identifier|exists/i);
    await clearDatabase(ctx, ctx.boot.admin);
    const refilled = await populateDatabase(ctx, ctx.boot.admin);
    expect(refilled.fundRequests).toBe(4);
    expect(count(fundRequests)).toBe(4);
  });

  it('reset removes TPAs and their mappings too, then loads the demo data again', async () => {
    ctx.db.update(administrators).set({ name: 'Renamed' }).where(eq(administrators.code, 'keystone_admin')).run();
    await insertFund(ctx);
    const { removed, populated } = await resetDatabase(ctx, ctx.boot.admin);
    expect(removed.administrators).toBe(3);
    expect(populated.administrators).toEqual(['demo_test', 'keystone_admin', 'meridian_fund_services']);
    expect(keystone().name).toBe('Keystone Administration');
    expect(count(fundRequests)).toBe(4);
  });

  it('adds the shipped TPAs of one region and refuses an unknown region', async () => {
    const empty = await createTestContext({ seedDemoData: false });
    try {
      expect(await populateAdministrators(empty, 'amer')).toEqual({ region: 'AMER', administrators: ['keystone_admin', 'meridian_fund_services'] });
      expect((await populateAdministrators(empty, 'EMEA')).administrators).toEqual(['demo_test']);
      expect((await populateAdministrators(empty, 'APAC')).administrators).toEqual([]);
      const err = await errorOf<Error & { errors?: unknown[] }>(() => populateAdministrators(empty, 'Mars'));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.errors).toEqual(['Regions are EMEA (EMEIA), AMER (Americas), APAC (Asia-Pacific)']);
    } finally {
      await empty.dispose();
    }
  });
});

describe('force master mappings', () => {
  it('puts the shipped master mapping back and reruns the live funds of that TPA', async () => {
    const admin = keystone();
    const master = ctx.db
      .select()
      .from(mappings)
      .where(and(eq(mappings.administratorId, admin.id), eq(mappings.type, 'account_mapping'), eq(mappings.kind, 'master')))
      .get()!;
    ctx.db
      .update(mappings)
      .set({ rows: [{ source_code: 'X', target_code: 'CASH' }], sha256: 'edited' })
      .where(eq(mappings.id, master.id))
      .run();
    const before = ctx.db.select().from(processes).all().length;

    const { administrators: result } = await forceMasterMappings(ctx, ctx.boot.admin);
    const entry = result.find((r) => r.administrator === 'keystone_admin')!;
    expect(entry.changed).toEqual(['account_mapping']);
    expect(entry.loaded.length).toBeGreaterThan(1);
    expect(ctx.db.select().from(mappings).where(eq(mappings.id, master.id)).get()!.sha256).toBe(master.sha256);
    const keystoneFunds = ctx.db.select().from(fundRequests).where(eq(fundRequests.administratorId, admin.id)).all().length;
    const queued = ctx.db.select().from(processes).all().slice(before);
    expect(queued.length).toBe(keystoneFunds);
    expect(queued.every((p) => p.stage === 'standardization' && p.status === 'pending')).toBe(true);
    expect(result.filter((r) => r.administrator !== 'keystone_admin').every((r) => r.changed.length === 0)).toBe(true);
  });
});

describe('drop tables', () => {
  it('rebuilds an empty schema and brings the caller back with a new session; old tokens end', async () => {
    const dev = await addUser(ctx, { email: 'dev@example.com', name: 'Dev Eloper', role: 'Root' });
    const old = await sessionToken(ctx, dev.id);
    const result = await dropTables(ctx, dev);
    expect(result.dropped).toEqual(expect.arrayContaining(['fund_requests', 'users', 'tokens', '__drizzle_migrations']));
    expect(result.schemaVersion).toBe(ctx.schemaVersion);
    expect(count(fundRequests)).toBe(0);
    expect(count(administrators)).toBe(0);
    expect(ctx.db.select().from(referenceData).all().length).toBeGreaterThan(100);
    expect(
      ctx.db
        .select()
        .from(savedFilters)
        .all()
        .map((f) => f.id),
    ).toEqual([1, 2, 3]);
    expect(
      ctx.db
        .select()
        .from(users)
        .all()
        .map((u) => [u.email, u.role]),
    ).toEqual([
      ['dev@example.com', 'Root'],
      ['admin@fund-audit.local', 'Admin'],
    ]);
    await expect(verifyToken(ctx, old, ['session'])).rejects.toThrow('The token is not valid');
    expect((await verifyToken(ctx, result.token, ['session'])).user.email).toBe('dev@example.com');
    // the rebuilt database takes new work
    await insertFund(ctx);
    expect(count(fundRequests)).toBe(1);
  });
});
