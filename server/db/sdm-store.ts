/**
 * Standardized SDM rows in the database: written and read in chunks (`sdm_chunks`, the format of
 * pipeline/sdm/row-chunks.ts), one statement a chunk. The standardization stage writes them; the
 * calculations, the work paper, exports and Db push read them back in file and line order.
 */
import type Database from 'better-sqlite3';
import { ChunkEncoder, decodeChunk, type EncodedChunk, type StoredRow } from '../../pipeline/sdm/row-chunks.js';

/**
 * A writer of one standardization file's rows: `add` keeps a row (a chunk is inserted when it
 * fills), `flush` inserts the open chunk (call it before the transaction commits).
 * @param sqlite the write connection (inside the caller's transaction)
 * @param fundFileId the standardization (or staging) file the rows belong to
 * @param sdmType the SDM type of the rows
 * @param opts.oneShape every row of a file has the same columns in the same order (a standardizer's)
 */
export function sdmRowWriter(sqlite: Database.Database, fundFileId: number, sdmType: string, opts: { oneShape?: boolean } = {}) {
  const insert = sqlite.prepare('INSERT INTO sdm_chunks (fund_file_id, sdm_type, first_line, last_line, row_count, data) VALUES (?, ?, ?, ?, ?, ?)');
  const encoder = new ChunkEncoder(undefined, opts.oneShape);
  const put = (c: EncodedChunk | null) => {
    if (c) insert.run(fundFileId, sdmType, c.firstLine, c.lastLine, c.rowCount, c.data);
  };
  return {
    add(row: StoredRow): void {
      put(encoder.add(row));
    },
    flush(): void {
      put(encoder.flush());
    },
  };
}

/**
 * The rows of some standardization files, file by file in line order, one chunk in memory at a
 * time. No statement stays open between chunks (each chunk is fetched by its id), so a reader may
 * await between rows (the work paper waits for its zip) while the same connection writes (lease
 * renewals).
 * @param fileIds standardization file ids, read in this order
 * @param sdmType only chunks of this SDM type (all when absent)
 * @throws Error when a file's rows are replaced while they are read (a new standardization
 *   committed in between: its own calculations follow)
 */
export function* readSdmRows<T = StoredRow>(sqlite: Database.Database, fileIds: number[], sdmType?: string): Generator<T> {
  const ids = sdmType
    ? sqlite.prepare('SELECT id FROM sdm_chunks WHERE fund_file_id = ? AND sdm_type = ? ORDER BY first_line, id').pluck()
    : sqlite.prepare('SELECT id FROM sdm_chunks WHERE fund_file_id = ? ORDER BY first_line, id').pluck();
  const chunk = sqlite.prepare('SELECT data FROM sdm_chunks WHERE id = ?').pluck();
  for (const fileId of fileIds) {
    const chunkIds = (sdmType ? ids.all(fileId, sdmType) : ids.all(fileId)) as number[];
    for (const id of chunkIds) {
      const data = chunk.get(id) as string | undefined;
      if (data === undefined) throw new Error(`The standardized rows of file ${fileId} were replaced while they were read (a new standardization)`);
      yield* decodeChunk<T>(data);
    }
  }
}

/** Number of rows stored for some standardization files (counted from the chunks, no row read). */
export function countSdmRows(sqlite: Database.Database, fileIds: number[]): number {
  const stmt = sqlite.prepare('SELECT coalesce(sum(row_count), 0) FROM sdm_chunks WHERE fund_file_id = ?').pluck();
  return fileIds.reduce((n, id) => n + (stmt.get(id) as number), 0);
}
