import { describe, expect, it } from 'vitest';
import { ChunkEncoder, decodeChunk, type EncodedChunk, type StoredRow } from './row-chunks.js';

const holding = (line: number, file = 'MFS_HOLDINGS_S000013795_20230331.csv'): StoredRow => ({
  file,
  line,
  security_id: `US3138W7WP${line}`,
  security_name: 'Fannie Mae Pool',
  quantity: 13415.85 + line,
  cost_base: null,
});

/** Encodes rows, collecting every chunk closed on the way and the last one. */
function encode(rows: StoredRow[], perChunk: number): EncodedChunk[] {
  const enc = new ChunkEncoder(perChunk);
  const out: EncodedChunk[] = [];
  for (const r of rows) {
    const c = enc.add(r);
    if (c) out.push(c);
  }
  const last = enc.flush();
  if (last) out.push(last);
  return out;
}

describe('SDM row chunks', () => {
  it('reads back every row with its values, line ranges and counts per chunk', () => {
    const rows = Array.from({ length: 7 }, (_, i) => holding(i + 5));
    const chunks = encode(rows, 3);
    expect(chunks.map((c) => [c.firstLine, c.lastLine, c.rowCount])).toEqual([
      [5, 7, 3],
      [8, 10, 3],
      [11, 11, 1],
    ]);
    expect(chunks.flatMap((c) => decodeChunk(c.data))).toEqual(rows);
  });

  it('starts a new chunk when the file or the columns change, and keeps what each row had', () => {
    const other = { file: 'MFS_TB_S000013795_20230331.csv', line: 2, account_code: '1000', balance_base: -5 };
    const reordered = { line: 3, file: 'MFS_TB_S000013795_20230331.csv', balance_base: 7, account_code: '2000' };
    const rows = [holding(5), holding(6, 'second.csv'), other, reordered];
    const chunks = encode(rows, 1000);
    expect(chunks).toHaveLength(4);
    expect(chunks.flatMap((c) => decodeChunk(c.data))).toEqual(rows);
  });

  it('says so when the stored text is not a chunk', () => {
    expect(() => decodeChunk('{"security_id":"X"}')).toThrow('not a row chunk');
  });
});
