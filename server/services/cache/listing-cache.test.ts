import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { answeredTwiceFromCache, describePg, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { administrators, fundRequests, processes } from '../../db/schema/index.js';
import { transaction } from '../../db/tx.js';
import { storeOf } from '../../db/dialect.js';
import type { User } from '../auth/tokens.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { changeStatus } from '../funds/actions.js';
import { saveFund } from '../funds/fund-write.js';
import { listFunds } from '../funds/listing.js';
import { listFundsForAuditorOffThread, listFundsJsonOffThread } from '../../threads/funds/off-thread.js';
import { cachedListingJson, cachedListingJsonAsync, listingVersion, MAX_BYTES } from './listing-cache.js';
import { insertAdministrator, insertFund, insertFundFile, insertProcess } from '../../testing/fund-factory.js';

let ctx: TestContext;
let fundId: number;
const row = async () => (await listFunds(ctx, ctx.boot.admin, {})).rows.find((r) => r.id === fundId)!;

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  const admin = await insertAdministrator(ctx, 'orion_fs', 'Orion Fund Services');
  fundId = (
    await insertFund(ctx, {
      name: 'Atlas Equity',
      client: 'Orion Capital',
      status: 'Pending',
      administratorId: admin,
      requestDate: '2025-01-10',
      periodEnd: '2024-12-31',
      fundCode: 'ATL01',
    })
  ).id;
});
afterAll(() => ctx.dispose());

