import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renewLease } from '../../queue/queue.js';
import { fundFiles, nodes, processes, sdmChunks } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { recordAudit } from '../audit/audit-log.js';
import { dataVersion } from './data-version.js';
import { listFunds } from '../funds/listing.js';
import { insertFund, insertFundFile, insertProcess } from '../../testing/fund-factory.js';

/**
 * Tables whose writes no listing, count or search reads (migration 0014 gives every other table the
 * triggers): the pipeline's working rows, logs, the chasing records (contacts, chases, runs and
 * mails), which no listing column shows, the scorecards' caches (rewritten from the events, read
 * by no listing), and `delivery_events`, written in the transaction that writes the fund file it
 * records, which moves the version.
 */
const CHASING = ['contacts', 'chase_schedules', 'chases', 'chase_events', 'chase_runs', 'chase_mails', 'chase_notices'];
const NOT_LISTED = [
  'sdm_chunks',
  'node_events',
  'orchestration_logs',
  'audit_log',
  'nodes',
  'tokens',
  'trail',
  'listing_version',
  'delivery_events',
  'scorecard_facts',
  'scorecard_tallies',
  ...CHASING,
];

let ctx: TestContext;
let fundId: number;
beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  fundId = (await insertFund(ctx, { name: 'Atlas Equity', client: 'Orion Capital', status: 'Approved' })).id;
});
afterAll(() => ctx.dispose());

describe('the listing data version on SQLite', () => {
  it('is moved by the insert, update and delete triggers of every table but those no listing reads', () => {
    const tables = ctx.sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'fund_search%'",
      )
      .pluck()
      .all() as string[];
    const triggers = new Set(
      ctx.sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'listing_version_%'").pluck().all() as string[],
    );
    const missing = tables
      .filter((t) => !NOT_LISTED.includes(t))
      .flatMap((t) => ['insert', 'update', 'delete'].map((ev) => `listing_version_${t}_${ev}`))
      .filter((name) => !triggers.has(name));
    // a new table the listings may read needs the three triggers in its migration
    expect(missing).toEqual([]);
    expect(tables).toEqual(expect.arrayContaining(NOT_LISTED));
  });

  it('moves on writes the listings show, of this connection or another, and not on a rollback', async () => {
    let v = await dataVersion(ctx);
    const moved = async () => {
      const now = await dataVersion(ctx);
      const changed = now !== v;
      v = now;
      return changed;
    };
    const file = await insertFundFile(ctx, fundId, { fileType: 'holdings', status: 'pending' });
    expect(await moved()).toBe(true);
    ctx.db.update(fundFiles).set({ status: 'processed' }).where(eq(fundFiles.id, file)).run();
    expect(await moved()).toBe(true);
    const proc = await insertProcess(ctx, fundId, 'standardization', 'pending');
    expect(await moved()).toBe(true);
    ctx.db
      .update(processes)
      .set({ status: 'running', workerId: 'serve-a/t1', leaseExpiresAt: Date.now() + 60_000 })
      .where(eq(processes.id, proc))
      .run();
    expect(await moved()).toBe(true);
    const Database = (await import('better-sqlite3')).default;
    const other = new Database(ctx.sqlite.name);
    try {
      other.prepare('UPDATE fund_requests SET notes = ? WHERE id = ?').run('written by the CLI', fundId);
    } finally {
      other.close();
    }
    expect(await moved()).toBe(true);
    try {
      ctx.sqlite.transaction(() => {
        ctx.sqlite.prepare('UPDATE fund_requests SET notes = ? WHERE id = ?').run('never committed', fundId);
        throw new Error('rolled back');
      })();
    } catch {
      // rolled back
    }
    expect(await moved()).toBe(false);
  });

  it('stays while the pipeline stores rows, renews leases, logs and beats, so cached pages stay valid', async () => {
    const file = await insertFundFile(ctx, fundId, { fileType: 'holdings', status: 'processing', kind: 'standardization' });
    const proc = await insertProcess(ctx, fundId, 'standardization', 'pending');
    ctx.db
      .update(processes)
      .set({ status: 'running', workerId: 'serve-a/t1', leaseExpiresAt: Date.now() + 60_000 })
      .where(eq(processes.id, proc))
      .run();
    ctx.db.insert(nodes).values({ id: 'serve-a', kind: 'serve', hostname: 'h', pid: 1, startedAt: '2026-01-01', heartbeatAt: Date.now() }).run();
    const page = await listFunds(ctx, ctx.boot.admin, {});
    const before = await dataVersion(ctx);

    ctx.db.insert(sdmChunks).values({ fundFileId: file, sdmType: 'holdings', firstLine: 1, lastLine: 1000, rowCount: 1000, data: '[]' }).run();
    expect(await renewLease(ctx, proc, 'serve-a/t1')).toBe(true);
    ctx.db.update(nodes).set({ heartbeatAt: Date.now() }).where(eq(nodes.id, 'serve-a')).run();
    await recordAudit(ctx, null, 'sign-in', `user:${ctx.boot.admin.id}`);

    expect(await dataVersion(ctx)).toBe(before);
    expect(await listFunds(ctx, ctx.boot.admin, {})).toBe(page);
    // the stages' end is shown at once
    ctx.db.update(processes).set({ status: 'done' }).where(eq(processes.fundRequestId, fundId)).run();
    const after = await listFunds(ctx, ctx.boot.admin, {});
    expect(after).not.toBe(page);
    expect(after.rows.find((r) => r.id === fundId)!.processStatus).toBe('Ready');
  });
});
