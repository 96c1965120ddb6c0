// The `crc-32` package's functions over Node's zlib.crc32 (bundled in its place by the
// `nativeCrc32` plugin of bundle-plugins.mjs): CRC-32 (ISO 3309, as zip uses) of bytes, of a
// string's UTF-8 bytes, or of a binary string's bytes, continuing from `seed` (the checksum of the
// data before, 0 at the start). Results are signed 32-bit integers, as crc-32 returns them.
import { crc32 } from 'node:zlib';

/** CRC-32 of a buffer or byte array, continuing from `seed`. */
export const buf = (data, seed) => crc32(ArrayBuffer.isView(data) ? data : Uint8Array.from(data), seed >>> 0) | 0;
/** CRC-32 of a string's UTF-8 bytes, continuing from `seed`. */
export const str = (text, seed) => crc32(text, seed >>> 0) | 0;
/** CRC-32 of a binary string (one byte a character), continuing from `seed`. */
export const bstr = (text, seed) => crc32(Buffer.from(text, 'latin1'), seed >>> 0) | 0;
export const version = 'zlib';
export default { buf, str, bstr, version };
