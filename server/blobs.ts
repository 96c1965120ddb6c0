/**
 * Content-addressed blob store under `blobRoot(config)` (`blobDir`, default `<dataDir>/blobs`): raw imported files, pipeline outputs and
 * export zips. Writes are atomic (temporary file + rename), so a half-written blob is never seen.
 * Temporary files (uploads streamed in, blobs being written) are named after the process writing
 * them (`<host>~<pid>~<start>~...`), so a start can tell those of a killed process from those of a
 * live one (`removeOrphanedTmp`).
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { readChunks, type BlobAccess, type BlobSink } from '../pipeline/storage.js';

export interface PutResult {
  /** sha256 hex of the content, also its key. */
  key: string;
  size: number;
  /** true when identical content was already stored. */
  existed: boolean;
}

/** How long a temporary file nobody can be shown to own is kept (another host's, or an untagged one). */
export const ORPHANED_TMP_MS = 24 * 3_600_000;

/** A process's start time as the kernel counts it (`/proc/<pid>/stat` field 22), or null (gone, or no /proc). */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process `pid` that started at `start` still runs (a pid reused by another process does not count). */
function processLives(pid: number, start: string): boolean {
  if (existsSync('/proc/self/stat')) return processStart(pid) === start;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

/** The name prefix of the temporary files of a process: `<host>~<pid>~<start>~`. */
export function tmpTag(pid: number, start: string, host = HOST): string {
  return `${host}~${pid}~${start}~`;
}

let ownTag: string | undefined;
/** This process's tag (the same in its worker threads). */
const myTag = () => (ownTag ??= tmpTag(process.pid, processStart(process.pid) ?? '0'));

const TAGGED = /^(.+)~(\d+)~(\d+)~/;

export class BlobStore implements BlobAccess {
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
    const tmp = this.tmpPath();
    writeFileSync(tmp, buf);
    renameSync(tmp, dest);
    return { key, size: buf.length, existed: false };
  }

  /**
   * Stores a file's content under its sha256 without holding it in memory: the file is hashed in
   * chunks of `CHUNK_BYTES`, then copied into the store (temporary file + rename).
   */
  putFile(file: string): PutResult {
    const hash = createHash('sha256');
    let size = 0;
    for (const chunk of readChunks(file)) {
      hash.update(chunk);
      size += chunk.length;
    }
    const key = hash.digest('hex');
    const dest = this.path(key);
    if (existsSync(dest)) return { key, size, existed: true };
    mkdirSync(join(this.root, key.slice(0, 2)), { recursive: true });
    const tmp = this.tmpPath();
    copyFileSync(file, tmp);
    renameSync(tmp, dest);
    return { key, size, existed: false };
  }

  /**
   * Stores a file already written to this store's tmp folder and hashed by its writer (an
   * upload streamed to disk): moved in by rename, or removed when identical content exists.
   * @param sha256 hex digest of the file's content, as computed while it was written
   */
  putStaged(tmpFile: string, sha256: string, size: number): PutResult {
    const dest = this.path(sha256);
    if (existsSync(dest)) {
      rmSync(tmpFile, { force: true });
      return { key: sha256, size, existed: true };
    }
    this.adopt(tmpFile, sha256);
    return { key: sha256, size, existed: false };
  }

  /**
   * A blob written piece by piece (text appended as it is produced, hashed on the way), stored
   * under its sha256 by `commit` or thrown away by `discard`. Appends are buffered up to
   * `bufferChars` characters (64 Ki by default), so memory stays flat whatever the blob's size.
   */
  writer(bufferChars = 64 * 1024): BlobWriter {
    return new BlobWriter(this, bufferChars);
  }

  /** Moves an already written temporary file into the store (for large streamed outputs). */
  adopt(tmpFile: string, key: string): void {
    const dest = this.path(key);
    mkdirSync(join(this.root, key.slice(0, 2)), { recursive: true });
    renameSync(tmpFile, dest);
  }

  /** A fresh path inside the store's tmp folder (same filesystem, so rename is atomic), named after this process. */
  tmpPath(suffix = ''): string {
    return join(this.root, 'tmp', myTag() + randomBytes(12).toString('hex') + suffix);
  }

  /**
   * Removes the temporary files left by processes that ended without cleaning up (a server or
   * worker killed mid-upload or mid-write): those of a process of this host that no longer runs,
   * at once; those of other hosts (a shared blob directory) and untagged ones once they have not
   * been written to for `ORPHANED_TMP_MS`. Run at every start.
   * @returns how many files were removed and their bytes
   */
  removeOrphanedTmp(now = Date.now()): { removed: number; bytes: number } {
    const dir = join(this.root, 'tmp');
    const mine = myTag();
    let removed = 0;
    let bytes = 0;
    for (const name of readdirSync(dir)) {
      if (name.startsWith(mine)) continue;
      const file = join(dir, name);
      let size: number;
      let mtimeMs: number;
      try {
        const st = statSync(file);
        if (!st.isFile()) continue;
        ({ size, mtimeMs } = st);
      } catch {
        continue; // moved into the store or removed meanwhile
      }
      const tag = TAGGED.exec(name);
      const orphaned = tag && tag[1] === HOST ? !processLives(Number(tag[2]), tag[3]!) : now - mtimeMs > ORPHANED_TMP_MS;
      if (!orphaned) continue;
      rmSync(file, { force: true });
      removed++;
      bytes += size;
    }
    return { removed, bytes };
  }

  get(key: string): Buffer {
    return readFileSync(this.path(key));
  }

  /**
   * Stores what `write` writes to the stream it is given (a large generated file, e.g. a work
   * paper), hashed on the way into a temporary file and moved in by rename: never whole in memory.
   * @param write writes the content and resolves once it has ended the stream
   * @throws whatever `write` or the disk throws (the temporary file is removed)
   */
  async putStream(write: (out: Writable) => Promise<void>): Promise<PutResult> {
    const tmp = this.tmpPath('.part');
    const hash = createHash('sha256');
    let size = 0;
    const tap = new PassThrough();
    tap.on('data', (c: Buffer) => {
      hash.update(c);
      size += c.length;
    });
    const file = createWriteStream(tmp);
    tap.pipe(file);
    try {
      await write(tap);
      await finished(file);
    } catch (err) {
      tap.destroy();
      file.destroy();
      rmSync(tmp, { force: true });
      throw err;
    }
    return this.putStaged(tmp, hash.digest('hex'), size);
  }

  /** The blob's bytes in chunks of up to `CHUNK_BYTES` (read synchronously, one buffer reused). */
  chunks(key: string): Generator<Buffer> {
    return readChunks(this.path(key));
  }

  size(key: string): number {
    return statSync(this.path(key)).size;
  }
}

