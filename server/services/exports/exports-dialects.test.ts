import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import type { User } from '../auth/tokens.js';
import { insertFund } from '../../testing/fund-factory.js';
import { deleteOldExports, exportDownload, listExports, requestExport } from './exports.js';
import { loadExport, removeBlobIfUnused, setExportStatus } from './store.js';

describeEachDialect('exports', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  let admin: User;
  let auditor: User;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
    ctx = database.ctx;
    const { db, tables: t } = storeOf(ctx);
    const [a, b] = await db
      .insert(t.users)
      .values([
        { email: 'ada@example.com', username: 'ada', firstName: 'Ada', lastName: 'Admin', role: 'Admin', originalRole: 'Admin' },
        { email: 'aud@example.com', username: 'aud', firstName: '', lastName: '', role: 'Auditor', originalRole: 'Auditor' },
      ])
      .returning();
    [admin, auditor] = [a, b] as unknown as User[];
  });
  afterEach(() => database.dispose());

  /** An export row as a request leaves it, created `daysAgo` days ago. */
  const exportRow = async (user: User, daysAgo = 0) => {
    const { db, tables: t } = storeOf(ctx);
    const inputs = { fundRequests: [1], fundRequestStages: ['calculations'], excludeDisabledVisualizations: false, reviewedVisualizationsOnly: false };
    const [row] = await db
      .insert(t.exportFiles)
      .values({
        userId: user.id,
        status: 'pending',
        payload: { inputs, fund_requests: { 1: { name: 'Fund', fundCode: 'F1', client: 'C', administrator: 'TPA' } } },
        createdAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
      })
      .returning();
    return row;
  };

  it('refuses a request naming an unknown fund or stage before anything is stored', async () => {
    await expect(requestExport(ctx, admin, { fundRequests: [999], fundRequestStages: ['calculations'] })).rejects.toThrow('No such fund request with id: 999');
    await expect(requestExport(ctx, admin, { fundRequests: [1], fundRequestStages: ['users'] })).rejects.toThrow('Unknown stage: users');
    const { db, tables: t } = storeOf(ctx);
    expect(await db.select().from(t.exportFiles)).toEqual([]);
  });

  it('stores a request as a pending export and queues its job in the same transaction', async () => {
    const fund = await insertFund(ctx, { fundCode: 'LU1' });
    const view = await requestExport(ctx, auditor, { fundRequests: [fund.id], fundRequestStages: ['calculations'] });
    expect(view).toMatchObject({ status: 'pending' });
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db.select().from(t.exportFiles);
    expect((await db.select().from(t.processes)).map((p) => [p.stage, p.status, p.fundRequestId, p.createdById, p.payload])).toEqual([
      ['export', 'pending', null, auditor.id, { exportId: row.id }],
    ]);
  });

  it("lists newest first with the requester's name; auditors see only their own", async () => {
    const mine = await exportRow(auditor, 2);
    const theirs = await exportRow(admin, 1);
    expect((await listExports(ctx, admin)).rows.map((r) => [r.id, r.user, r.administrators])).toEqual([
      [theirs.id, 'Ada Admin', ['TPA']],
      [mine.id, 'aud', ['TPA']],
    ]);
    const own = await listExports(ctx, auditor);
    expect(own.rows.map((r) => r.id)).toEqual([mine.id]);
    expect(own.pagination).toEqual({ offset: 0, limit: 200, count: 1 });
    expect((await listExports(ctx, admin, { filters: [{ field: 'user', type: 'text', value: 'ADA' }] })).rows.map((r) => r.id)).toEqual([theirs.id]);
    expect((await listExports(ctx, admin, { sorting: [{ field: 'finished_at', order: 'desc' }], limit: 1, offset: 1 })).rows.map((r) => r.id)).toEqual([
      mine.id,
    ]);
  });

  it('keeps payload fields across status changes; downloads only a done export of its own', async () => {
    const row = await exportRow(auditor);
    await expect(exportDownload(ctx, auditor, row.id)).rejects.toThrow('The export is not ready yet (status: pending)');
    const zip = ctx.blobs.put(Buffer.from('PK zip bytes'));
    await setExportStatus(ctx, row.id, 'running', { payload: { error: undefined } });
    const done = await setExportStatus(ctx, row.id, 'done', { blobKey: zip.key, finished: true, payload: { files: 1, size: zip.size } });
    expect(done).toMatchObject({ status: 'done', blobKey: zip.key, payload: { files: 1, size: zip.size, inputs: { fundRequests: [1] } } });
    expect(done!.finishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await setExportStatus(ctx, 999_999, 'error')).toBeUndefined();
    const download = await exportDownload(ctx, auditor, row.id);
    expect([download.fileName, download.size]).toEqual([`fund_export_${row.id}_${row.createdAt.slice(0, 10).replace(/-/g, '')}.zip`, zip.size]);
    await expect(exportDownload(ctx, { ...auditor, id: admin.id } as User, row.id)).rejects.toThrow(`No such export with id: ${row.id}`);
    expect((await exportDownload(ctx, admin, row.id)).size).toBe(zip.size);
  });

  it('deletes exports older than 90 days and their zips unless another row uses the same bytes', async () => {
    const { db, tables: t } = storeOf(ctx);
    const shared = ctx.blobs.put(Buffer.from('same zip'));
    const own = ctx.blobs.put(Buffer.from('own zip'));
    const old = await exportRow(admin, 91);
    const oldToo = await exportRow(auditor, 95);
    const recent = await exportRow(admin, 10);
    await db.update(t.exportFiles).set({ blobKey: own.key, status: 'done' }).where(eq(t.exportFiles.id, old.id));
    await db.update(t.exportFiles).set({ blobKey: shared.key, status: 'done' }).where(eq(t.exportFiles.id, oldToo.id));
    await db.update(t.exportFiles).set({ blobKey: shared.key, status: 'done' }).where(eq(t.exportFiles.id, recent.id));
    await expect(deleteOldExports(ctx, admin, { olderThanDays: 30 })).rejects.toThrow('Only export files older than 90 days can be deleted');
    // an auditor deletes only their own
    expect(await deleteOldExports(ctx, auditor)).toBe(1);
    expect(await deleteOldExports(ctx, admin)).toBe(1);
    expect((await db.select({ id: t.exportFiles.id }).from(t.exportFiles)).map((r) => r.id)).toEqual([recent.id]);
    expect(existsSync(ctx.blobs.path(own.key))).toBe(false);
    expect(existsSync(ctx.blobs.path(shared.key))).toBe(true);
    expect(await loadExport(ctx, old.id)).toBeUndefined();
    expect(await removeBlobIfUnused(ctx, shared.key)).toBe(false);
    expect(await removeBlobIfUnused(ctx, 'not a key')).toBe(false);
  });
});
