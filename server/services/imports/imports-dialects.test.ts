import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { administratorByCode, importFile, listImports, setImportStatus } from './imports.js';
import { listSweptFiles } from './sweeper.js';

describeEachDialect('import files', (dialect) => {
  let database: DialectDatabase;
  let ctx: AppContext;
  beforeEach(async () => {
    database = await openDialectDatabase(dialect);
    ctx = database.ctx;
    const { db, tables: t } = storeOf(ctx);
    await db.insert(t.administrators).values([
      { code: 'mfs', name: 'Meridian Fund Services' },
      { code: 'apex', name: 'Apex Fund Admin' },
    ]);
  });
  afterEach(() => database.dispose());

  /** An import row as an earlier import left it (its identification job is not the point here). */
  const imported = async (code: string, fileName: string, bytes: string, createdAt: string) => {
    const { db, tables: t } = storeOf(ctx);
    const admin = await administratorByCode(ctx, code);
    const blob = ctx.blobs.put(Buffer.from(bytes));
    const [row] = await db
      .insert(t.importFiles)
      .values({
        administratorId: admin.id,
        fileName,
        sha256: blob.key,
        size: blob.size,
        source: 'cli',
        status: 'Awaiting',
        userId: null,
        payload: {},
        createdAt,
      })
      .returning();
    return row;
  };

  it('notices the same bytes imported again for the same administrator and does not process them twice', async () => {
    const first = await imported('mfs', 'tb.csv', 'a,b\n1,2\n', '2025-01-01T00:00:00.000Z');
    const again = await importFile(ctx, { administratorCode: 'mfs', fileName: 'tb-again.csv', bytes: Buffer.from('a,b\n1,2\n'), userId: null, source: 'cli' });
    expect(again).toMatchObject({ status: 'Finished', administratorCode: 'mfs', sha256: first.sha256 });
    expect(again.payload).toMatchObject({ duplicateOf: first.id });
    const { db, tables: t } = storeOf(ctx);
    expect(await db.select().from(t.processes)).toEqual([]);
    await expect(importFile(ctx, { administratorCode: 'nobody', fileName: 'x.csv', bytes: Buffer.from('a'), userId: null, source: 'cli' })).rejects.toThrow(
      'No administrator with code: nobody',
    );
  });

  it('stores a new file as Awaiting and queues its identification', async () => {
    const queued: unknown[] = [];
    ctx.events.on('process', (p) => queued.push([p.stage, p.status]));
    const row = await importFile(ctx, { administratorCode: 'apex', fileName: 'hold.csv', bytes: Buffer.from('c,d\n3,4\n'), userId: null, source: 'cli' });
    expect(row).toMatchObject({ status: 'Awaiting', administratorCode: 'apex', fileName: 'hold.csv' });
    const { db, tables: t } = storeOf(ctx);
    expect((await db.select().from(t.processes)).map((p) => [p.stage, p.status, p.fundRequestId, p.payload])).toEqual([
      ['identification', 'pending', null, { importFileId: row.id }],
    ]);
    expect(queued).toEqual([['identification', 'pending']]);
  });

  it('merges status changes into the payload, keeping what was there', async () => {
    const row = await imported('mfs', 'tb.csv', 'x', '2025-01-01T00:00:00.000Z');
    const events: unknown[] = [];
    ctx.events.on('import-file', (e) => events.push(e));
    await setImportStatus(ctx, row.id, 'Processing', { attached: 1 });
    await setImportStatus(ctx, row.id, 'Error', { error: 'no fund request matches' }, { type: 'holdings', subType: 'Sheet1' });
    await setImportStatus(ctx, 999_999, 'Error');
    const [after] = (await listImports(ctx)).rows;
    expect(after).toMatchObject({ status: 'Error', type: 'holdings', subType: 'Sheet1', payload: { attached: 1, error: 'no fund request matches' } });
    expect(events).toEqual([
      { id: row.id, fileName: 'tb.csv', status: 'Processing', administratorId: row.administratorId, error: undefined },
      { id: row.id, fileName: 'tb.csv', status: 'Error', administratorId: row.administratorId, error: 'no fund request matches' },
    ]);
  });

  it('lists newest first, sorts, filters by administrator and status, and counts', async () => {
    await imported('mfs', 'b.csv', '1', '2025-01-01T00:00:00.000Z');
    const c = await imported('apex', 'c.csv', '2', '2025-01-02T00:00:00.000Z');
    await imported('mfs', 'a.csv', '3', '2025-01-03T00:00:00.000Z');
    await setImportStatus(ctx, c.id, 'Success', {}, { type: 'holdings' });
    const names = async (input: Parameters<typeof listImports>[1]) => (await listImports(ctx, input)).rows.map((r) => r.fileName);
    expect(await names({})).toEqual(['a.csv', 'c.csv', 'b.csv']);
    expect(await names({ sorting: [{ field: 'fileName', order: 'asc' }] })).toEqual(['a.csv', 'b.csv', 'c.csv']);
    expect(
      await names({
        sorting: [
          { field: 'administrator', order: 'asc' },
          { field: 'fileName', order: 'desc' },
        ],
      }),
    ).toEqual(['c.csv', 'b.csv', 'a.csv']);
    expect(await names({ filters: { administrator: 'mfs' }, limit: 1, offset: 1 })).toEqual(['b.csv']);
    // files without a type come first in ascending order and last in descending order, on both databases
    expect(await names({ sorting: [{ field: 'type', order: 'asc' }] })).toEqual(['a.csv', 'b.csv', 'c.csv']);
    expect(await names({ sorting: [{ field: 'type', order: 'desc' }] })).toEqual(['c.csv', 'a.csv', 'b.csv']);
    const page = await listImports(ctx, { filters: { status: ['Awaiting'] }, limit: 1 });
    expect(page.pagination).toEqual({ offset: 0, limit: 1, count: 2 });
    expect(page.rows[0]).toMatchObject({ fileName: 'a.csv', administrator: 'Meridian Fund Services', administratorCode: 'mfs' });
    await expect(listImports(ctx, { sorting: [{ field: 'sha256' }] })).rejects.toThrow("Cannot sort import files by 'sha256'");
  });

  it('lists swept files newest first with their TPA, a page at a time', async () => {
    const { db, tables: t } = storeOf(ctx);
    const admin = await administratorByCode(ctx, 'mfs');
    for (const [name, at] of [
      ['one.csv', '2025-01-01T00:00:00.000Z'],
      ['two.csv', '2025-01-02T00:00:00.000Z'],
      ['three.csv', '2025-01-03T00:00:00.000Z'],
    ])
      await db.insert(t.sweptFiles).values({ originalFileName: name, administratorId: admin.id, filePathOnMoveit: `/inbox/mfs/${name}`, fileDownloadDate: at });
    const page = await listSweptFiles(ctx, { offset: 1, limit: 1 });
    expect(page.pagination).toEqual({ offset: 1, limit: 1, count: 3 });
    expect(page.rows).toEqual([
      expect.objectContaining({ original_file_name: 'two.csv', tpa: 'Meridian Fund Services', file_path_on_moveit: '/inbox/mfs/two.csv' }),
    ]);
  });
});