/** A blob being written (see `BlobStore.writer`). */
export class BlobWriter implements BlobSink {
  private readonly tmp: string;
  private readonly hash: Hash = createHash('sha256');
  private pending: string[] = [];
  private pendingChars = 0;
  private written = 0;
  private closed = false;

  constructor(
    private readonly store: BlobStore,
    private readonly bufferChars: number,
  ) {
    this.tmp = store.tmpPath('.part');
    writeFileSync(this.tmp, '');
  }

  /** Appends text (written as UTF-8). @throws Error after commit or discard */
  write(text: string): void {
    if (this.closed) throw new Error('The blob was already committed or discarded');
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= this.bufferChars) this.flush();
  }

  private flush(): void {
    if (!this.pending.length) return;
    const buf = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
    this.hash.update(buf);
    appendFileSync(this.tmp, buf);
    this.written += buf.length;
  }

  /** Stores what was written under its sha256 (atomically) and returns its key and size. */
  commit(): PutResult {
    this.flush();
    this.closed = true;
    const key = this.hash.digest('hex');
    if (this.store.has(key)) {
      rmSync(this.tmp, { force: true });
      return { key, size: this.written, existed: true };
    }
    this.store.adopt(this.tmp, key);
    return { key, size: this.written, existed: false };
  }

  /** Throws away what was written. Safe to call more than once, and after commit. */
  discard(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    rmSync(this.tmp, { force: true });
  }
}
