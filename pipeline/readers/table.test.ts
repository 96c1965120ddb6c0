import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { detectDelimiter, FileTooLargeError, findHeader, IDENTIFICATION_LIMIT_BYTES, readTables, UnreadableFileError, type RawTable } from './table.js';

const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
const opts = { limitBytes: IDENTIFICATION_LIMIT_BYTES };
const read = (name: string, text: string | Buffer) => readTables(name, typeof text === 'string' ? Buffer.from(text) : text, opts);
const one = (name: string, text: string | Buffer): RawTable => {
  const tables = read(name, text);
  expect(tables).toHaveLength(1);
  return tables[0];
};

describe('readTables on CSV', () => {
  it('finds the Meridian header below the title lines, with real line numbers', () => {
    const t = one('MFS_HOLDINGS.csv', fixture('tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'));
    expect(t).toMatchObject({ file: 'MFS_HOLDINGS.csv', sheetName: null, encoding: 'utf-8', delimiter: ';', headerLine: 4 });
    expect(t.header).toEqual(['Portfolio', 'Valuation Date', 'Sec ID', 'Sec ID Type', 'Security Description', 'Asset Class', 'Nominal', 'Price', 'Price Ccy', 'FX Rate', 'Market Value Local', 'Market Value USD', 'Country']);
    expect(t.rows).toHaveLength(1685);
    expect(t.rows[0]).toEqual({ line: 5, cells: ['S000013795', '31/03/2023', 'US3138W7WP51', 'ISIN', 'Fannie Mae Pool', 'ABS-MBS', '13.415,85', '92,929855', 'USD', '1', '12.467,33', '12.467,33', 'US'] });
    expect(t.rows.at(-1)!.line).toBe(1689);
  });

  it('finds the capital report header under two title lines; the TB keeps its commas inside names', () => {
    const cap = one('cap.csv', fixture('tpas/meridian_fund_services/inputs/MFS_CAPITAL_S000013795_20230331.csv'));
    expect([cap.headerLine, cap.rows.length, cap.rows[0].line]).toEqual([3, 11, 4]);
    expect(cap.rows[0].cells).toEqual(['S000013795', '31/03/2023', 'ALL', 'Opening Units', '356.409.117,37', null, null]);
    const tb = one('tb.csv', fixture('tpas/meridian_fund_services/inputs/MFS_TB_S000013795_20230331.csv'));
    expect([tb.delimiter, tb.headerLine, tb.rows.length]).toEqual([';', 4, 8]);
    expect(tb.rows[0].cells[3]).toBe('Investments in securities, at value');
  });

  it('reads the demo TPA plain CSV with the header on line 1', () => {
    const t = one('demo_holdings.csv', fixture('tpas/demo_test/inputs/demo_holdings.csv'));
    expect([t.delimiter, t.headerLine, t.rows.length, t.rows[0].line]).toEqual([',', 1, 55, 2]);
  });

  it.each([
    ['real-funds.utf8-bom.csv', 'utf-8-bom'],
    ['real-funds.utf16le-bom.csv', 'utf-16le'],
    ['real-funds.windows-1252.csv', 'windows-1252'],
  ])('reads %s (%s) like the UTF-8 original', (file, encoding) => {
    const original = one('real-funds.csv', fixture('fund-requests/real-funds.csv'));
    const t = one(file, fixture(`fund-requests/encodings/${file}`));
    expect(t.encoding).toBe(encoding);
    expect(t.header[0]).toBe('fundName');
    expect(t.header).toEqual(original.header);
    expect(t.rows.map((r) => r.cells)).toEqual(original.rows.map((r) => r.cells));
    expect(t.rows.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    const notes = t.rows[0].cells[t.header.indexOf('notes')];
    expect(notes).toMatch(/^Révision – données réelles/);
  });

  it('reads UTF-16 and Windows-1252 semicolon reports', () => {
    const text = 'Rapport de données\r\nPortefeuille;Date;Montant\r\nF1;31/03/2023;1.234,50\r\nF2;31/03/2023;-2,00\r\n';
    for (const [bytes, enc] of [
      [Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]), 'utf-16le'],
      [iconv.encode(text, 'windows-1252'), 'windows-1252'],
    ] as const) {
      const t = one('r.csv', bytes);
      expect([t.encoding, t.delimiter, t.headerLine, t.header]).toEqual([enc, ';', 2, ['Portefeuille', 'Date', 'Montant']]);
      expect(t.rows).toEqual([{ line: 3, cells: ['F1', '31/03/2023', '1.234,50'] }, { line: 4, cells: ['F2', '31/03/2023', '-2,00'] }]);
    }
  });

  it('keeps quoted delimiters and line breaks; line numbers count physical lines; blank lines are skipped', () => {
    const text = 'Report, with a comma\r\n\r\nid,name,amount\r\n1,"Smith, J.",10\r\n\r\n2,"two\r\nlines",20\r\n ;\r\n3,plain,30';
    const t = one('q.csv', text);
    expect([t.delimiter, t.headerLine, t.header]).toEqual([',', 3, ['id', 'name', 'amount']]);
    expect(t.rows).toEqual([
      { line: 4, cells: ['1', 'Smith, J.', '10'] },
      { line: 6, cells: ['2', 'two\nlines', '20'] },
      { line: 8, cells: [' ;'] },
      { line: 9, cells: ['3', 'plain', '30'] },
    ]);
  });

  it('the quote-free fast path gives what csv-parse gives', () => {
    const text = 'T\n\na|b|c\n1||3\n||\n 4 |5\n6|7|8|9\n';
    const fast = one('f.txt', text);
    const parsed = one('f.txt', `${text}"x"|y|z\n`);
    expect(parsed.rows.slice(0, -1)).toEqual(fast.rows);
    expect(fast.rows).toEqual([
      { line: 4, cells: ['1', null, '3'] },
      { line: 6, cells: [' 4 ', '5'] },
      { line: 7, cells: ['6', '7', '8', '9'] },
    ]);
  });

  it('detects the delimiter by the most consistent field count, ignoring quoted text', () => {
    expect(detectDelimiter('a;b;c\n1;2,5;3\n4;5,5;6\n')).toBe(';');
    expect(detectDelimiter('a\tb\tc\n"x;y;z"\t2\t3\n')).toBe('\t');
    expect(detectDelimiter('a|b\n1|2\n')).toBe('|');
    expect(detectDelimiter('"a,b,c";d\n"e,f,g";h\n')).toBe(';');
    expect(detectDelimiter('single column\nvalue\n')).toBe(',');
  });

  it('takes the first row as header when no row looks like one', () => {
    const t = one('n.csv', '1,2,3\n4,5,6\n');
    expect([t.headerLine, t.header, t.rows.length]).toEqual([1, ['1', '2', '3'], 1]);
    expect(findHeader([{ line: 1, cells: ['Title'] }, { line: 2, cells: ['a', 'b'] }, { line: 3, cells: ['1', '2'] }])).toBe(1);
  });
});

