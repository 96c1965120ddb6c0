/**
 * Identified input files are written and read back row by row through the blob store: the rows
 * come back as they went in, identical content is stored once, an abandoned file leaves nothing,
 * and files stored in the earlier one-object form are still read.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlobStore } from './blobs.js';
import { IdentifiedFileWriter, readIdentifiedFile } from '../pipeline/readers/identified-file.js';
import type { RawRow } from '../pipeline/readers/table.js';

const dir = mkdtempSync(join(tmpdir(), 'fa-identified-'));
const blobs = new BlobStore(join(dir, 'blobs'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const meta = { file: 'KEYSTONE.xlsx#Holdings', sheetName: 'Holdings', header: ['Fund', 'Date', 'Name'], headerLine: 3 };

describe('identified files', () => {
  it('reads back every row as written, cells of every kind, in chunks', () => {
    const rows: RawRow[] = Array.from({ length: 20_000 }, (_, i) => ({
      line: i + 4,
      cells: ['S000012000', i % 2 ? 45000.5 : null, `Kentucky "Tax-Free" ${i}\nsecond line, é 日本`],
    }));
    const w = new IdentifiedFileWriter(blobs, meta);
    for (const r of rows) w.add(r);
    w.add({ line: 20_004, cells: [new Date(Date.UTC(2022, 11, 31)), 0, ''] });
    expect(w.rowCount).toBe(20_001);
    const key = w.commit();
    const back = readIdentifiedFile(blobs, key);
    expect(back.meta).toEqual(meta);
    const all = [...back.rows];
    expect(all.slice(0, -1)).toEqual(rows);
    // a date cell comes back as ISO text, as identification's JSON always kept it
    expect(all.at(-1)).toEqual({ line: 20_004, cells: ['2022-12-31T00:00:00.000Z', 0, ''] });
  });

  it('stores identical content once, and leaves nothing behind for a discarded file', () => {
    const write = () => {
      const w = new IdentifiedFileWriter(blobs, meta);
      w.add({ line: 4, cells: ['a'] });
      return w;
    };
    const first = write().commit();
    expect(write().commit()).toBe(first);
    const discarded = write();
    discarded.discard();
    discarded.discard();
    expect(readdirSync(join(dir, 'blobs', 'tmp'))).toEqual([]);
  });

  it('reads files kept as one JSON object by earlier versions', () => {
    const { key } = blobs.put(JSON.stringify({ ...meta, rows: [{ line: 4, cells: ['x', 1] }] }));
    const back = readIdentifiedFile(blobs, key);
    expect(back.meta).toEqual(meta);
    expect([...back.rows]).toEqual([{ line: 4, cells: ['x', 1] }]);
  });

  it('names a missing or foreign blob', () => {
    expect(() => readIdentifiedFile(blobs, 'f'.repeat(64))).toThrow('The stored rows of this file (ffffffffffff) are missing from the data directory');
    const { key } = blobs.put('code;name\nA;B\n');
    expect(() => readIdentifiedFile(blobs, key)).toThrow(`Blob ${key.slice(0, 12)} is not an identified input file`);
  });
});

describe('blob store', () => {
  it('stores a file under the sha256 of its content without reading it whole, once', () => {
    const file = join(dir, 'big.csv');
    const content = Buffer.from('x;y\n'.repeat(100_000));
    writeFileSync(file, content);
    const stored = blobs.putFile(file);
    expect(stored).toEqual({ key: createHash('sha256').update(content).digest('hex'), size: content.length, existed: false });
    expect(blobs.get(stored.key).equals(content)).toBe(true);
    expect(blobs.putFile(file).existed).toBe(true);
    expect(blobs.put(content).existed).toBe(true);
  });
});
