/**
 * What the pipeline needs of file storage, as interfaces the server's blob store implements
 * (`server/blobs.ts`): reading a stored file in chunks and writing one piece by piece. Also the
 * chunked reading of a file on disk that both sides use.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Bytes read at a time when a file is hashed or streamed: small, so what is made of one chunk (its
 * text, lines, rows) is garbage before the next collection of young objects.
 */
export const CHUNK_BYTES = 64 * 1024;

/** A stored file being written; `commit` stores it under its content hash. */
export interface BlobSink {
  /** Appends text (written as UTF-8). */
  write(text: string): void;
  /** Stores what was written; returns its key (sha256 hex) and size in bytes. */
  commit(): { key: string; size: number };
  /** Throws away what was written (safe after commit). */
  discard(): void;
}

/** Stored files by key: read in chunks, written through sinks. */
export interface BlobAccess {
  has(key: string): boolean;
  /** The file's bytes in chunks of up to `CHUNK_BYTES` (one buffer reused: use a chunk before the next). */
  chunks(key: string): Iterable<Buffer>;
  writer(): BlobSink;
}

/**
 * Reads a file in chunks of up to `chunkBytes`. Each chunk is a view of one reused buffer: use
 * it before asking for the next one.
 */
export function* readChunks(file: string, chunkBytes = CHUNK_BYTES): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) return;
      yield buf.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}
