/**
 * The bundles' stand-in for the `crc-32` package (scripts/native-crc32.mjs, over zlib.crc32): zip
 * entries written by the bundled CLI must carry the checksums crc-32 computes, or every reader
 * refuses the work papers, exports and backups.
 */
import { randomBytes } from 'node:crypto';
import CRC32 from 'crc-32';
import { describe, expect, it } from 'vitest';
import native from '../scripts/native-crc32.mjs';

describe('native crc-32', () => {
  it("gives crc-32's checksums of bytes, continued over chunks as the zip writers feed them", () => {
    for (const size of [0, 1, 7, 64, 1000, 65_536, 1_000_003]) {
      const data = randomBytes(size);
      expect(native.buf(data), `${size} bytes`).toBe(CRC32.buf(data));
      let ours = 0;
      let theirs = 0;
      for (let at = 0; at < size; at += 4093) {
        const part = data.subarray(at, at + 4093);
        ours = native.buf(part, ours) >>> 0;
        theirs = CRC32.buf(part, theirs) >>> 0;
      }
      expect(ours, `${size} bytes in parts`).toBe(theirs);
    }
    // the check value of CRC-32 (ISO 3309): "123456789" -> CBF43926
    expect(native.buf(Buffer.from('123456789')) >>> 0).toBe(0xcbf43926);
    expect(native.buf([1, 2, 255])).toBe(CRC32.buf([1, 2, 255]));
  });

  it("gives crc-32's checksums of texts (UTF-8) and binary strings", () => {
    for (const text of ['', 'Holdings', 'Zürich € 日本', '\u0000\u00ff']) {
      expect(native.str(text), text).toBe(CRC32.str(text));
      expect(native.str(text, 12345), text).toBe(CRC32.str(text, 12345));
    }
    const binary = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
    expect(native.bstr(binary)).toBe(CRC32.bstr(binary));
  });
});
