/**
 * Reading the files of a test case (its `case.json`, inputs and expected outputs) and the shipped
 * fund-request lists: only files inside an allowed folder (the case's suite folder
 * `<suites>/<administrator code>`, once links are resolved), only regular files (never a pipe, a
 * device or a folder, which could block the run or never end), and none larger than the limit
 * (default the server's `maxUploadBytes`, the largest file an upload may bring). Inputs are read
 * in chunks, asking `between` before each one, so a run stopped or a server shut down meanwhile
 * stops reading at once.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

/** The largest case file read when the caller gives no limit: the default `maxUploadBytes`. */
export const DEFAULT_CASE_FILE_LIMIT = 200 * 1024 * 1024;

/** Chunk size of the input reads (bytes). */
const CHUNK = 1024 * 1024;

/** A case file that may not be read: outside the folder, not a regular file, too large, missing. */
export class CaseFileError extends Error {
  override name = 'CaseFileError';
}

/** What a file is, for the message refusing it. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The real path of `path` when it lies inside the folder `root` (links resolved on both).
 * @param what how messages name the file, e.g. `Input file x.csv`
 * @throws CaseFileError when it is missing or outside the folder
 */
export function pathInside(path: string, root: string, what: string): string {
  let real: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new CaseFileError(`${what} not found: ${path}`);
    throw new CaseFileError(`${what} cannot be read: ${(err as Error).message}`);
  }
  const rel = relative(realRoot, real);
  if (!rel || rel.startsWith('..') || isAbsolute(rel))
    throw new CaseFileError(`${what} (${path}) is outside the suite's folder ${realRoot}: a case reads only files inside its suite's folder`);
  return real;
}

/** Opens a path for reading without following a last link and without waiting on a pipe. */
function openFlags(): number {
  return constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
}

function checkOpened(stat: Stats, path: string, what: string, limit: number): void {
  if (!stat.isFile()) throw new CaseFileError(`${what} (${path}) is ${kindOf(stat)}: a case reads only regular files`);
  if (stat.size > limit) throw new CaseFileError(`${what} (${path}) is ${stat.size} bytes, larger than the limit of ${limit} bytes`);
}

/**
 * Reads a small case file (`case.json`, an expected output, a fund-request list) at once.
 * @param root the folder it must be inside; `limit` the largest size in bytes
 * @throws CaseFileError naming the file and why it was refused
 */
export function readCaseFileSync(path: string, root: string, what: string, limit = DEFAULT_CASE_FILE_LIMIT): Buffer {
  const real = pathInside(path, root, what);
  const fd = openSync(real, openFlags());
  try {
    const stat = fstatSync(fd);
    checkOpened(stat, path, what, limit);
    const buffer = Buffer.alloc(stat.size);
    let filled = 0;
    while (filled < stat.size) {
      const n = readSync(fd, buffer, filled, stat.size - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a case's input file in 1 MB chunks.
 * @param between called before each chunk; throws to stop the read (the run was stopped)
 * @throws CaseFileError naming the file and why it was refused; what `between` throws
 */
export async function readCaseFile(path: string, root: string, what: string, opts: { limit?: number; between?: () => void } = {}): Promise<Buffer> {
  const limit = opts.limit ?? DEFAULT_CASE_FILE_LIMIT;
  const real = pathInside(path, root, what);
  const handle = await open(real, openFlags());
  try {
    const stat = await handle.stat();
    checkOpened(stat, path, what, limit);
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      opts.between?.();
      const chunk = Buffer.alloc(Math.min(CHUNK, limit + 1 - size));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
      if (bytesRead === 0) break;
      size += bytesRead;
      // the file grew past the limit while it was read
      if (size > limit) throw new CaseFileError(`${what} (${path}) is larger than the limit of ${limit} bytes`);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, size);
  } finally {
    await handle.close();
  }
}
