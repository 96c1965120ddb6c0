import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundCodes, fundRequests } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { saveFund } from './fund-write.js';
import { listFunds, type ListingInput } from './listing.js';
import { ftsQuery, MAX_CANDIDATES, sampledFrequentWords, searchCandidates } from './listing-search.js';
import { insertFund } from '../../testing/fund-factory.js';

let ctx: TestContext;
const list = (input: ListingInput) => listFunds(ctx, ctx.boot.admin, { pagination: { limit: 1000 }, ...input });
const found = async (search: string, input: ListingInput = {}) => (await list({ ...input, search })).rows.map((r) => r.id).sort((a, b) => a - b);

/** Every fund as the search sees it: name, client and codes. */
function everyFund(c: TestContext = ctx) {
  const codes = c.db.select().from(fundCodes).all();
  return c.db
    .select()
    .from(fundRequests)
    .all()
    .map((f) => ({ ...f, codes: codes.filter((c) => c.fundRequestId === f.id).map((c) => c.code) }));
}

/** The matches by definition: name, client or a code contains the text, ASCII letters in any case (as LIKE). */
function expected(search: string, keep: (f: ReturnType<typeof everyFund>[number]) => boolean = (f) => f.status !== 'Deleted', c: TestContext = ctx) {
  const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const text = fold(search.trim());
  return everyFund(c)
    .filter((f) => keep(f) && [f.name, f.client, ...f.codes].some((v) => fold(v).includes(text)))
    .map((f) => f.id)
    .sort((a, b) => a - b);
}

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  const names = [
    'Atlas Equity',
    'Boreal Bond 50% Hedged',
    'Cygnus_Growth',
    'Draco "Prime" Income',
    'Équité Europe',
    'équité monde',
    'Lyra Balanced',
    'Vega Equity Income',
  ];
  const clients = ['Orion Capital', 'Helix Partners', 'Atlas Asset Management'];
  for (const [i, name] of names.entries())
    await insertFund(ctx, {
      name,
      client: clients[i % clients.length],
      status: i === 6 ? 'Deleted' : 'Approved',
      fundCode: `FC-${100 + i}`,
      alternateCodes: i % 2 ? [`ALT${i}x`] : [],
    });
});
afterAll(() => ctx.dispose());

describe('listing search on SQLite (its trigram index)', () => {
  it('finds name, client and code substrings in any case, as a LIKE over every row would', async () => {
    for (const text of [
      'equity',
      'EQUITY',
      'orion',
      'fc-10',
      'alt3X',
      'al',
      'a',
      '50%',
      '50_',
      'h_lix',
      'cygnus_g',
      '"prime"',
      'prime" inc',
      'Équité',
      'équité',
      'ÉQUITÉ',
      'nothing like it',
      ' lyra ',
    ]) {
      expect(await found(text), text).toEqual(expected(text));
    }
    expect(await found('equity')).toHaveLength(2);
    // deleted funds are searched only when a status filter asks for them
    expect(await found('lyra', { filters: [{ field: 'status', type: 'enum', value: ['Deleted'] }] })).toHaveLength(1);
  });

  it('combines with filters and sorting', async () => {
    const input: ListingInput = { filters: [{ field: 'status', type: 'enum', value: ['Approved'] }], sorting: [{ field: 'name', order: 'desc' }] };
    const rows = (await list({ ...input, search: 'equ' })).rows;
    expect(rows.map((r) => r.name)).toEqual(['Vega Equity Income', 'Atlas Equity']);
    expect((await list({ ...input, search: 'equ', pagination: { limit: 1 } })).pagination.count).toBe(2);
  });

  it('follows renames, new, changed and removed codes and new funds at once', async () => {
    const fund = await insertFund(ctx, { name: 'Hydra Opportunities', client: 'Helix Partners', status: 'Pending', fundCode: 'HYD-01' });
    expect(await found('hydra')).toEqual([fund.id]);
    await saveFund(ctx, ctx.boot.admin, { id: fund.id, fund: { name: 'Phoenix Opportunities' } });
    expect(await found('hydra')).toEqual([]);
    expect(await found('phoenix')).toEqual([fund.id]);
    ctx.db.insert(fundCodes).values({ fundRequestId: fund.id, code: 'ZEPHYR-9', main: false }).run();
    expect(await found('zephyr')).toEqual([fund.id]);
    ctx.db.update(fundCodes).set({ code: 'ZORRO-9' }).where(eq(fundCodes.code, 'ZEPHYR-9')).run();
    expect(await found('zephyr')).toEqual([]);
    expect(await found('zorro')).toEqual([fund.id]);
    ctx.db.delete(fundCodes).where(eq(fundCodes.code, 'ZORRO-9')).run();
    expect(await found('zorro')).toEqual([]);
    expect(await found('hyd-01')).toEqual([fund.id]);
    ctx.db.delete(fundRequests).where(eq(fundRequests.id, fund.id)).run();
    expect(await found('phoenix')).toEqual([]);
  });

  it('searches without the index when a text has too many candidates, with the same answer', async () => {
    const insert = ctx.sqlite.prepare(
      "INSERT INTO fund_requests (name, client, status, request_date) VALUES (?, 'Many Funds Client', 'Approved', '2025-01-01')",
    );
    ctx.sqlite.transaction(() => {
      for (let i = 0; i <= MAX_CANDIDATES.withFilters; i++) insert.run(`Bulk ${i}`);
    })();
    expect(await searchCandidates(ctx, 'many funds', MAX_CANDIDATES.withFilters)).toBeNull();
    expect(await searchCandidates(ctx, 'many funds', MAX_CANDIDATES.alone)).not.toBeNull();
    expect(await searchCandidates(ctx, 'bulk 19', MAX_CANDIDATES.withFilters)).not.toBeNull();
    const open: ListingInput = { filters: [{ field: 'status', type: 'enum', value: ['Approved'] }] };
    expect((await list({ ...open, search: 'many funds', pagination: { limit: 10 } })).pagination.count).toBe(MAX_CANDIDATES.withFilters + 1);
    for (const text of ['bulk 19', 'bulk 2000']) expect(await found(text), text).toEqual(expected(text));
    const many = expected('many funds');
    expect(many).toHaveLength(MAX_CANDIDATES.withFilters + 1);
    expect((await found('many funds')).every((id) => many.includes(id))).toBe(true);
    expect((await list({ search: 'many funds', pagination: { limit: 10 } })).pagination.count).toBe(many.length);
  });
});