describe('readTables on xlsx', () => {
  it('reads each Keystone sheet as a table, numbers and dates native', () => {
    const tables = read('KEYSTONE.xlsx', fixture('tpas/keystone_admin/inputs/KEYSTONE_5493006TF05454RBY690_20221231.xlsx'));
    expect(tables.map((t) => [t.file, t.sheetName, t.headerLine, t.rows.length])).toEqual([
      ['KEYSTONE.xlsx#GL Balances', 'GL Balances', 1, 4],
      ['KEYSTONE.xlsx#Portfolio Valuation', 'Portfolio Valuation', 1, 55],
      ['KEYSTONE.xlsx#Capital Stock Activity', 'Capital Stock Activity', 1, 11],
      ['KEYSTONE.xlsx#Security Prices', 'Security Prices', 1, 55],
    ]);
    expect(tables[0].header).toEqual(['Fund ID', 'As Of Date', 'Account Number', 'Account Title', 'Currency', 'Balance (Local)', 'Balance (Base)']);
    expect(tables[0].rows[0]).toEqual({ line: 2, cells: ['5493006TF05454RBY690', new Date('2022-12-31T00:00:00Z'), '1100-000', 'Investments in securities at market value', 'USD', 40455026.7, 40455026.7] });
    expect(tables.every((t) => t.encoding === null && t.delimiter === null)).toBe(true);
  });

  it('finds a header below title rows in a sheet, skips empty sheets, detects xlsx by its bytes', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Empty');
    const ws = wb.addWorksheet('Positions');
    ws.getCell('A1').value = 'Positions report';
    ws.getCell('A2').value = new Date(Date.UTC(2023, 2, 31));
    ws.addRow([]);
    ws.addRow(['Fund', 'Security', 'Value']);
    ws.addRow(['F1', 'S1', 10]);
    ws.addRow(['F1', 'S2', 20]);
    const tables = read('positions.bin', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(tables.map((t) => [t.file, t.headerLine, t.header, t.rows])).toEqual([
      ['positions.bin#Positions', 4, ['Fund', 'Security', 'Value'], [{ line: 5, cells: ['F1', 'S1', 10] }, { line: 6, cells: ['F1', 'S2', 20] }]],
    ]);
  });
});

describe('readTables errors', () => {
  it('rejects files over the limit with the spec message', () => {
    const big = new Uint8Array(IDENTIFICATION_LIMIT_BYTES + 1);
    expect(() => readTables('big.csv', big, opts)).toThrow(FileTooLargeError);
    expect(() => readTables('big.csv', big, opts)).toThrow('big.csv is 10000001 bytes; identification reads at most 10000000 bytes (10,000,000 by default)');
    expect(() => readTables('small.csv', Buffer.from('a,b\n1,2\n'), { limitBytes: 5 })).toThrow('small.csv is 8 bytes; identification reads at most 5 bytes');
    expect(read('exact.csv', Buffer.from('a,b\n'.padEnd(IDENTIFICATION_LIMIT_BYTES, ' ')))[0].header).toEqual(['a', 'b']);
  });

  it.each([
    ['empty.csv', Buffer.alloc(0), /empty\.csv cannot be read: the file is empty/],
    ['blank.csv', Buffer.from('\r\n  \r\n'), /holds no data/],
    ['old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), /legacy Excel 97-2003/],
    ['broken.xlsx', Buffer.from('this is not a zip'), /broken\.xlsx cannot be read: it is not a readable xlsx workbook/],
    ['image.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3, 0, 0, 0]), /binary data/],
    ['unclosed-quote.csv', fixture('fund-requests/encodings/unclosed-quote.csv'), /unclosed-quote\.csv cannot be read: Quote Not Closed.*line 4/],
  ])('%s is unreadable', (name, bytes, message) => {
    let error: unknown;
    try {
      readTables(name, bytes, opts);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UnreadableFileError);
    expect((error as UnreadableFileError).fileName).toBe(name);
    expect((error as Error).message).toMatch(message);
  });

  it('rejects a workbook without data', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sheet1');
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    expect(() => read('none.xlsx', bytes)).toThrow(/no worksheet of the workbook holds any data/);
  });
});
