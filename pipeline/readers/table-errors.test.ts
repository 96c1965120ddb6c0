/** readTables on files it cannot read: the limit, unreadable files, zip bombs, empty workbooks. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { FileTooLargeError, IDENTIFICATION_LIMIT_BYTES, MAX_PART_BYTES, readTables } from './table.js';
import { fixture, KEYSTONE, opts, read, xlsx, edit, unreadable } from '../testing/tables.js';
import { unzipAll, zipFiles } from '../testing/zips.js';

describe('readTables errors', () => {
  it('rejects files over the limit with the spec message', async () => {
    const big = new Uint8Array(IDENTIFICATION_LIMIT_BYTES + 1);
    await expect(readTables('big.csv', big, opts)).rejects.toThrow(FileTooLargeError);
    await expect(readTables('big.csv', big, opts)).rejects.toThrow(
      'big.csv is 10000001 bytes; identification reads at most 10000000 bytes (10,000,000 by default)',
    );
    await expect(readTables('small.csv', Buffer.from('a,b\n1,2\n'), { limitBytes: 5 })).rejects.toThrow(
      'small.csv is 8 bytes; identification reads at most 5 bytes',
    );
    await expect(readTables('big.xlsx', Buffer.concat([fixture(KEYSTONE), Buffer.alloc(IDENTIFICATION_LIMIT_BYTES)]), opts)).rejects.toThrow(FileTooLargeError);
    expect((await read('exact.csv', Buffer.from('a,b\n'.padEnd(IDENTIFICATION_LIMIT_BYTES, ' '))))[0].header).toEqual(['a', 'b']);
  });

  it.each([
    ['empty.csv', Buffer.alloc(0), /^the file is empty$/],
    ['blank.csv', Buffer.from('\r\n  \r\n'), /holds no data/],
    ['old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), /legacy Excel 97-2003/],
    ['old.xlsx', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), /legacy Excel 97-2003/],
    ['broken.xlsx', Buffer.from('this is not a zip'), /^it is not a readable xlsx workbook \(.*end of central directory/i],
    ['fake.bin', Buffer.from('PK\u0003\u0004 not really a zip'), /^it is not a readable xlsx workbook \(.*end of central directory/i],
    ['truncated.xlsx', fixture(KEYSTONE).subarray(0, fixture(KEYSTONE).length - 100), /^it is not a readable xlsx workbook \(.*file is truncated/],
    ['image.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3, 0, 0, 0]), /binary data/],
    ['unclosed-quote.csv', fixture('fund-requests/encodings/unclosed-quote.csv'), /^Quote Not Closed.*line 4/],
  ])('%s is unreadable', async (name, bytes, reason) => {
    expect(await unreadable(name, bytes)).toMatch(reason);
    await expect(readTables(name, bytes, opts)).rejects.toThrow(`${name} cannot be read: `);
  });

  it('rejects an encrypted package, a zip without a workbook and a package exceljs cannot lay out', async () => {
    const encrypted = Buffer.from(fixture(KEYSTONE));
    for (let i = 0; i + 4 <= encrypted.length; i++) {
      // set the "encrypted" flag of every entry
      const signature = encrypted.readUInt32LE(i);
      if (signature === 0x04034b50) encrypted.writeUInt16LE(encrypted.readUInt16LE(i + 6) | 1, i + 6);
      if (signature === 0x02014b50) encrypted.writeUInt16LE(encrypted.readUInt16LE(i + 8) | 1, i + 8);
    }
    expect(await unreadable('locked.xlsx', encrypted)).toMatch(/^it is not a readable xlsx workbook \(Encrypted zip/);
    const csvZip = await zipFiles(new Map([['data.csv', 'a,b\n1,2\n']]));
    expect(await unreadable('data.zip', csvZip)).toBe(
      'it is not a readable xlsx workbook (the zip archive holds no spreadsheet workbook (is it an xlsx file?))',
    );
    // exceljs reads the standard part names and unprefixed elements only
    const prefixed = await edit(fixture(KEYSTONE), async (zip, text) => {
      zip.set('xl/workbook.xml', (await text('xl/workbook.xml')).replace(/<(\/?)(?=[a-zA-Z])(?!\w+:)/g, '<$1x:').replace('xmlns=', 'xmlns:x='));
    });
    expect(await unreadable('prefixed.xlsx', prefixed)).toMatch(/^it is not a readable xlsx workbook \(its workbook XML cannot be read/);
  });

  it(`refuses a part inflating past ${MAX_PART_BYTES} bytes (zip bomb) without inflating it whole`, async () => {
    const zip: Map<string, Buffer | string> = await unzipAll(fixture(KEYSTONE));
    zip.set('xl/media/padding.xml', ' '.repeat(MAX_PART_BYTES + 1));
    const bomb = await zipFiles(zip, { level: 1 });
    expect(bomb.length).toBeLessThan(2_000_000);
    expect(await unreadable('bomb.xlsx', bomb)).toBe(`it is not a readable xlsx workbook (xl/media/padding.xml inflates to more than ${MAX_PART_BYTES} bytes)`);
  });

  it('rejects a workbook without data', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sheet1');
    expect(await unreadable('none.xlsx', await xlsx(wb))).toBe('no worksheet of the workbook holds any data');
  });
});