describe('listing search on SQLite over words of many funds', () => {
  let many: TestContext;
  beforeAll(async () => {
    many = await createTestContext({ seedDemoData: false });
    const insert = many.sqlite.prepare("INSERT INTO fund_requests (name, client, status, request_date) VALUES (?, ?, 'Approved', '2025-01-01')");
    const code = many.sqlite.prepare('INSERT INTO fund_codes (fund_request_id, code, main) VALUES (?, ?, 1)');
    many.sqlite.transaction(() => {
      for (let i = 1; i <= 1000; i++) {
        const id = Number(insert.run(`Fund ${i} ${i % 2 ? 'Equity' : 'Bond'}`, i % 50 ? 'Orion Capital' : `Client ${i}`).lastInsertRowid);
        code.run(id, `FC${String(i).padStart(6, '0')}`);
      }
    })();
  });
  afterAll(() => many.dispose());

  it('knows the words of many funds from a sample of them', async () => {
    const words = await sampledFrequentWords(many);
    expect([...words.name].sort()).toEqual(['bond', 'equity', 'fund']);
    expect([...words.client].sort()).toEqual(['capital', 'orion']);
    expect(ftsQuery('fund 123', words)).toBe('" 123"');
    expect(ftsQuery('Fund 12 equity', words)).toBe('" 12 "');
    expect(ftsQuery('fund 5', words)).toBe('"fund 5"');
    // quotes in a part are doubled, as FTS5 reads them inside a phrase
    expect(ftsQuery('orion "x" 77', words)).toBe('" ""x"" " " 77"');
    expect(ftsQuery('atlas 123', words)).toBe('"atlas 123"');
  });

  it('finds what a LIKE over every row finds', async () => {
    for (const text of [
      'fund 1',
      'fund 12',
      'fund 123',
      'FUND 999 bond',
      'fund 12 equity',
      'und 12',
      'nd 4',
      '7 eq',
      'orion capital',
      'client 50',
      'fc000123',
      'fund',
      'bond fund',
    ]) {
      const rows = (await listFunds(many, many.boot.admin, { search: text, pagination: { limit: 1000 } })).rows.map((r) => r.id).sort((a, b) => a - b);
      expect(rows, text).toEqual(expected(text, undefined, many));
    }
  });
});
