/**
 * Reads the entries of a backup archive from its central directory and streams each one (stored
 * or deflated), so a backup of any size is restored without holding it in memory; zip64 archives
 * (over 4 GiB or 65,535 entries, as archiver writes them) included. yauzl does the reading (the
 * project's one zip reader, docs/decisions); entry sizes are checked while streaming, content by
 * the manifest's hashes.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
  /** Offset of the entry's data (after its local header). */
  dataStart: number;
}

/** Thrown when a file is not a readable zip archive. */
export class BadZipError extends Error {}

/** yauzl's message as a BadZipError (its errors are about the archive's structure). */
function bad(err: unknown): BadZipError {
  return err instanceof BadZipError ? err : new BadZipError((err as Error).message);
}

/**
 * Lists the entries of a zip file.
 * @throws BadZipError when the file is not a zip archive, is truncated or damaged
 */
export async function listZip(file: string): Promise<ZipEntry[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: true });
  } catch (err) {
    throw bad(err);
  }
  try {
    const out: ZipEntry[] = [];
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue; // a folder
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
      out.push({
        name: entry.fileName,
        method: entry.isEncrypted() ? -1 : entry.compressionMethod,
        compressedSize: entry.compressedSize,
        size: entry.uncompressedSize,
        headerOffset: entry.relativeOffsetOfLocalHeader,
        dataStart: fileDataStart,
      });
    }
    return out;
  } catch (err) {
    throw bad(err);
  } finally {
    zip.close();
  }
}

/**
 * The uncompressed bytes of one entry (from `listZip` of the same file) as a stream; the stream
 * fails when the bytes do not have the size the central directory gives.
 * @throws BadZipError for an encrypted entry or an unsupported compression method
 */
export async function openEntry(file: string, entry: ZipEntry): Promise<Readable> {
  if (entry.method !== 0 && entry.method !== 8)
    throw new BadZipError(`entry ${entry.name} ${entry.method < 0 ? 'is encrypted' : `uses compression method ${entry.method}, which is not supported`}`);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  } catch (err) {
    throw bad(err);
  }
  try {
    return await new Promise<Readable>((resolve, reject) =>
      zip.openReadStreamLowLevel(entry.dataStart, entry.compressedSize, 0, entry.compressedSize, entry.method === 8, entry.size, (err, stream) =>
        err ? reject(bad(err)) : resolve(stream),
      ),
    );
  } finally {
    zip.close(); // the file closes once the stream has ended
  }
}
