/**
 * Zip archives in tests, with the project's zip libraries (yauzl reads, archiver writes): every
 * file of an archive, and an archive of given files.
 */
import { ZipArchive } from 'archiver';
import yauzl from 'yauzl';

/** Every file of a zip archive by name (folders left out). */
export async function unzipAll(bytes: Uint8Array): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, autoClose: false });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

/**
 * A deflated zip archive of `files` (name -> content), in their order; `level` 0-9 (default 6),
 * `forceZip64` writes zip64 records even for a small archive.
 */
export async function zipFiles(files: Map<string, Buffer | string>, opts: { level?: number; forceZip64?: boolean } = {}): Promise<Buffer> {
  const archive = new ZipArchive({ zlib: { level: opts.level ?? 6 }, forceZip64: opts.forceZip64 });
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const [name, content] of files) archive.append(content, { name });
  await archive.finalize();
  await ended;
  return Buffer.concat(chunks);
}
