/**
 * Standardized SDM rows in the database: written and read in chunks (`sdm_chunks`, the format of
 * pipeline/sdm/row-chunks.ts, docs/decisions/0014-sdm-rows-in-chunks.md). The standardization
 * stage writes them; the calculations, the work paper, exports and Db push read them back in file
 * and line order, a chunk at a time.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 * Chunks are inserted on SQLite with one cached prepared statement (`insert.ts`), on PostgreSQL
 * in multi-row inserts.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { ChunkEncoder, decodeChunk, type EncodedChunk, type StoredRow } from '../../pipeline/sdm/row-chunks.js';
import type { Db } from './client.js';
import { storeOf, type DataStore } from './dialect.js';
import { insertRow } from './insert.js';

/** Chunks one PostgreSQL statement inserts (~200 KB of JSON each). */
const CHUNKS_PER_STATEMENT = 10;

/** A writer of one file's rows (see `sdmRowWriter`). */
export interface SdmRowWriter {
  /** Keeps a row (in the open chunk; a chunk that fills waits for `flush`). */
  add(row: StoredRow): void;
  /** Inserts every chunk not inserted yet, the open one included. */
  flush(): Promise<void>;
}

/**
 * A writer of one standardization file's rows. `add` only encodes (no database work: rows can be
 * made outside any transaction); `flush` inserts the chunks made since the last flush through
 * `storeOf(ctx)`, so inside a `transaction` they are written in it. Chunks wait in memory until
 * then (~200 KB each): flush every few thousand rows.
 * @param fundFileId the standardization (or staging) file the rows belong to
 * @param sdmType the SDM type of the rows
 * @param opts.oneShape every row of a file has the same columns in the same order (a standardizer's)
 */
export function sdmRowWriter(ctx: { db: Db; store?: DataStore }, fundFileId: number, sdmType: string, opts: { oneShape?: boolean } = {}): SdmRowWriter {
  const encoder = new ChunkEncoder(undefined, opts.oneShape);
  let pending: EncodedChunk[] = [];
  return {
    add(row) {
      const c = encoder.add(row);
      if (c) pending.push(c);
    },
    async flush() {
      const last = encoder.flush();
      if (last) pending.push(last);
      const chunks = pending;
      pending = [];
      await insertChunks(storeOf(ctx), fundFileId, sdmType, chunks);
    },
  };
}

/** Inserts chunks: on SQLite one cached prepared statement a chunk, on PostgreSQL multi-row inserts. */
async function insertChunks(store: DataStore, fundFileId: number, sdmType: string, chunks: EncodedChunk[]): Promise<void> {
  const t = store.tables;
  const values = (c: EncodedChunk) => ({ fundFileId, sdmType, firstLine: c.firstLine, lastLine: c.lastLine, rowCount: c.rowCount, data: c.data });
  if (store.dialect === 'sqlite') {
    const sqlite = (store.db as unknown as Db).$client;
    for (const c of chunks) insertRow(sqlite, t.sdmChunks, values(c));
    return;
  }
  for (let i = 0; i < chunks.length; i += CHUNKS_PER_STATEMENT)
    await store.db.insert(t.sdmChunks).values(chunks.slice(i, i + CHUNKS_PER_STATEMENT).map(values));
}

/**
 * The rows of some standardization files, file by file in line order, as chunks (arrays of up to
 * 1,000 rows): iterate the rows of a chunk synchronously, `for await (const chunk of ...) for
 * (const row of chunk)`. One chunk is in memory at a time, and no statement stays open between
 * chunks (each is read by its id), so the reader may await between chunks while the same
 * connection writes (lease renewals).
 * @param fileIds standardization file ids, read in this order
 * @param sdmType only chunks of this SDM type (all when absent)
 * @throws Error when a file's rows are replaced while they are read (a new standardization
 *   committed in between: its own calculations follow)
 */
export async function* readSdmChunks<T = StoredRow>(ctx: { db: Db; store?: DataStore }, fileIds: number[], sdmType?: string): AsyncGenerator<T[]> {
  for (const fileId of fileIds) {
    const { db, tables: t } = storeOf(ctx);
    const c = t.sdmChunks;
    const ids = await db
      .select({ id: c.id })
      .from(c)
      .where(sdmType ? and(eq(c.fundFileId, fileId), eq(c.sdmType, sdmType)) : eq(c.fundFileId, fileId))
      .orderBy(asc(c.firstLine), asc(c.id));
    for (const { id } of ids) {
      const s = storeOf(ctx);
      const [row] = await s.db.select({ data: s.tables.sdmChunks.data }).from(s.tables.sdmChunks).where(eq(s.tables.sdmChunks.id, id));
      if (!row) throw new Error(`The standardized rows of file ${fileId} were replaced while they were read (a new standardization)`);
      yield decodeChunk<T>(row.data);
    }
  }
}

/** Number of rows stored for some standardization files (counted from the chunks, no row read). */
export async function countSdmRows(ctx: { db: Db; store?: DataStore }, fileIds: number[]): Promise<number> {
  if (!fileIds.length) return 0;
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db
    .select({ n: sql<number | string>`coalesce(sum(${t.sdmChunks.rowCount}), 0)` })
    .from(t.sdmChunks)
    .where(inArray(t.sdmChunks.fundFileId, fileIds));
  return Number(row?.n ?? 0);
}
