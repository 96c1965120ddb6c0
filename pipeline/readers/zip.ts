/**
 * A minimal synchronous zip reader for xlsx packages (DOMAIN.md 2.2): reads the central
 * directory and inflates single entries on demand with node:zlib. Supports stored and deflated
 * entries; no ZIP64, no encryption, no multi-disk archives (none of which xlsx files use below the
 * 10 MB identification limit). Errors are thrown as `ZipError` with the reason.
 */
import { inflateRawSync } from 'node:zlib';

/** Why a zip archive could not be read. */
export class ZipError extends Error {
  override name = 'ZipError';
}

/** One entry of the central directory. */
interface Entry {
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** Most bytes one entry may inflate to (guards against zip bombs): 256 MiB. */
export const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** True when the bytes start with a zip local file header (`PK\x03\x04`). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * Opens a zip archive held in memory.
 * @returns the entry names and `read(name)` giving an entry's bytes (null when absent)
 * @throws ZipError when the archive is truncated, encrypted, ZIP64 or uses another compression
 */
export function openZip(bytes: Uint8Array): { names: string[]; read(name: string): Buffer | null } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new ZipError('the zip archive is truncated (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) throw new ZipError('ZIP64 archives are not supported');
  const entries = new Map<string, Entry>();
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new ZipError('the zip central directory is damaged');
    const nameLen = buf.readUInt16LE(p + 28);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.set(name, {
      flags: buf.readUInt16LE(p + 8),
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  const read = (name: string): Buffer | null => {
    const e = entries.get(name) ?? entries.get(name.replace(/^\//, ''));
    if (!e) return null;
    if (e.flags & 1) throw new ZipError(`${name} is encrypted`);
    const lp = e.localOffset;
    if (lp + 30 > buf.length || buf.readUInt32LE(lp) !== 0x04034b50) throw new ZipError(`${name}: damaged local header`);
    const start = lp + 30 + buf.readUInt16LE(lp + 26) + buf.readUInt16LE(lp + 28);
    const end = start + e.compressedSize;
    if (end > buf.length) throw new ZipError(`${name} is truncated`);
    const data = buf.subarray(start, end);
    if (e.method === 0) return data;
    if (e.method !== 8) throw new ZipError(`${name} uses an unsupported compression method (${e.method})`);
    try {
      return inflateRawSync(data, { maxOutputLength: MAX_ENTRY_BYTES });
    } catch (err) {
      throw new ZipError(`${name} cannot be inflated: ${(err as Error).message}`);
    }
  };
  return { names: [...entries.keys()], read };
}
