import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgDb, type OpenPgResult } from '../client-pg.js';
import { createPgTestDatabase, describePg } from '../dialect-testing.js';
import * as pgSchema from '../schema-pg/index.js';
import { frequentSearchWords } from './frequent-words.js';
import { fundSearchCondition, lookupSegments } from './fund-search.js';

describe('lookupSegments', () => {
  const frequent = new Set(['fund', 'equity']);
  it('asks the index for the other words with the whitespace around them', () => {
    expect(lookupSegments('fund 123', frequent)).toEqual([' 123']);
    expect(lookupSegments('FUND 123', frequent)).toEqual([' 123']);
    expect(lookupSegments('Equity Fund 123 Bond', frequent)).toEqual([' 123 ', ' Bond']);
    expect(lookupSegments('fund   12345 x', frequent)).toEqual([' 12345 ']);
  });
  it('keeps the whole text when no word is frequent or no other word has three characters', () => {
    expect(lookupSegments('Atlas 123', frequent)).toBeNull();
    expect(lookupSegments('fund 12', frequent)).toBeNull();
    expect(lookupSegments('equity fund', frequent)).toBeNull();
    expect(lookupSegments('fund 123', new Set())).toBeNull();
  });
  it('gives parts that are each in the text', () => {
    for (const text of ['fund 123', 'x fund yyy  zzz', 'fund\t123 equity 7'])
      for (const part of lookupSegments(text, frequent) ?? []) expect(text).toContain(part);
  });
});

describePg('PostgreSQL: the search leaves frequent words out of its index lookups', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  let pgDb: OpenPgResult;
  const kinds = ['Equity', 'Bond', 'Income', 'Growth'];
  beforeAll(async () => {
    database = await createPgTestDatabase();
    pgDb = await openPgDb(database.url, { max: 2 });
    await pgDb.db.insert(pgSchema.fundRequests).values(
      Array.from({ length: 2000 }, (_, i) => ({
        name: `Fund ${i + 1} ${kinds[i % 4]}`,
        client: i % 2 ? 'Lyra Funds' : `Client ${i}`,
        status: 'Approved' as const,
      })),
    );
    await pgDb.pool.query('ANALYZE fund_requests');
  });
  afterAll(async () => {
    await pgDb?.pool.end();
    await database?.drop();
  });

  it('reads the words of many names and clients from the statistics ANALYZE keeps', async () => {
    const words = await frequentSearchWords({}, pgDb.db as never);
    expect([...words.name].sort()).toEqual(['bond', 'equity', 'fund', 'growth', 'income']);
    expect([...words.client]).toEqual(expect.arrayContaining(['lyra', 'funds', 'client']));
    expect(words.client.has('7')).toBe(false);
  });

  it('finds what the whole-text search finds, asking the name index for the rare word only', async () => {
    const words = await frequentSearchWords({}, pgDb.db as never);
    const ids = async (text: string, frequent = words) =>
      (await pgDb.db.select({ id: pgSchema.fundRequests.id }).from(pgSchema.fundRequests).where(fundSearchCondition(text, frequent)))
        .map((r) => r.id)
        .sort((a, b) => a - b);
    for (const text of ['fund 123', 'FUND 12', 'fund 1999 bond', 'und 77', 'lyra funds', 'Fund 5 Equity', 'nothing 42'])
      expect({ text, ids: await ids(text) }).toEqual({ text, ids: await ids(text, { name: new Set(), client: new Set() }) });
    expect(await ids('fund 123')).toHaveLength(11);

    const q = pgDb.db.select({ id: pgSchema.fundRequests.id }).from(pgSchema.fundRequests).where(fundSearchCondition('fund 123', words)).toSQL();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('set enable_seqscan = off');
      const plan = (await client.query(`explain ${q.sql}`, q.params)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index Cond: \(name ~~\* '% 123%'::text\)/);
      expect(plan).not.toMatch(/Index Cond: \(name ~~\* '%fund 123%'/);
    } finally {
      await client.end();
    }
  });
});
