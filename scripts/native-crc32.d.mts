/** Types of scripts/native-crc32.mjs (the `crc-32` package's functions over zlib.crc32, for the bundles). */

/** CRC-32 of a buffer or byte array, continuing from `seed`; a signed 32-bit integer. */
export function buf(data: Uint8Array | number[], seed?: number): number;
/** CRC-32 of a string's UTF-8 bytes, continuing from `seed`; a signed 32-bit integer. */
export function str(text: string, seed?: number): number;
/** CRC-32 of a binary string (one byte a character), continuing from `seed`; a signed 32-bit integer. */
export function bstr(text: string, seed?: number): number;
export const version: string;
declare const crc32: { buf: typeof buf; str: typeof str; bstr: typeof bstr; version: string };
export default crc32;
