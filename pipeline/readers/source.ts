/**
 * The bytes of a delivered file, whole in memory or in a file on disk, read the same way: a head
 * for format and encoding sniffing, then chunk by chunk, so a reader never needs the whole file
 * in memory (xlsx aside, see `xlsx.ts`).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { CHUNK_BYTES, readChunks } from '../storage.js';

export interface ByteSource {
  /** Size in bytes. */
  readonly size: number;
  /** The first `n` bytes (fewer for a shorter file). */
  head(n: number): Buffer;
  /** The bytes in order, in chunks of up to `CHUNK_BYTES` (64 KiB); a chunk may be reused once the next is asked for. */
  chunks(): Iterable<Buffer>;
  /** The whole content (for formats that cannot be read in pieces). */
  all(): Buffer;
}

/** Bytes already in memory (given out in chunks of `chunkBytes`, as a file would be). */
export function bytesSource(bytes: Uint8Array, chunkBytes = CHUNK_BYTES): ByteSource {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    size: buf.length,
    head: (n) => buf.subarray(0, n),
    *chunks() {
      for (let i = 0; i < buf.length; i += chunkBytes) yield buf.subarray(i, i + chunkBytes);
    },
    all: () => buf,
  };
}

/** A file on disk, read on demand in chunks of `chunkBytes`. */
export function fileSource(path: string, chunkBytes = CHUNK_BYTES): ByteSource {
  return {
    size: statSync(path).size,
    head(n) {
      const fd = openSync(path, 'r');
      try {
        const buf = Buffer.alloc(n);
        return buf.subarray(0, readSync(fd, buf, 0, n, 0));
      } finally {
        closeSync(fd);
      }
    },
    chunks: () => readChunks(path, chunkBytes),
    all: () => readFileSync(path),
  };
}
