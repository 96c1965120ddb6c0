/**
 * Reading delivered files in chunks: whatever the chunk size, the rows, lines, encoding and
 * errors are those of reading the whole file at once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesSource, fileSource } from './source.js';
import { IDENTIFICATION_LIMIT_BYTES, readTables, streamTables, UnreadableFileError, type RawTable } from './table.js';

const opts = { limitBytes: IDENTIFICATION_LIMIT_BYTES };
const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fa-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file read whole, then in chunks of each size given: every reading must equal the first. */
async function sameInChunks(name: string, bytes: Buffer, sizes = [1, 2, 3, 7, 64, 4096]): Promise<RawTable[]> {
  const whole = await readTables(name, bytes, opts);
  for (const size of sizes) expect(await readTables(name, bytesSource(bytes, size), opts), `chunks of ${size} bytes`).toEqual(whole);
  return whole;
}

describe('reading in chunks', () => {
  it('gives the real Meridian holdings whole, from memory or from disk in small chunks', async () => {
    const bytes = fixture('tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv');
    const file = join(dir, 'holdings.csv');
    writeFileSync(file, bytes);
    const whole = await readTables('holdings.csv', bytes, opts);
    expect(whole[0].rows).toHaveLength(1685);
    expect(await readTables('holdings.csv', fileSource(file, 1000), opts)).toEqual(whole);
    expect(await readTables('holdings.csv', bytesSource(bytes, 333), opts)).toEqual(whole);
  });

  it('keeps a CRLF split between chunks one line break, and a lone CR a break of its own', async () => {
    const [t] = await sameInChunks('crlf.csv', Buffer.from('code;name\r\nA;Alpha\r\n\r\nB;Beta\rC;Gamma\r\n'));
    expect(t.rows).toEqual([
      { line: 2, cells: ['A', 'Alpha'] },
      { line: 4, cells: ['B', 'Beta'] },
      { line: 5, cells: ['C', 'Gamma'] },
    ]);
  });

  it('decodes characters whose bytes are split between chunks, in UTF-8, UTF-16 and Windows-1252', async () => {
    const text = 'fund,name\nF1,Équité Europe €\nF2,日本株式ファンド\n';
    const [utf8] = await sameInChunks('u8.csv', Buffer.from(text));
    expect(utf8.encoding).toBe('utf-8');
    expect(utf8.rows.map((r) => r.cells[1])).toEqual(['Équité Europe €', '日本株式ファンド']);
    const [u16] = await sameInChunks('u16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf16le')]));
    expect([u16.encoding, u16.rows[1].cells[1]]).toEqual(['utf-16le', '日本株式ファンド']);
    // an invalid UTF-8 byte far into the file still makes it Windows-1252 from the first line
    const latin = Buffer.concat([Buffer.from('fund,name\n' + 'F0,plain\n'.repeat(500)), iconv.encode('F1,Équité\n', 'windows-1252')]);
    const [w] = await sameInChunks('w.csv', latin, [7, 4096]);
    expect([w.encoding, w.rows.at(-1)!.cells[1]]).toEqual(['windows-1252', 'Équité']);
  });

  it('keeps quoted line breaks and delimiters inside their cell across chunks, on the line the record starts', async () => {
    const [t] = await sameInChunks('q.csv', Buffer.from('code,note\nA,"two\r\nlines, one cell"\nB,"say ""hi"""\n'));
    expect(t.rows).toEqual([
      { line: 2, cells: ['A', 'two\nlines, one cell'] },
      { line: 4, cells: ['B', 'say "hi"'] },
    ]);
  });

  it('names the line of a quote that never closes, wherever the chunks fall', async () => {
    const bytes = Buffer.from('code,note\nA,"fine"\nB,"never closed\nC,x\n');
    for (const size of [1, 5, 4096]) {
      const err = await readTables('open.csv', bytesSource(bytes, size), opts).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UnreadableFileError);
      expect((err as UnreadableFileError).reason).toBe('Quote Not Closed: the quoted field opened on line 3 is never closed');
    }
  });
});

describe('xlsx read as a stream (large workbooks)', () => {
  const streamed = { ...opts, xlsxStreamAboveBytes: 0 };
  const book = async (fill: (wb: ExcelJS.Workbook) => void) => {
    const wb = new ExcelJS.Workbook();
    fill(wb);
    return Buffer.from(await wb.xlsx.writeBuffer());
  };

  it('gives every Keystone sheet exactly as loading the workbook whole does', async () => {
    const bytes = fixture('tpas/keystone_admin/inputs/KEYSTONE_5493006TF05454RBY690_20221231.xlsx');
    const whole = await readTables('k.xlsx', bytes, opts);
    expect(whole.length).toBeGreaterThan(1);
    expect(await readTables('k.xlsx', bytes, streamed)).toEqual(whole);
  });

  it('keeps dates, the 1904 date system and dated formula results as the whole-workbook reader does', async () => {
    for (const date1904 of [false, true]) {
      const bytes = await book((wb) => {
        wb.properties.date1904 = date1904;
        const ws = wb.addWorksheet('Prices');
        ws.addRow(['Security', 'Date', 'Price']);
        ws.addRow(['US3138W7WP51', new Date(Date.UTC(2023, 2, 31)), 92.929855]);
        const r = ws.addRow(['US0000000000', { formula: 'B2+1', result: new Date(Date.UTC(2023, 3, 1)) }, { formula: 'C2*2', result: 185.85971 }]);
        r.getCell(2).numFmt = 'dd/mm/yyyy';
      });
      const whole = await readTables('p.xlsx', bytes, opts);
      expect(whole[0].rows[1].cells).toEqual(['US0000000000', new Date(Date.UTC(2023, 3, 1)), 185.85971]);
      expect(await readTables('p.xlsx', bytes, streamed), `date1904 ${date1904}`).toEqual(whole);
    }
  });

  it("moves on to the next sheet when a sheet's rows are left unread, and skips empty sheets", async () => {
    const bytes = await book((wb) => {
      const a = wb.addWorksheet('Notes');
      a.addRow(['Note', 'Text']);
      for (let i = 0; i < 500; i++) a.addRow([i, `unread ${i}`]);
      wb.addWorksheet('Empty');
      wb.addWorksheet('Holdings').addRows([
        ['Security', 'Quantity'],
        ['US3138W7WP51', 13415.85],
      ]);
    });
    const seen: Array<[string | null, number]> = [];
    for await (const t of streamTables('b.xlsx', bytesSource(bytes), streamed)) {
      if (t.sheetName !== 'Holdings') {
        seen.push([t.sheetName, -1]);
        continue;
      }
      const rows = [];
      for await (const r of t.rows) rows.push(r);
      seen.push([t.sheetName, rows.length]);
      expect(rows).toEqual([{ line: 2, cells: ['US3138W7WP51', 13415.85] }]);
    }
    expect(seen).toEqual([
      ['Notes', -1],
      ['Holdings', 1],
    ]);
  });

  it('names a damaged workbook as unreadable', async () => {
    const bytes = await book((wb) =>
      wb.addWorksheet('T').addRows([
        ['a', 'b'],
        [1, 2],
      ]),
    );
    const broken = Buffer.concat([bytes.subarray(0, 200), Buffer.alloc(400, 7), bytes.subarray(600)]);
    const err = await readTables('broken.xlsx', broken, streamed).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnreadableFileError);
    expect((err as UnreadableFileError).reason).toMatch(/^it is not a readable xlsx workbook \(/);
  });
});
