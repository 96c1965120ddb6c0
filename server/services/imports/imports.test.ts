import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturesDir } from '../../paths.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../../testing/context.js';
import { importFile, listImports } from './imports.js';
import { inboxDir, listSweptFiles, Sweeper } from './sweeper.js';

let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext();
});
afterEach(() => ctx.dispose());
const tb = join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_TB_S000013795_20230331.csv');

describe('imports', () => {
  it('keeps the raw bytes unchanged, content-addressed, and notices the same file twice', async () => {
    const bytes = readFileSync(tb);
    const first = await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: 'tb.csv', bytes, userId: null, source: 'cli' });
    expect(first.status).toBe('Awaiting');
    expect(ctx.blobs.get(first.sha256).equals(bytes)).toBe(true);
    const again = await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: 'tb-again.csv', bytes, userId: null, source: 'cli' });
    expect(again.status).toBe('Finished');
    expect(again.payload).toMatchObject({ duplicateOf: first.id });
    expect(ctx.sqlite.prepare("select count(*) n from processes where stage = 'identification'").get()).toEqual({ n: 1 });
    expect((await listImports(ctx)).rows.map((r) => r.fileName)).toEqual(['tb-again.csv', 'tb.csv']);
  });

  it('sorts and filters the list on its columns through the API, and names an unknown sort field', async () => {
    const mfs = join(fixturesDir(), 'tpas/meridian_fund_services/inputs');
    for (const name of ['MFS_TB_S000013795_20230331.csv', 'MFS_PRICES_S000013795_20230331.csv', 'MFS_CAPITAL_S000013795_20230331.csv']) {
      await importFile(ctx, { administratorCode: 'meridian_fund_services', fileName: name, bytes: readFileSync(join(mfs, name)), userId: null, source: 'cli' });
    }
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const names = async (body: unknown) => (await api.post('import/list', body, token)).body.payload.rows.map((r: { fileName: string }) => r.fileName);
    expect(await names({ sorting: [{ field: 'fileName', order: 'asc' }] })).toEqual([
      'MFS_CAPITAL_S000013795_20230331.csv',
      'MFS_PRICES_S000013795_20230331.csv',
      'MFS_TB_S000013795_20230331.csv',
    ]);
    expect(await names({ sorting: [{ field: 'fileName', order: 'desc' }], pagination: { limit: 1 }, offset: 1 })).toEqual([
      'MFS_PRICES_S000013795_20230331.csv',
    ]);
    const page = (await api.post('import/list', { filters: { status: ['Awaiting'] }, pagination: { limit: 2 } }, token)).body.payload;
    expect(page.pagination).toEqual({ offset: 0, limit: 2, count: 3 });
    expect((await api.post('import/list', { filters: { status: ['Error'] } }, token)).body.payload.pagination.count).toBe(0);
    const bad = await api.post('import/list', { sorting: [{ field: 'sha256', order: 'asc' }] }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Cannot sort import files by 'sha256': use one of administrator, fileName, type, subType, status, created_at");
  });

  it('needs an administrator and refuses empty files', async () => {
    await expect(importFile(ctx, { administratorCode: '', fileName: 'x.csv', bytes: Buffer.from('a'), userId: null, source: 'cli' })).rejects.toThrow(
      'Choose an administrator before importing files',
    );
    await expect(importFile(ctx, { administratorCode: 'nobody', fileName: 'x.csv', bytes: Buffer.from('a'), userId: null, source: 'cli' })).rejects.toThrow(
      'No administrator with code: nobody',
    );
    await expect(importFile(ctx, { administratorCode: 'demo_test', fileName: 'x.csv', bytes: Buffer.alloc(0), userId: null, source: 'cli' })).rejects.toThrow(
      'x.csv: the file is empty',
    );
  });

  it('answers an over-size upload with the file-too-large response', async () => {
    const small = await createTestContext({ maxUploadBytes: 1024 });
    try {
      const form = new FormData();
      form.append('administrator', 'demo_test');
      form.append(
        'upload',
        new Blob([readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'))]),
        'holdings.csv',
      );
      const res = await apiClient(small).call('POST', 'import/files', { token: await sessionToken(small, small.boot.admin.id), body: form });
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('File upload failed. File size limit has been reached 1024B');
    } finally {
      await small.dispose();
    }
  });
});

describe('inbox sweeper', () => {
  it('imports a file dropped in the TPA folder once its size is stable, logs it and moves it aside', async () => {
    const sweeper = new Sweeper(ctx);
    await sweeper.prepareFolders();
    const dir = join(inboxDir(ctx), 'meridian_fund_services');
    copyFileSync(tb, join(dir, 'MFS_TB.csv'));
    expect(await sweeper.sweep()).toEqual([]); // first sight: maybe still being written
    const ids = await sweeper.sweep();
    expect(ids).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['.swept']);
    expect(readdirSync(join(dir, '.swept'))[0]).toMatch(/-MFS_TB\.csv$/);
    const swept = (await listSweptFiles(ctx)).rows;
    expect(swept).toEqual([expect.objectContaining({ original_file_name: 'MFS_TB.csv', tpa: 'Meridian Fund Services', import_file_id: ids[0] })]);
    expect((await listImports(ctx)).rows[0]).toMatchObject({ fileName: 'MFS_TB.csv', source: 'sweeper', status: 'Awaiting' });
  });

  it('ignores folders of unknown TPAs', async () => {
    const stray = join(inboxDir(ctx), 'not_a_tpa');
    mkdirSync(stray, { recursive: true });
    copyFileSync(tb, join(stray, 'x.csv'));
    const sweeper = new Sweeper(ctx);
    await sweeper.sweep();
    expect(await sweeper.sweep()).toEqual([]);
    expect(existsSync(join(stray, 'x.csv'))).toBe(true);
  });
});
