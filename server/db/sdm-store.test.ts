import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { insertFund, insertFundFile } from '../testing/fund-factory.js';
import { describeEachDialect, openDialectDatabase, type DialectDatabase } from '../testing/dialects.js';
import { storeOf } from './dialect.js';
import { countSdmRows, readSdmChunks, sdmRowWriter } from './sdm-store.js';
import { transaction } from './tx.js';

const ROWS = 2_500;

type Row = { file: string; line: number; security_id: string; market_value_base: number; cost_base: number | null; rated: boolean; note: string };

const row = (i: number): Row => ({
  file: 'MFS_HOLDINGS.csv',
  line: i + 5,
  security_id: `US${i}`,
  market_value_base: i * 1.25,
  cost_base: i % 3 ? null : -i / 7,
  rated: i % 2 === 0,
  note: i === 7 ? 'Quoted "text", é, 日本' : '',
});

async function readAll<T>(ctx: AppContext, ids: number[], sdmType?: string): Promise<{ rows: T[]; chunks: number[] }> {
  const rows: T[] = [];
  const chunks: number[] = [];
  for await (const chunk of readSdmChunks<T>(ctx, ids, sdmType)) {
    chunks.push(chunk.length);
    for (const r of chunk) rows.push(r);
  }
  return { rows, chunks };
}

describeEachDialect('standardized rows in the database', (dialect) => {
  let d: DialectDatabase;
  let fundId: number;
  let fileId: number;
  let otherId: number;

  beforeAll(async () => {
    d = await openDialectDatabase(dialect);
    fundId = (await insertFund(d.ctx)).id;
    fileId = await insertFundFile(d.ctx, fundId, { kind: 'standardization', fileType: 'holdings', fileName: 'holdings.csv', status: 'done' });
    otherId = await insertFundFile(d.ctx, fundId, { kind: 'standardization', fileType: 'prices', fileName: 'prices.csv', status: 'done' });
    const w = sdmRowWriter(d.ctx, fileId, 'holdings');
    await transaction(d.ctx, async () => {
      for (let i = 0; i < ROWS; i++) w.add(row(i));
      await w.flush();
    });
    const p = sdmRowWriter(d.ctx, otherId, 'prices', { oneShape: true });
    for (let i = 0; i < 3; i++) p.add({ file: 'prices.csv', line: i + 2, security_id: `US${i}`, price: 100 + i });
    await p.flush();
  });
  afterAll(() => d.dispose());

  it('reads every row back in line order, a chunk of 1,000 rows at a time, with the values written', async () => {
    const { rows, chunks } = await readAll<Row>(d.ctx, [fileId], 'holdings');
    expect(chunks).toEqual([1000, 1000, 500]);
    expect(rows.map((r) => r.line)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 5));
    expect(rows[1234]).toEqual(row(1234));
    expect(rows[7]).toEqual(row(7));
    expect(rows[1].cost_base).toBeNull();
    expect(typeof rows[0].rated).toBe('boolean');
    expect(await countSdmRows(d.ctx, [fileId])).toBe(ROWS);
    expect(await countSdmRows(d.ctx, [fileId, otherId])).toBe(ROWS + 3);
    expect(await countSdmRows(d.ctx, [])).toBe(0);
  });

  it('reads several files in the order given, and only the chunks of one SDM type when asked', async () => {
    const both = await readAll<Row>(d.ctx, [otherId, fileId]);
    expect(both.rows).toHaveLength(ROWS + 3);
    expect(both.rows[0]).toEqual({ file: 'prices.csv', line: 2, security_id: 'US0', price: 100 });
    expect((await readAll(d.ctx, [otherId, fileId], 'prices')).rows).toHaveLength(3);
  });

  it('lets the same context write while a reader waits between chunks (a lease renewal during a long sheet)', async () => {
    const { db, tables: t } = storeOf(d.ctx);
    let n = 0;
    for await (const chunk of readSdmChunks(d.ctx, [fileId])) {
      n += chunk.length;
      await db
        .update(t.fundFiles)
        .set({ updatedAt: `2024-01-01T00:00:0${n / 500}Z` })
        .where(eq(t.fundFiles.id, fileId));
      // a write of its own transaction too, committed before the next chunk is read
      await transaction(d.ctx, async (tx) => {
        await tx.update(t.fundFiles).set({ rowCount: n }).where(eq(t.fundFiles.id, fileId));
      });
    }
    expect(n).toBe(ROWS);
    const [f] = await db.select().from(t.fundFiles).where(eq(t.fundFiles.id, fileId));
    expect(f.rowCount).toBe(ROWS);
  });

  it('leaves no row behind when the transaction writing them rolls back', async () => {
    const id = await insertFundFile(d.ctx, fundId, { kind: 'staging', fileType: 'holdings', fileName: 'holdings.csv', status: 'processing' });
    const w = sdmRowWriter(d.ctx, id, 'holdings');
    await expect(
      transaction(d.ctx, async () => {
        for (let i = 0; i < 1500; i++) w.add(row(i));
        await w.flush();
        throw new Error('cancelled');
      }),
    ).rejects.toThrow('cancelled');
    expect(await countSdmRows(d.ctx, [id])).toBe(0);
  });

  it('says so when the rows are replaced while they are read', async () => {
    const { db, tables: t } = storeOf(d.ctx);
    const rows = readSdmChunks(d.ctx, [fileId]);
    await rows.next();
    await db.delete(t.sdmChunks).where(eq(t.sdmChunks.fundFileId, fileId));
    await expect(rows.next()).rejects.toThrow(/were replaced while they were read/);
  });
});
