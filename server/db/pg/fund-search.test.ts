import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgDb, type OpenPgResult } from '../client-pg.js';
import { createPgTestDatabase, describePg } from '../../testing/dialects.js';
import * as pgSchema from '../schema-pg/index.js';
import { frequentSearchWords } from './frequent-words.js';
import { fundSearchCondition, hasTrigrams } from './fund-search.js';

describe('which texts pg_trgm takes trigrams from', () => {
  it('takes them from a word of three characters, or a shorter one the text pads', () => {
    // a word inside the pattern `%text%`: two padding spaces before it when a character precedes it, one after it when one follows
    for (const text of ['abc', 'fund', 'fund 5', 'a b', '-ab', 'x 12', 'éèà', 'ab-', '12 ', '-5'])
      expect({ text, trigrams: hasTrigrams(text) }).toEqual({ text, trigrams: true });
    for (const text of ['5', 'ab', 'a-', 'eq', '-', '--', '%_', '5-']) expect({ text, trigrams: hasTrigrams(text) }).toEqual({ text, trigrams: false });
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

  it('answers a text without trigrams on the rows, never asking a trigram index for it', async () => {
    const plain = (text: string) =>
      pgDb.pool
        .query<{ id: number }>(
          `select id from fund_requests f where f.name ilike $1 or f.client ilike $1 or id in (select fund_request_id from fund_codes where code ilike $1) order by id`,
          [`%${text}%`],
        )
        .then((r) => r.rows.map((x) => x.id));
    const words = await frequentSearchWords({}, pgDb.db as never);
    for (const text of ['7', '12', 'ND', 'y', '99']) {
      const q = pgDb.db.select({ id: pgSchema.fundRequests.id }).from(pgSchema.fundRequests).where(fundSearchCondition(text, words));
      expect({ text, ids: (await q).map((r) => r.id).sort((a, b) => a - b) }).toEqual({ text, ids: await plain(text) });
      const { sql, params } = q.toSQL();
      // even with sequential scans discouraged, no trigram index is read for it
      const plan = await explainWithoutSeqScan(sql, params);
      expect(plan).not.toMatch(/trgm|search_idx/);
    }
    // the check can fail: the whole-text form of the same text reads the trigram index
    expect(await explainWithoutSeqScan(`select id from fund_requests where name ilike $1`, ['%7%'])).toMatch(/trgm|search_idx/);
  });

  /** The plan of a statement on a connection where sequential scans are a last resort. */
  async function explainWithoutSeqScan(text: string, params: unknown[]): Promise<string> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('set enable_seqscan = off');
      return (await client.query(`explain ${text}`, params)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.end();
    }
  }
});
