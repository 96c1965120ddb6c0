/**
 * Text decoding of delivered files (DOMAIN.md 2.2): UTF-8 with or without BOM, UTF-16 LE/BE with
 * BOM, and Windows-1252 for bytes that are not valid UTF-8. iconv-lite does the decoding.
 */
import iconv from 'iconv-lite';

export type DetectedEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: DetectedEncoding;
}

/** Detects the encoding of bytes and decodes them to a string (BOM removed). */
export function decodeText(bytes: Uint8Array): DecodedText {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
    return { text: buf.subarray(3).toString('utf8'), encoding: 'utf-8-bom' };
  }
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return { text: iconv.decode(buf.subarray(2), 'utf-16le'), encoding: 'utf-16le' };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return { text: iconv.decode(buf.subarray(2), 'utf-16be'), encoding: 'utf-16be' };
  // UTF-16 without BOM: many NUL bytes in odd or even positions
  if (buf.length >= 4) {
    let evenNul = 0;
    let oddNul = 0;
    const n = Math.min(buf.length, 4096);
    for (let i = 0; i < n; i++) if (buf[i] === 0) (i % 2 === 0 ? evenNul++ : oddNul++);
    if (oddNul > n / 4 && evenNul === 0) return { text: iconv.decode(buf, 'utf-16le'), encoding: 'utf-16le' };
    if (evenNul > n / 4 && oddNul === 0) return { text: iconv.decode(buf, 'utf-16be'), encoding: 'utf-16be' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), encoding: 'utf-8' };
  } catch {
    return { text: iconv.decode(buf, 'windows-1252'), encoding: 'windows-1252' };
  }
}
