import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPgContext } from './context-pg.js';
import { createPgTestDatabase, describePg, openDialectDatabase, type DialectDatabase } from './testing/dialects.js';
import { storeOf } from './db/dialect.js';

describePg('a context on PostgreSQL', () => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase('postgres');
  });
  afterEach(() => database.dispose());

  it('gives dialect-neutral services the PostgreSQL database, migrated', async () => {
    const { ctx } = database;
    expect(storeOf(ctx).dialect).toBe('postgres');
    expect(ctx.schemaVersion).toBeGreaterThanOrEqual(2);
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.administrators).values({ code: 'keystone', name: 'Keystone Fund Services' });
    expect(await db.select({ code: t.administrators.code, selfOnboarded: t.administrators.selfOnboarded }).from(t.administrators)).toEqual([
      { code: 'keystone', selfOnboarded: false },
    ]);
  });

  it('refuses the SQLite handles of services not converted yet, naming the call', () => {
    const { ctx } = database;
    expect(() => ctx.db.select()).toThrow(
      'ctx.db.select is SQLite only and this context is on PostgreSQL: the calling service is not dialect-neutral yet (storeOf(ctx))',
    );
    expect(() => ctx.sqlite.prepare('select 1')).toThrow('ctx.sqlite.prepare is SQLite only');
  });

  it('is not opened on a database that does not exist', async () => {
    const gone = await createPgTestDatabase();
    await gone.drop();
    await expect(createPgContext({ config: database.ctx.config, url: gone.url, terminalLog: false })).rejects.toThrow(/does not exist/);
  });
});
