/**
 * Text decoding of delivered files (DOMAIN.md 2.2): UTF-8 with or without BOM, UTF-16 LE/BE with
 * BOM, and Windows-1252 for bytes that are not valid UTF-8. iconv-lite does the decoding.
 */
import iconv from 'iconv-lite';
import { bytesSource, type ByteSource } from './source.js';

export type DetectedEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: DetectedEncoding;
}

/**
 * Detects the encoding of bytes (`sniffEncoding`) and decodes them to a string (BOM removed, line
 * breaks as they are).
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const src = bytesSource(bytes, Math.max(1, bytes.byteLength));
  const sniffed = sniffEncoding(src);
  return { text: [...decodeChunks(src, sniffed, { normalizeBreaks: false })].join(''), encoding: sniffed.encoding };
}

/** What `sniffEncoding` found. */
export interface SniffedEncoding {
  encoding: DetectedEncoding;
  /** Bytes of the byte-order mark at the start (0 without one). */
  bomBytes: number;
  /** Whether a double quote may occur (decides between a plain line split and a CSV parser). */
  hasQuotes: boolean;
}

/**
 * Detects the encoding of a file read in chunks, with the rules of `decodeText`: a BOM, then
 * UTF-16 by NUL bytes in the first 4,096 bytes, then UTF-8 when every byte sequence is valid
 * (checked over the whole file, chunk by chunk), else Windows-1252. Also tells whether any
 * double quote occurs (always true for UTF-16, where the byte test does not apply).
 */
export function sniffEncoding(src: ByteSource): SniffedEncoding {
  const head = src.head(4096);
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8-bom', bomBytes: 3, hasQuotes: anyQuote(src) };
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2, hasQuotes: true };
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2, hasQuotes: true };
  if (head.length >= 4) {
    let evenNul = 0;
    let oddNul = 0;
    for (let i = 0; i < head.length; i++) if (head[i] === 0) i % 2 === 0 ? evenNul++ : oddNul++;
    if (oddNul > head.length / 4 && evenNul === 0) return { encoding: 'utf-16le', bomBytes: 0, hasQuotes: true };
    if (evenNul > head.length / 4 && oddNul === 0) return { encoding: 'utf-16be', bomBytes: 0, hasQuotes: true };
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let hasQuotes = false;
  try {
    for (const chunk of src.chunks()) {
      decoder.decode(chunk, { stream: true });
      if (!hasQuotes && chunk.includes(0x22)) hasQuotes = true;
    }
    decoder.decode();
    return { encoding: 'utf-8', bomBytes: 0, hasQuotes };
  } catch {
    return { encoding: 'windows-1252', bomBytes: 0, hasQuotes: anyQuote(src) };
  }
}

function anyQuote(src: ByteSource): boolean {
  for (const chunk of src.chunks()) if (chunk.includes(0x22)) return true;
  return false;
}

const ICONV_NAMES: Record<DetectedEncoding, string> = {
  'utf-8': 'utf8',
  'utf-8-bom': 'utf8',
  'utf-16le': 'utf16le',
  'utf-16be': 'utf16be',
  'windows-1252': 'windows1252',
};

/**
 * The text of a file in chunks, decoded from `encoding` (the BOM skipped) with line breaks
 * normalised to `\n` (`\r\n` and a lone `\r` alike; a `\r` at the end of a chunk waits for the
 * next one, so a `\r\n` split between chunks stays one break), unless `normalizeBreaks` is false.
 */
export function* decodeChunks(
  src: ByteSource,
  sniffed: Pick<SniffedEncoding, 'encoding' | 'bomBytes'>,
  opts: { normalizeBreaks?: boolean } = {},
): Generator<string> {
  const decoder = iconv.getDecoder(ICONV_NAMES[sniffed.encoding], { stripBOM: false });
  let skip = sniffed.bomBytes;
  let held = '';
  const normalize = (t: string): string => {
    if (opts.normalizeBreaks === false) return t;
    t = held + t;
    held = '';
    if (t.endsWith('\r')) {
      held = '\r';
      t = t.slice(0, -1);
    }
    return t.includes('\r') ? t.replace(/\r\n?/g, '\n') : t;
  };
  for (let chunk of src.chunks()) {
    if (skip) {
      const n = Math.min(skip, chunk.length);
      chunk = chunk.subarray(n);
      skip -= n;
    }
    const t = normalize(decoder.write(chunk));
    if (t) yield t;
  }
  const t = normalize(decoder.end() ?? '') + (held ? '\n' : '');
  if (t) yield t;
}
