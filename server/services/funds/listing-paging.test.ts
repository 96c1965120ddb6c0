import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import type { FundStatus } from '../../db/schema/funds.js';
import { insertMany } from '../../db/bulk-insert.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { storeOf } from '../../db/dialect.js';
import { ValidationError } from '../../errors.js';
import { clearListingCache } from '../cache/listing-cache.js';
import { COUNT_CAP, countFundsForAuditor, countListing, listFunds, listFundsForAuditor, type ListingInput } from './listing.js';

/** More funds than the count cap, with many equal request dates (ties the id breaks) and some empty due dates. */
const FUNDS = COUNT_CAP + 400;
const CLIENTS = ['Orion Capital', 'Helix Partners', 'Atlas Asset'];

interface Made {
  id: number;
  name: string;
  client: string;
  status: string;
  requestDate: string;
  dueDate: string | null;
  codes: string[];
}

/** Compares two sort values as the listings order them: an empty value is the smallest. */
function compare(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

describeEachDialect('listing pages past the count cap', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  let funds: Made[];
  const listed = () => funds.filter((f) => f.status !== 'Deleted');
  const list = (input: ListingInput) => listFunds(ctx, null, input);

  beforeAll(async () => {
    database = await openDialectDatabase(dialect);
    ctx = database.ctx;
    const rows = Array.from({ length: FUNDS }, (_, i) => ({
      name: `Paging fund ${i}`,
      client: CLIENTS[i % 3]!,
      status: (i % 50 === 7 ? 'Deleted' : i % 3 === 1 ? 'Pending' : 'Approved') as FundStatus,
      requestDate: `2025-01-${String(1 + (i % 28)).padStart(2, '0')}`,
      dueDate: i % 5 === 0 ? null : `2025-03-${String(1 + (i % 17)).padStart(2, '0')}`,
      country: 'LU',
    }));
    const ids = await insertMany(storeOf(ctx), storeOf(ctx).tables.fundRequests, rows);
    // a code on one fund in forty: `QX-<n>`, which no name or client holds
    const codes = ids.flatMap((id, i) => (i % 40 === 3 ? [{ fundRequestId: id, code: `QX-${i}`, main: true }] : []));
    await insertMany(storeOf(ctx), storeOf(ctx).tables.fundCodes, codes);
    funds = rows.map((r, i) => ({ ...r, id: ids[i]!, codes: i % 40 === 3 ? [`QX-${i}`] : [] }));
  }, 120_000);
  afterAll(() => database.dispose());

  it('counts up to the cap and says there are more; the exact count is given when asked for', async () => {
    const first = await list({ pagination: { limit: 50 } });
    expect(first.pagination).toMatchObject({ offset: 0, limit: 50, count: COUNT_CAP, countCapped: true, previous: null });
    expect(first.pagination.next).toEqual(expect.any(String));
    expect(await countListing(ctx, null, {})).toEqual({ count: listed().length });
    // fewer matches than the cap: the count is exact
    const pending = { filters: [{ field: 'status', type: 'enum', value: ['Pending'] }] };
    const pendingCount = funds.filter((f) => f.status === 'Pending').length;
    expect(pendingCount).toBeLessThan(COUNT_CAP);
    expect((await list({ ...pending, pagination: { limit: 10 } })).pagination).toMatchObject({ count: pendingCount, countCapped: false });
    expect(await countListing(ctx, null, pending)).toEqual({ count: pendingCount });
    // a search past the cap and one under it, counted with their first page
    expect((await list({ search: 'paging FUND' })).pagination).toMatchObject({ count: COUNT_CAP, countCapped: true });
    expect(await countListing(ctx, null, { search: 'paging FUND' })).toEqual({ count: listed().length });
    const few = listed().filter((f) => f.name.includes('fund 123'));
    const found = await list({ search: 'fund 123' });
    expect(found.pagination).toMatchObject({ count: few.length, countCapped: false, next: null });
    expect(found.rows.map((r) => r.id).sort()).toEqual(few.map((f) => f.id).sort());
  });

  it('walks the next and previous pages in the sort order, equal values ordered by id', async () => {
    // newest request first (the default sort), then id descending
    const expected = listed()
      .sort((a, b) => compare(b.requestDate, a.requestDate) || b.id - a.id)
      .map((f) => f.id);
    const limit = 37;
    let page = await list({ pagination: { limit } });
    const seen = [...page.rows.map((r) => r.id)];
    for (let n = 1; n < 6; n++) {
      page = await list({ pagination: { limit }, offset: n * limit, cursor: page.pagination.next });
      expect(page.pagination).toMatchObject({ offset: n * limit, count: COUNT_CAP, countCapped: true });
      seen.push(...page.rows.map((r) => r.id));
    }
    expect(seen).toEqual(expected.slice(0, 6 * limit));
    // the same pages by offset
    expect((await list({ pagination: { limit }, offset: 5 * limit })).rows.map((r) => r.id)).toEqual(expected.slice(5 * limit, 6 * limit));
    // and back
    for (let n = 4; n >= 0; n--) {
      page = await list({ pagination: { limit }, offset: n * limit, cursor: page.pagination.previous });
      expect(page.rows.map((r) => r.id)).toEqual(expected.slice(n * limit, (n + 1) * limit));
      expect(page.pagination.offset).toBe(n * limit);
    }
    expect(page.pagination.previous).toBeNull();
    expect(page.pagination.next).toEqual(expect.any(String));
  });

  it('pages across empty values and by several sort terms', async () => {
    const limit = 400;
    const walk = async (input: ListingInput, pages: number) => {
      let page = await list({ ...input, pagination: { limit } });
      const ids = page.rows.map((r) => r.id);
      for (let n = 1; n < pages && page.pagination.next; n++) {
        page = await list({ ...input, pagination: { limit }, offset: n * limit, cursor: page.pagination.next });
        ids.push(...page.rows.map((r) => r.id));
      }
      return { ids, last: page };
    };
    // data due ascending: the funds without one first, then by date, ties by id ascending
    const byDueAsc = listed()
      .filter((f) => f.status === 'Approved')
      .sort((a, b) => compare(a.dueDate, b.dueDate) || a.id - b.id)
      .map((f) => f.id);
    const approved = { filters: [{ field: 'status', type: 'enum', value: ['Open'] }], sorting: [{ field: 'dataDue', order: 'asc' }] };
    const asc = await walk(approved, 6);
    expect(asc.ids).toEqual(byDueAsc.slice(0, 6 * limit));
    // descending: the funds without one last, reached by the cursor too
    const byDueDesc = listed()
      .filter((f) => f.status === 'Approved')
      .sort((a, b) => compare(b.dueDate, a.dueDate) || b.id - a.id)
      .map((f) => f.id);
    const desc = await walk({ ...approved, sorting: [{ field: 'dataDue', order: 'desc' }] }, 100);
    expect(desc.ids).toEqual(byDueDesc);
    expect(desc.last.pagination.next).toBeNull();
    // client ascending, then name descending
    const byClientName = listed()
      .sort((a, b) => compare(a.client, b.client) || compare(b.name, a.name) || a.id - b.id)
      .map((f) => f.id);
    const sorted = await walk(
      {
        sorting: [
          { field: 'client', order: 'asc' },
          { field: 'name', order: 'desc' },
        ],
      },
      4,
    );
    expect(sorted.ids).toEqual(byClientName.slice(0, 4 * limit));
  });

  it('refuses a cursor of another query or one it did not make', async () => {
    const page = await list({ pagination: { limit: 5 } });
    await expect(list({ pagination: { limit: 5 }, search: 'orion', cursor: page.pagination.next })).rejects.toThrow(
      /cursor belongs to another filter, search or sort/,
    );
    await expect(list({ pagination: { limit: 5 }, cursor: 'not-a-cursor' })).rejects.toThrow(ValidationError);
    const forged = Buffer.from(JSON.stringify({ d: 'n', v: ['2025-01-02', 'x'], q: 'x' })).toString('base64url');
    await expect(list({ cursor: forged })).rejects.toThrow(/not valid/);
  });

  it('a previous page that is the first answers offset 0, without a previous cursor', async () => {
    const second = await list({ pagination: { limit: 10 }, offset: 10 });
    // the client thought it was further on: the page before is still the first one
    const first = await list({ pagination: { limit: 10 }, offset: 30, cursor: second.pagination.previous });
    expect(first.pagination).toMatchObject({ offset: 0, previous: null });
    expect(first.rows.map((r) => r.id)).toEqual((await list({ pagination: { limit: 10 } })).rows.map((r) => r.id));
  });

  it('serves a page changed by a write after its cursor was made', async () => {
    const first = await list({ pagination: { limit: 20 } });
    const moved = first.rows[19]!.id;
    // the boundary fund is deleted: the next page still starts after where it was
    const { db, tables: t } = storeOf(ctx);
    const { eq } = await import('drizzle-orm');
    await db.update(t.fundRequests).set({ status: 'Deleted' }).where(eq(t.fundRequests.id, moved));
    clearListingCache(ctx);
    funds.find((f) => f.id === moved)!.status = 'Deleted';
    const expected = listed()
      .sort((a, b) => compare(b.requestDate, a.requestDate) || b.id - a.id)
      .map((f) => f.id);
    const next = await list({ pagination: { limit: 20 }, offset: 20, cursor: first.pagination.next });
    expect(next.rows.map((r) => r.id)).toEqual(expected.slice(19, 39));
  });

  it('the auditor listing pages by cursor and caps its count as well', async () => {
    const first = await listFundsForAuditor(ctx, { offset: 0, limit: 25 });
    expect(first.pagination).toMatchObject({ count: COUNT_CAP, countCapped: true, previous: null });
    const second = await listFundsForAuditor(ctx, { offset: 25, limit: 25, cursor: first.pagination.next });
    const byDue = listed()
      .sort((a, b) => compare(b.dueDate, a.dueDate) || b.id - a.id)
      .map((f) => f.id);
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(byDue.slice(0, 50));
    expect(await countFundsForAuditor(ctx)).toEqual({ count: listed().length });
    await expect(listFundsForAuditor(ctx, { offset: 0, limit: 25, sort: { field: 'name' }, cursor: first.pagination.next })).rejects.toThrow(ValidationError);
  });

  it('finds by a text of one or two characters what it finds by a longer one: names, clients and codes, any case', async () => {
    const newestFirst = (a: Made, b: Made) => compare(b.requestDate, a.requestDate) || b.id - a.id;
    const holding = (text: string) =>
      listed()
        .filter((f) => [f.name, f.client, ...f.codes].some((v) => v.toLowerCase().includes(text.toLowerCase())))
        .sort(newestFirst);
    for (const text of ['77', 'Q', 'x-', '-', 'AS', '9', 'zz']) {
      const expected = holding(text);
      const page = await list({ search: text, pagination: { limit: 60 } });
      const count = Math.min(expected.length, COUNT_CAP);
      expect({ text, ids: page.rows.map((r) => r.id) }).toEqual({ text, ids: expected.slice(0, 60).map((f) => f.id) });
      expect({ text, ...page.pagination }).toMatchObject({ text, count, countCapped: expected.length > COUNT_CAP });
      expect(await countListing(ctx, null, { search: text })).toEqual({ count: expected.length });
      if (!page.pagination.next) continue;
      // the next page by its cursor, and a page further on by its offset
      const next = await list({ search: text, pagination: { limit: 60 }, offset: 60, cursor: page.pagination.next });
      expect(next.rows.map((r) => r.id)).toEqual(expected.slice(60, 120).map((f) => f.id));
      const far = Math.min(Math.floor(expected.length / 2), 6000);
      expect((await list({ search: text, pagination: { limit: 60 }, offset: far })).rows.map((r) => r.id)).toEqual(
        expected.slice(far, far + 60).map((f) => f.id),
      );
    }
    // with a filter, and the longer texts they are part of
    const pending = { filters: [{ field: 'status', type: 'enum', value: ['Pending'] }] };
    for (const text of ['QX-1', '77', 'qx']) {
      const expected = holding(text).filter((f) => f.status === 'Pending');
      const page = await list({ ...pending, search: text, pagination: { limit: 1000 } });
      expect({ text, ids: page.rows.map((r) => r.id) }).toEqual({ text, ids: expected.slice(0, 1000).map((f) => f.id) });
      expect(page.pagination).toMatchObject({ count: expected.length, countCapped: false });
    }
  });

  describe('a listing under the cap', () => {
    it('gives its exact count with its last page', async () => {
      const helix = listed().filter((f) => f.client === 'Helix Partners' && f.status === 'Pending');
      const input = {
        filters: [
          { field: 'client', type: 'text', value: 'helix' },
          { field: 'status', type: 'enum', value: ['Pending'] },
        ],
        pagination: { limit: 1000 },
      };
      const last = Math.floor(helix.length / 1000) * 1000;
      const page = await list({ ...input, offset: last });
      expect(page.pagination).toMatchObject({ count: helix.length, countCapped: false, next: null });
      expect(page.rows).toHaveLength(helix.length - last);
    });
  });
});
