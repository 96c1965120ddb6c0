/**
 * The developer tools' database actions, demo mode and readiness on both databases: the shipped
 * TPAs of a region, clear (rows counted per table, fixed filters and TPAs kept), the refusal while
 * work runs, drop tables (SQLite only), the demo's fund request and reset.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect } from '../../testing/dialects.js';
import { ConflictError, ValidationError } from '../../errors.js';
import { createTestContext, errorOf, type TestContext } from '../../testing/context.js';
import { demoFundRequest, demoReset, demoState } from '../demo/demo.js';
import { health } from '../health/health.js';
import { clearDatabase, dropTables, populateAdministrators } from './database.js';

describeEachDialect('developer tools database actions', (dialect) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
  });
  afterEach(() => ctx.dispose());

  it('adds the shipped TPAs of a region once, then clears the audit work keeping TPAs and fixed filters', async () => {
    expect(await populateAdministrators(ctx, 'amer')).toEqual({ region: 'AMER', administrators: ['keystone_admin', 'meridian_fund_services'] });
    expect((await populateAdministrators(ctx, 'AMER')).administrators).toEqual([]);
    expect((await errorOf(() => populateAdministrators(ctx, 'Mars'))).message).toBe("Unknown region 'Mars'");
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.savedFilters).values([
      { title: 'Mine', filter: {}, userId: ctx.boot.admin.id },
      { title: 'Also mine', filter: {}, userId: ctx.boot.admin.id },
    ]);
    await db.insert(t.processes).values({ stage: 'identification', status: 'done' });
    const { removed } = await clearDatabase(ctx, ctx.boot.admin);
    expect(removed).toMatchObject({ saved_filters: 2, processes: 1, fund_requests: 0, custom_mappings: 0 });
    expect((await db.select().from(t.savedFilters)).map((f) => f.id)).toEqual([1, 2, 3]);
    expect((await db.select().from(t.administrators)).map((a) => a.code).sort()).toEqual(['keystone_admin', 'meridian_fund_services']);
  });

  it('refuses to clear while a process runs, naming it', async () => {
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.processes).values({ stage: 'identification', status: 'running' });
    const err = await errorOf(() => clearDatabase(ctx, ctx.boot.admin));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe('Cannot clear the database now: 1 process is running');
  });

  it('drops the tables of a SQLite data directory only', async () => {
    if (dialect === 'sqlite') {
      const result = await dropTables(ctx, ctx.boot.admin);
      expect(result.dropped).toContain('users');
      return;
    }
    const err = await errorOf<ValidationError>(() => dropTables(ctx, ctx.boot.admin));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('Dropping the tables is available on a SQLite data directory only');
    expect(err.errors?.[0]).toMatch(/dropdb, createdb/);
  });

  it('starts the demo at step 1 and reports the schema as migrated', async () => {
    expect(await demoState(ctx)).toEqual({ step: 1, fundRequestDemo: [], loading: false });
    const answer = await health(ctx);
    expect(answer.checks.migrations).toEqual({ ok: true, schemaVersion: ctx.schemaVersion, expected: ctx.schemaVersion });
  });

  it('creates the demo fund request of the demo TPA and removes it at reset', async () => {
    Object.assign(ctx.config, { demo: true });
    expect((await errorOf(() => demoFundRequest(ctx, ctx.boot.admin, {}))).message).toBe(
      'The demo TPA demo_test does not exist; start the server with demo data',
    );
    await populateAdministrators(ctx, 'EMEA');
    const step2 = await demoFundRequest(ctx, ctx.boot.admin, { codes: ['demo_test'] });
    expect(step2).toMatchObject({ step: 2, loading: false, fundRequestDemo: [{ userId: ctx.boot.admin.id, email: 'admin@fund-audit.local' }] });
    const { cleanup: _c, removed: _r, ...stored } = step2;
    expect(await demoState(ctx)).toEqual(stored);
    const { db, tables: t } = storeOf(ctx);
    const funds = await db.select({ id: t.fundRequests.id }).from(t.fundRequests);
    expect(funds.map((f) => f.id)).toEqual([step2.fundRequestDemo[0]?.fundRequestId]);
    expect((await errorOf(() => demoFundRequest(ctx, ctx.boot.admin, {}))).message).toMatch(/^The demo fund request exists already/);
    expect(await demoReset(ctx, ctx.boot.admin, {})).toMatchObject({
      step: 1,
      loading: false,
      fundRequestDemo: [],
      removed: { fundRequests: [{ id: step2.fundRequestDemo[0]?.fundRequestId }], kept: [] },
    });
    expect(await db.select({ id: t.fundRequests.id }).from(t.fundRequests)).toEqual([]);
  });
});
