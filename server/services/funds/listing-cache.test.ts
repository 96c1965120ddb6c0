import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { administrators, processes } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../testing.js';
import { changeStatus } from './actions.js';
import { saveFund } from './fund-write.js';
import { listFunds } from './listing.js';
import { listingVersion } from './listing-cache.js';
import { insertAdministrator, insertFund, insertFundFile, insertProcess } from './test-factory.js';

let ctx: TestContext;
let fundId: number;
const row = () => listFunds(ctx, ctx.boot.admin, {}).rows.find((r) => r.id === fundId)!;

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  const admin = insertAdministrator(ctx, 'orion_fs', 'Orion Fund Services');
  fundId = insertFund(ctx, {
    name: 'Atlas Equity',
    client: 'Orion Capital',
    status: 'Pending',
    administratorId: admin,
    requestDate: '2025-01-10',
    periodEnd: '2024-12-31',
    fundCode: 'ATL01',
  }).id;
});
afterAll(() => ctx.dispose());

describe('listing cache', () => {
  it('serves an unchanged listing from the cache', () => {
    const first = listFunds(ctx, ctx.boot.admin, { search: 'atlas' });
    expect(listFunds(ctx, ctx.boot.admin, { search: 'atlas' })).toBe(first);
    // another query is another page
    expect(listFunds(ctx, ctx.boot.admin, { search: 'orion' })).not.toBe(first);
  });

  it('shows a status action at once', () => {
    expect(row().status).toBe('Pending');
    changeStatus(ctx, ctx.boot.admin, 'approve', { ids: [fundId], requestedBy: 'test' });
    expect(row().status).toBe('Approved');
  });

  it('shows an edit and a new file at once', () => {
    row();
    saveFund(ctx, ctx.boot.admin, { id: fundId, fund: { delivery_comments: 'chased the TPA' } });
    expect(row().delivery_comments).toBe('chased the TPA');
    expect(row().dataStatusCounts.assignedCount).toBe(0);
    insertFundFile(ctx, fundId, { fileType: 'holdings', status: 'assigned' });
    expect(row().dataStatusCounts.assignedCount).toBe(1);
  });

  it('shows a process starting and ending, and a renamed administrator, at once', () => {
    expect(row().processStatus).not.toBe('Processing');
    const proc = insertProcess(ctx, fundId, 'standardization', 'running');
    expect(row().processStatus).toBe('Processing');
    ctx.db.update(processes).set({ status: 'done' }).where(eq(processes.id, proc)).run();
    expect(row().processStatus).not.toBe('Processing');
    ctx.db.update(administrators).set({ name: 'Orion Fund Services Ltd' }).where(eq(administrators.code, 'orion_fs')).run();
    expect(row().administrator).toBe('Orion Fund Services Ltd');
  });

  it('moves the data version on writes of this process and of another connection, not on reads', () => {
    const before = listingVersion(ctx);
    listFunds(ctx, ctx.boot.admin, {});
    expect(listingVersion(ctx)).toBe(before);
    ctx.sqlite.prepare('UPDATE fund_requests SET notes = ? WHERE id = ?').run('raw write', fundId);
    expect(listingVersion(ctx)).not.toBe(before);
    expect(row().notes).toBe('raw write');
    // another process on the same data directory (the CLI) writes through its own connection
    const other = new Database(ctx.sqlite.name);
    try {
      other.prepare('UPDATE fund_requests SET notes = ? WHERE id = ?').run('written by the CLI', fundId);
    } finally {
      other.close();
    }
    expect(row().notes).toBe('written by the CLI');
  });
});
