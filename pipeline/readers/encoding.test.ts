import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText } from './encoding.js';

const sample = 'fundName,notes\nDupree Kentucky,Révision annuelle – 2022\n';

describe('decodeText', () => {
  it.each([
    ['utf-8', Buffer.from(sample, 'utf8')],
    ['utf-8-bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sample, 'utf8')])],
    ['utf-16le', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(sample, 'utf-16le')])],
    ['utf-16be', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(sample, 'utf-16be')])],
    ['windows-1252', iconv.encode(sample, 'windows-1252')],
  ])('reads %s text unchanged', (encoding, bytes) => {
    const decoded = decodeText(bytes);
    expect(decoded.encoding).toBe(encoding);
    expect(decoded.text).toBe(sample);
  });
});
