import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { storeOf } from '../../db/dialect.js';
import { answeredTwiceFromCache, describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { SERVICE_USER_DOMAIN } from '../users/users.js';
import { STATIC_LISTS } from './catalog/index.js';
import { getNrd, nrdJson, referenceIndex, seedReferenceData } from './reference-data.js';

const catalogueSize = Object.values(STATIC_LISTS).reduce((n, list) => n + list.length, 0);

describeEachDialect('reference data', (dialect) => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
  });
  afterEach(() => database.dispose());

  it('seeds the whole catalogue once, and marks an entry the catalogue no longer has deprecated, leaving it out of the options', async () => {
    const { ctx } = database;
    expect(await seedReferenceData(ctx)).toBe(catalogueSize);
    expect(await seedReferenceData(ctx)).toBe(0);
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.referenceData).values({ list: 'countries', code: 'YU', altCode: 'Yugoslavia', deprecated: false, sortOrder: 999 });
    await db
      .update(t.referenceData)
      .set({ altCode: 'Luxembourg (old label)' })
      .where(and(eq(t.referenceData.list, 'countries'), eq(t.referenceData.code, 'LU')));
    expect(await seedReferenceData(ctx)).toBe(2);
    const [yu] = await db
      .select()
      .from(t.referenceData)
      .where(and(eq(t.referenceData.list, 'countries'), eq(t.referenceData.code, 'YU')));
    expect(yu.deprecated).toBe(true);
    const nrd = await getNrd(ctx);
    // every list in catalogue order, deprecated entries left out
    for (const [name, list] of Object.entries(STATIC_LISTS))
      expect(
        nrd[name as keyof typeof nrd].map((e) => e.code),
        name,
      ).toEqual(list.filter((e) => !e.deprecated).map((e) => e.code));
    expect(nrd.countries.find((c) => c.code === 'LU')?.alt_code).toBe(STATIC_LISTS.countries.find((c) => c.code === 'LU')?.alt_code);
  });

  it('lists administrators by name and the people to pick by last name, without service or disabled users', async () => {
    const { ctx } = database;
    await seedReferenceData(ctx);
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.administrators).values([
      { code: 'zeta_admin', name: 'Zeta Services' },
      { code: 'alpha_admin', name: 'Alpha Fund Services' },
    ]);
    const person = (email: string, firstName: string, lastName: string, disabled = false) => ({
      email,
      username: email,
      firstName,
      lastName,
      role: 'Auditor' as const,
      originalRole: 'Auditor' as const,
      disabled,
    });
    await db
      .insert(t.users)
      .values([
        person('z@example.com', 'Zoe', 'Young'),
        person('a@example.com', 'Adam', 'Brown'),
        person('gone@example.com', 'Gone', 'Away', true),
        person(`sweeper@${SERVICE_USER_DOMAIN}`, 'Sweeper', 'Service'),
      ]);
    const nrd = await getNrd(ctx);
    expect(nrd.administrators.map((a) => [a.code, a.alt_code])).toEqual([
      ['alpha_admin', 'Alpha Fund Services'],
      ['zeta_admin', 'Zeta Services'],
    ]);
    expect(nrd.users.map((u) => u.alt_code)).toEqual(['Adam Brown', 'Zoe Young']);
  });

  it('answers the lists as JSON from the cache until an administrator, a user or an entry changes, then the change at once', async () => {
    const { ctx } = database;
    await seedReferenceData(ctx);
    const { db, tables: t } = storeOf(ctx);
    const first = await answeredTwiceFromCache(() => nrdJson(ctx));
    expect(JSON.parse(first.json)).toEqual(await getNrd(ctx));
    await db.insert(t.administrators).values({ code: 'gamma_admin', name: 'Gamma Administration' });
    const withAdmin = await nrdJson(ctx);
    expect((JSON.parse(withAdmin.json) as Awaited<ReturnType<typeof getNrd>>).administrators.map((a) => a.code)).toContain('gamma_admin');
    await db
      .update(t.referenceData)
      .set({ deprecated: true })
      .where(and(eq(t.referenceData.list, 'countries'), eq(t.referenceData.code, 'LU')));
    const countries = (JSON.parse((await nrdJson(ctx)).json) as Awaited<ReturnType<typeof getNrd>>).countries.map((c) => c.code);
    expect(countries).not.toContain('LU');
    expect(countries).toContain('FR');
  });

  it('indexes current codes by their lower case for validating many rows', async () => {
    const { ctx } = database;
    await seedReferenceData(ctx);
    const index = await referenceIndex(ctx);
    expect(index.currencies.get('eur')).toBe('EUR');
    expect(index.countries.get('lu')).toBe('LU');
    expect(index.countries.get('yu')).toBeUndefined();
  });
});