describe('listing cache (SQLite)', () => {
  it('serves an unchanged listing from the cache', async () => {
    const first = await listFunds(ctx, ctx.boot.admin, { search: 'atlas' });
    expect(await listFunds(ctx, ctx.boot.admin, { search: 'atlas' })).toBe(first);
    // another query is another page
    expect(await listFunds(ctx, ctx.boot.admin, { search: 'orion' })).not.toBe(first);
  });

  it('shows a status action at once', async () => {
    expect((await row()).status).toBe('Pending');
    await changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [fundId], requestedBy: 'test' });
    expect((await row()).status).toBe('Approved');
  });

  it('shows an edit and a new file at once', async () => {
    await row();
    await saveFund(ctx, ctx.boot.admin, { id: fundId, fund: { delivery_comments: 'chased the TPA' } });
    expect((await row()).delivery_comments).toBe('chased the TPA');
    expect((await row()).dataStatusCounts.assignedCount).toBe(0);
    await insertFundFile(ctx, fundId, { fileType: 'holdings', status: 'assigned' });
    expect((await row()).dataStatusCounts.assignedCount).toBe(1);
  });

  it('shows a process starting and ending, and a renamed administrator, at once', async () => {
    expect((await row()).processStatus).not.toBe('Processing');
    const proc = await insertProcess(ctx, fundId, 'standardization', 'running');
    expect((await row()).processStatus).toBe('Processing');
    ctx.db.update(processes).set({ status: 'done' }).where(eq(processes.id, proc)).run();
    expect((await row()).processStatus).not.toBe('Processing');
    ctx.db.update(administrators).set({ name: 'Orion Fund Services Ltd' }).where(eq(administrators.code, 'orion_fs')).run();
    expect((await row()).administrator).toBe('Orion Fund Services Ltd');
  });

  it('moves the data version on writes of this process and of another connection, not on reads', async () => {
    const before = await listingVersion(ctx);
    await listFunds(ctx, ctx.boot.admin, {});
    expect(await listingVersion(ctx)).toBe(before);
    ctx.sqlite.prepare('UPDATE fund_requests SET notes = ? WHERE id = ?').run('raw write', fundId);
    expect(await listingVersion(ctx)).not.toBe(before);
    expect((await row()).notes).toBe('raw write');
    // another process on the same data directory (the CLI) writes through its own connection
    const other = new Database(ctx.sqlite.name);
    try {
      other.prepare('UPDATE fund_requests SET notes = ? WHERE id = ?').run('written by the CLI', fundId);
    } finally {
      other.close();
    }
    expect((await row()).notes).toBe('written by the CLI');
  });

  it('computes a page once for every request asking for it at the same time', async () => {
    let computed = 0;
    const compute = async () => {
      computed++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { computed };
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => cachedListingJson(ctx, 'asked-at-once', compute)));
    expect(computed).toBe(1);
    expect(new Set(answers).size).toBe(1);
    // a write meanwhile: the next request computes the page again
    await insertFundFile(ctx, fundId, { fileType: 'prices', status: 'assigned' });
    expect(JSON.parse((await cachedListingJson(ctx, 'asked-at-once', compute)).json)).toEqual({ computed: 2 });
  });

  it('keeps at most MAX_BYTES of pages, dropping the least recently used first', async () => {
    const computed: string[] = [];
    const big = (key: string) => () => {
      computed.push(key);
      return Promise.resolve({ json: JSON.stringify({ key, details: 'x'.repeat(MAX_BYTES / 4) }) });
    };
    for (const key of ['a', 'b', 'c']) await cachedListingJsonAsync(ctx, `big-${key}`, big(key));
    // 'a' read again is the most recently used; 'd' goes over the limit: 'b' goes
    await cachedListingJsonAsync(ctx, 'big-a', big('a'));
    await cachedListingJsonAsync(ctx, 'big-d', big('d'));
    await cachedListingJsonAsync(ctx, 'big-a', big('a'));
    await cachedListingJsonAsync(ctx, 'big-b', big('b'));
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('keeps nothing read inside a transaction, whose rows may yet be rolled back', async () => {
    const before = (await row()).notes;
    await expect(
      transaction(ctx, async (tx) => {
        await tx.update(fundRequests).set({ notes: 'never committed' }).where(eq(fundRequests.id, fundId));
        expect((await row()).notes).toBe('never committed');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await row()).notes).toBe(before);
  });
});

describePg('listing cache (PostgreSQL)', () => {
  let database: DialectDatabase;
  beforeAll(async () => {
    database = await openDialectDatabase('postgres');
  });
  afterAll(() => database.dispose());

  it("answers a page again from the cache until any node writes, then shows that node's write at once", async () => {
    const other = await database.open();
    const fund = await insertFund(database.ctx, { name: 'Atlas Equity', status: 'Pending' });
    // reads, of this node or another, leave the version and the cached page as they are. Test files
    // running beside this one write to other databases of the same cluster, and transaction ids
    // (the snapshot's numbers) are the cluster's: tried again until no such write came between.
    let version = '';
    let first = await listFunds(database.ctx, null, {});
    await vi.waitFor(
      async () => {
        version = await listingVersion(database.ctx);
        first = await listFunds(database.ctx, null, {});
        await listFunds(other, null, {});
        expect(await listingVersion(database.ctx)).toBe(version);
        expect(await listFunds(database.ctx, null, {})).toBe(first);
      },
      { timeout: 20_000, interval: 10 },
    );
    expect(first.rows.map((r) => r.status)).toEqual(['Pending']);
    const [user] = await storeOf(other)
      .db.insert(storeOf(other).tables.users)
      .values({ email: 'a@example.com', username: 'a', firstName: 'A', lastName: 'B', role: 'Admin', originalRole: 'Admin' })
      .returning();
    await changeStatus(other, user as User, 'approve', { ids: [fund.id], requestedBy: 'test' });
    expect(await listingVersion(database.ctx)).not.toBe(version);
    // the very next request, with no notification waited for, computes the page again
    let second = await listFunds(database.ctx, null, {});
    expect(second).not.toBe(first);
    expect(second.rows.map((r) => r.status)).toEqual(['Approved']);
    // and it is cached again
    second = await answeredTwiceFromCache(() => listFunds(database.ctx, null, {}));
    expect(second.rows.map((r) => r.status)).toEqual(['Approved']);
    // the request route's form answers the same page (on the calling thread: this context has no databaseUrl for the pools)
    const json = await listFundsJsonOffThread(database.ctx, null, {});
    expect(JSON.parse(json.json)).toEqual(JSON.parse(JSON.stringify(second)));
    expect((await listFundsForAuditorOffThread(database.ctx, {})).rows.map((r) => r.uploadStatus)).toEqual(['Approved']);
  });

  it('keeps nothing read inside a transaction, whose writes may yet be rolled back', async () => {
    const fund = await insertFund(database.ctx, { name: 'Borealis Credit', status: 'Pending' });
    const outside = await listFunds(database.ctx, null, {});
    await expect(
      transaction(database.ctx, async () => {
        await storeOf(database.ctx)
          .db.update(storeOf(database.ctx).tables.fundRequests)
          .set({ notes: 'not kept' })
          .where(eq(storeOf(database.ctx).tables.fundRequests.id, fund.id));
        const inside = await listFunds(database.ctx, null, {});
        expect(inside.rows.find((r) => r.id === fund.id)?.notes).toBe('not kept');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const after = await listFunds(database.ctx, null, {});
    expect(after.rows.find((r) => r.id === fund.id)?.notes).toBe(outside.rows.find((r) => r.id === fund.id)?.notes);
  });
});
