/**
 * Content-addressed blob store under `<dataDir>/blobs`: raw imported files, pipeline outputs and
 * export zips. Writes are atomic (temporary file + rename), so a half-written blob is never seen.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PutResult {
  /** sha256 hex of the content, also its key. */
  key: string;
  size: number;
  /** true when identical content was already stored. */
  existed: boolean;
}

export class BlobStore {
  constructor(readonly root: string) {
    mkdirSync(join(root, 'tmp'), { recursive: true });
  }

  /** Absolute path of a blob by key. */
  path(key: string): string {
    if (!/^[a-f0-9]{64}$/.test(key)) throw new Error(`Invalid blob key ${key}`);
    return join(this.root, key.slice(0, 2), key);
  }

  has(key: string): boolean {
    return existsSync(this.path(key));
  }

  /** Stores bytes under their sha256; identical content is stored once. */
  put(data: Buffer | Uint8Array | string): PutResult {
    const buf = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
    const key = createHash('sha256').update(buf).digest('hex');
    const dest = this.path(key);
    if (existsSync(dest)) return { key, size: buf.length, existed: true };
    mkdirSync(join(this.root, key.slice(0, 2)), { recursive: true });
    const tmp = join(this.root, 'tmp', `${key}.${randomBytes(6).toString('hex')}`);
    writeFileSync(tmp, buf);
    renameSync(tmp, dest);
    return { key, size: buf.length, existed: false };
  }

  /** Moves an already written temporary file into the store (for large streamed outputs). */
  adopt(tmpFile: string, key: string): void {
    const dest = this.path(key);
    mkdirSync(join(this.root, key.slice(0, 2)), { recursive: true });
    renameSync(tmpFile, dest);
  }

  /** A fresh path inside the store's tmp folder (same filesystem, so rename is atomic). */
  tmpPath(suffix = ''): string {
    return join(this.root, 'tmp', randomBytes(12).toString('hex') + suffix);
  }

  get(key: string): Buffer {
    return readFileSync(this.path(key));
  }

  size(key: string): number {
    return statSync(this.path(key)).size;
  }
}
