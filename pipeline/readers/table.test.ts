import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  detectDelimiter,
  FileTooLargeError,
  findHeader,
  IDENTIFICATION_LIMIT_BYTES,
  MAX_PART_BYTES,
  readTables,
  UnreadableFileError,
  type RawTable,
} from './table.js';
import { unzipAll, zipFiles } from './zip-testing.js';

const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url));
const KEYSTONE = 'tpas/keystone_admin/inputs/KEYSTONE_5493006TF05454RBY690_20221231.xlsx';
const opts = { limitBytes: IDENTIFICATION_LIMIT_BYTES };
const read = (name: string, text: string | Buffer) => readTables(name, typeof text === 'string' ? Buffer.from(text) : text, opts);
const one = async (name: string, text: string | Buffer): Promise<RawTable> => {
  const tables = await read(name, text);
  expect(tables).toHaveLength(1);
  return tables[0];
};
const xlsx = async (wb: ExcelJS.Workbook) => Buffer.from(await wb.xlsx.writeBuffer());
/** Rewrites parts of a package (for packages exceljs does not write). */
async function edit(bytes: Buffer, change: (zip: Map<string, Buffer | string>, text: (name: string) => Promise<string>) => Promise<void>): Promise<Buffer> {
  const zip: Map<string, Buffer | string> = await unzipAll(bytes);
  await change(zip, async (name) => zip.get(name)!.toString());
  return zipFiles(zip);
}
/** The reason of the UnreadableFileError that reading the file rejects with. */
async function unreadable(name: string, bytes: Buffer): Promise<string> {
  const error = await readTables(name, bytes, opts).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(UnreadableFileError);
  expect((error as UnreadableFileError).fileName).toBe(name);
  return (error as UnreadableFileError).reason;
}

describe('readTables on CSV', () => {
  it('finds the Meridian header below the title lines, with real line numbers', async () => {
    const t = await one('MFS_HOLDINGS.csv', fixture('tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'));
    expect(t).toMatchObject({ file: 'MFS_HOLDINGS.csv', sheetName: null, encoding: 'utf-8', delimiter: ';', headerLine: 4 });
    expect(t.header).toEqual([
      'Portfolio',
      'Valuation Date',
      'Sec ID',
      'Sec ID Type',
      'Security Description',
      'Asset Class',
      'Nominal',
      'Price',
      'Price Ccy',
      'FX Rate',
      'Market Value Local',
      'Market Value USD',
      'Country',
    ]);
    expect(t.rows).toHaveLength(1685);
    expect(t.rows[0]).toEqual({
      line: 5,
      cells: [
        'S000013795',
        '31/03/2023',
        'US3138W7WP51',
        'ISIN',
        'Fannie Mae Pool',
        'ABS-MBS',
        '13.415,85',
        '92,929855',
        'USD',
        '1',
        '12.467,33',
        '12.467,33',
        'US',
      ],
    });
    expect(t.rows.at(-1)!.line).toBe(1689);
  });

  it('finds the capital report header under two title lines; the TB keeps its commas inside names', async () => {
    const cap = await one('cap.csv', fixture('tpas/meridian_fund_services/inputs/MFS_CAPITAL_S000013795_20230331.csv'));
    expect([cap.headerLine, cap.rows.length, cap.rows[0].line]).toEqual([3, 11, 4]);
    expect(cap.rows[0].cells).toEqual(['S000013795', '31/03/2023', 'ALL', 'Opening Units', '356.409.117,37', null, null]);
    const tb = await one('tb.csv', fixture('tpas/meridian_fund_services/inputs/MFS_TB_S000013795_20230331.csv'));
    expect([tb.delimiter, tb.headerLine, tb.rows.length]).toEqual([';', 4, 8]);
    expect(tb.rows[0].cells[3]).toBe('Investments in securities, at value');
  });

  it('reads the demo TPA plain CSV with the header on line 1', async () => {
    const t = await one('demo_holdings.csv', fixture('tpas/demo_test/inputs/demo_holdings.csv'));
    expect([t.delimiter, t.headerLine, t.rows.length, t.rows[0].line]).toEqual([',', 1, 55, 2]);
  });

  it.each([
    ['real-funds.utf8-bom.csv', 'utf-8-bom'],
    ['real-funds.utf16le-bom.csv', 'utf-16le'],
    ['real-funds.windows-1252.csv', 'windows-1252'],
  ])('reads %s (%s) like the UTF-8 original', async (file, encoding) => {
    const original = await one('real-funds.csv', fixture('fund-requests/real-funds.csv'));
    const t = await one(file, fixture(`fund-requests/encodings/${file}`));
    expect(t.encoding).toBe(encoding);
    expect(t.header[0]).toBe('fundName');
    expect(t.header).toEqual(original.header);
    expect(t.rows.map((r) => r.cells)).toEqual(original.rows.map((r) => r.cells));
    expect(t.rows.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    const notes = t.rows[0].cells[t.header.indexOf('notes')];
    expect(notes).toMatch(/^Révision – données réelles/);
  });

  it('reads UTF-16 and Windows-1252 semicolon reports', async () => {
    const text = 'Rapport de données\r\nPortefeuille;Date;Montant\r\nF1;31/03/2023;1.234,50\r\nF2;31/03/2023;-2,00\r\n';
    for (const [bytes, enc] of [
      [Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]), 'utf-16le'],
      [iconv.encode(text, 'windows-1252'), 'windows-1252'],
    ] as const) {
      const t = await one('r.csv', bytes);
      expect([t.encoding, t.delimiter, t.headerLine, t.header]).toEqual([enc, ';', 2, ['Portefeuille', 'Date', 'Montant']]);
      expect(t.rows).toEqual([
        { line: 3, cells: ['F1', '31/03/2023', '1.234,50'] },
        { line: 4, cells: ['F2', '31/03/2023', '-2,00'] },
      ]);
    }
  });

  it('keeps quoted delimiters and line breaks; line numbers count physical lines; blank lines are skipped', async () => {
    const text = 'Report, with a comma\r\n\r\nid,name,amount\r\n1,"Smith, J.",10\r\n\r\n2,"two\r\nlines",20\r\n ;\r\n3,plain,30';
    const t = await one('q.csv', text);
    expect([t.delimiter, t.headerLine, t.header]).toEqual([',', 3, ['id', 'name', 'amount']]);
    expect(t.rows).toEqual([
      { line: 4, cells: ['1', 'Smith, J.', '10'] },
      { line: 6, cells: ['2', 'two\nlines', '20'] },
      { line: 8, cells: [' ;'] },
      { line: 9, cells: ['3', 'plain', '30'] },
    ]);
  });

  it('the quote-free fast path gives what csv-parse gives', async () => {
    const text = 'T\n\na|b|c\n1||3\n||\n 4 |5\n6|7|8|9\n';
    const fast = await one('f.txt', text);
    const parsed = await one('f.txt', `${text}"x"|y|z\n`);
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

  it('takes the first row as header when no row looks like one', async () => {
    const t = await one('n.csv', '1,2,3\n4,5,6\n');
    expect([t.headerLine, t.header, t.rows.length]).toEqual([1, ['1', '2', '3'], 1]);
    expect(
      findHeader([
        { line: 1, cells: ['Title'] },
        { line: 2, cells: ['a', 'b'] },
        { line: 3, cells: ['1', '2'] },
      ]),
    ).toBe(1);
  });
});

/** sha256 of tables as JSON, Dates told apart from strings. */
const fingerprint = (tables: RawTable[]) =>
  createHash('sha256')
    .update(
      JSON.stringify(tables, function (this: Record<string, unknown>, key, value: unknown) {
        return this[key] instanceof Date ? { date: value } : value;
      }),
    )
    .digest('hex');

describe('readTables on xlsx', () => {
  it('reads each Keystone sheet as a table, numbers and dates native, exactly as the former reader did', async () => {
    const tables = await read('KEYSTONE.xlsx', fixture(KEYSTONE));
    expect(tables.map((t) => [t.file, t.sheetName, t.headerLine, t.rows.length])).toEqual([
      ['KEYSTONE.xlsx#GL Balances', 'GL Balances', 1, 4],
      ['KEYSTONE.xlsx#Portfolio Valuation', 'Portfolio Valuation', 1, 55],
      ['KEYSTONE.xlsx#Capital Stock Activity', 'Capital Stock Activity', 1, 11],
      ['KEYSTONE.xlsx#Security Prices', 'Security Prices', 1, 55],
    ]);
    expect(tables[0].header).toEqual(['Fund ID', 'As Of Date', 'Account Number', 'Account Title', 'Currency', 'Balance (Local)', 'Balance (Base)']);
    expect(tables[0].rows[0]).toEqual({
      line: 2,
      cells: ['5493006TF05454RBY690', new Date('2022-12-31T00:00:00Z'), '1100-000', 'Investments in securities at market value', 'USD', 40455026.7, 40455026.7],
    });
    expect(tables[1].header).toEqual([
      'Fund ID',
      'As Of Date',
      'Security Identifier',
      'Identifier Type',
      'Security Name',
      'Security Type',
      'Shares/Par',
      'Market Price',
      'Pricing Currency',
      'Exchange Rate',
      'Market Value (Local)',
      'Market Value (Base)',
      'Country of Risk',
    ]);
    expect(tables[1].rows.at(-1)).toEqual({
      line: 56,
      cells: [
        '5493006TF05454RBY690',
        new Date('2022-12-31T00:00:00Z'),
        'US914391V613',
        'ISIN',
        'KY ULVHGR 4 09/01/2030',
        'Municipal Bond',
        745000,
        104.156,
        'USD',
        1,
        775962.2,
        775962.2,
        'US',
      ],
    });
    expect(tables[3].rows.map((r) => r.line)).toEqual(Array.from({ length: 55 }, (_, i) => i + 2));
    expect(tables.every((t) => t.encoding === null && t.delimiter === null)).toBe(true);
    // every cell, as the hand-written zip/XML reader this replaced gave them (headers, lines, types, values)
    expect(fingerprint(tables)).toBe('7ed7c34b76416c56cd5ddfe04bac3eb2e759e0b9655a36e696d167b1724a36b7');
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
    const tables = await read('positions.bin', await xlsx(wb));
    expect(tables.map((t) => [t.file, t.headerLine, t.header, t.rows])).toEqual([
      [
        'positions.bin#Positions',
        4,
        ['Fund', 'Security', 'Value'],
        [
          { line: 5, cells: ['F1', 'S1', 10] },
          { line: 6, cells: ['F1', 'S2', 20] },
        ],
      ],
    ]);
  });

  it('flattens formulas, rich text, booleans, errors and hyperlinks; drops blank rows and blank sheets', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data & More <1>');
    ws.addRow(['Name', 'Amount', 'Date', 'Double', 'Label', 'Flag', 'Bad', 'Link', 'Rich']);
    ws.addRow([
      'Caf\u00e9 "A" & <B>',
      5,
      new Date(Date.UTC(2023, 2, 31)),
      { formula: 'B2*2', result: 10 },
      { formula: 'A2&"x"', result: 'Caf\u00e9x' },
      true,
      { error: '#VALUE!' },
      { text: 'link', hyperlink: 'https://example.com' },
      { richText: [{ text: 'Hello ' }, { font: { bold: true }, text: 'World' }] },
    ]);
    ws.getCell('C2').numFmt = 'dd/mm/yyyy hh:mm';
    ws.addRow([]);
    ws.getCell('B4').value = -1234.5;
    ws.getCell('B4').numFmt = '#,##0.00;(#,##0.00)';
    ws.getCell('K4').value = '  ';
    ws.getCell('A6').value = new Date(Date.UTC(2022, 11, 31, 12, 30));
    ws.getCell('A8').style = { font: { bold: true } }; // styled but empty: a blank row
    ws.getRow(9).values = [
      { formula: 'B2-5', result: 0 },
      { formula: 'B2>9', result: false },
      { formula: 'TRIM(" ")', result: '' },
      { formula: '1/0', result: { error: '#DIV/0!' } },
      { formula: 'NOW()' },
      { formula: 'DATE(2020,1,1)', result: new Date(Date.UTC(2020, 0, 1)) },
      { text: 42, hyperlink: 'https://n.example' } as unknown as ExcelJS.CellHyperlinkValue,
      false,
    ];
    ws.getCell('F9').numFmt = 'yyyy-mm-dd';
    ws.getCell('A11').value = '   ';
    wb.addWorksheet('Blank');
    const hidden = wb.addWorksheet('Hidden', { state: 'hidden' });
    hidden.addRow(['h1', 'h2']);
    hidden.addRow([1, 2]);
    const tables = await read('mixed.xlsx', await xlsx(wb));
    expect(tables.map((t) => t.file)).toEqual(['mixed.xlsx#Data & More <1>', 'mixed.xlsx#Hidden']);
    const [t] = tables;
    expect([t.headerLine, t.header]).toEqual([1, ['Name', 'Amount', 'Date', 'Double', 'Label', 'Flag', 'Bad', 'Link', 'Rich']]);
    expect(t.rows).toEqual([
      { line: 2, cells: ['Caf\u00e9 "A" & <B>', 5, new Date(Date.UTC(2023, 2, 31)), 10, 'Caf\u00e9x', 'TRUE', '#VALUE!', 'link', 'Hello World'] },
      { line: 4, cells: [null, -1234.5] },
      { line: 6, cells: [new Date(Date.UTC(2022, 11, 31, 12, 30))] },
      // formula results 0 and false are kept (exceljs' formula value drops them), '' and none are empty
      { line: 9, cells: [0, 'FALSE', null, '#DIV/0!', null, new Date(Date.UTC(2020, 0, 1)), '42', 'FALSE'] },
    ]);
  });

  it("gives a merged range's value once, in its top-left cell", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('M');
    ws.getCell('A1').value = 'Portfolio: S000013795 Holdings as of 31/03/2023';
    ws.mergeCells('A1:E1');
    ws.getRow(3).values = ['Fund', 'Security', 'Nominal', 'Price', 'Value'];
    ws.addRow(['F1', 'S1', 10, 1.5, 15]);
    ws.getCell('A5').value = 'Total';
    ws.mergeCells('A5:D5');
    ws.getCell('E5').value = 15;
    const t = await one('merged.xlsx', await xlsx(wb));
    expect([t.headerLine, t.header]).toEqual([3, ['Fund', 'Security', 'Nominal', 'Price', 'Value']]);
    expect(t.rows).toEqual([
      { line: 4, cells: ['F1', 'S1', 10, 1.5, 15] },
      { line: 5, cells: ['Total', null, null, null, 15] },
    ]);
  });

  it.each(['1', 'true'])('reads the 1904 date system (date1904="%s")', async (flag) => {
    const wb = new ExcelJS.Workbook();
    wb.properties.date1904 = true;
    const ws = wb.addWorksheet('S');
    ws.addRow(['a', 'b']);
    ws.addRow(['x', new Date(Date.UTC(2020, 0, 2))]);
    ws.addRow(['y', new Date(Date.UTC(1999, 11, 31, 23, 59, 59))]);
    const bytes = await edit(await xlsx(wb), async (zip, text) => {
      zip.set('xl/workbook.xml', (await text('xl/workbook.xml')).replace('date1904="1"', `date1904="${flag}"`));
    });
    const t = await one('d1904.xlsx', bytes);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['x', new Date(Date.UTC(2020, 0, 2))],
      ['y', new Date(Date.UTC(1999, 11, 31, 23, 59, 59))],
    ]);
  });

  it('gives 1900-system serials before March 1900 the day Excel shows (1 = 1900-01-01), times of day on day 0', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('T');
    ws.addRow(['serial', 'value']);
    for (const s of [0.5, 1, 59, 60, 61, 44926.75]) ws.addRow([s, s]).getCell(2).numFmt = s < 1 ? 'h:mm' : 'yyyy-mm-dd hh:mm';
    const t = await one('early.xlsx', await xlsx(wb));
    expect(t.rows.map((r) => r.cells[1])).toEqual([
      new Date('1899-12-31T12:00:00Z'),
      new Date('1900-01-01T00:00:00Z'),
      new Date('1900-02-28T00:00:00Z'),
      new Date('1900-02-28T00:00:00Z'),
      new Date('1900-03-01T00:00:00Z'),
      new Date('2022-12-31T18:00:00Z'),
    ]);
  });

  it('reads what other writers put in a package: inline strings, phonetic runs, escapes, shared formulas, cells without references, sheet order', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('First').addRows([
      ['Key', 'Value'],
      ['ESCAPED', 1],
    ]);
    wb.addWorksheet('Second').addRows([
      ['Key', 'Value'],
      ['b', 2],
    ]);
    const bytes = await edit(await xlsx(wb), async (zip, text) => {
      const sst = (await text('xl/sharedStrings.xml'))
        .replace('<t>ESCAPED</t>', '<t>CR_x000D_here, _x005F_x000D_ literal</t>')
        .replace('</sst>', '<si><r><t xml:space="preserve">As </t></r><r><rPr><b/></rPr><t>Of</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></si></sst>');
      zip.set('xl/sharedStrings.xml', sst);
      const asOf = (sst.match(/<si>/g) ?? []).length - 1;
      zip.set(
        'xl/worksheets/sheet1.xml',
        (await text('xl/worksheets/sheet1.xml')).replace(
          '</sheetData>',
          `<row r="4"><c r="A4" t="s"><v>${asOf}</v></c><c r="B4" t="inlineStr"><is><t>inline &amp; co</t></is></c><c r="C4" t="inlineStr"><is><r><t>in</t></r><r><t>rich</t></r></is></c></row>` +
            '<row r="5"><c r="A5"><f t="shared" ref="A5:A6" si="0">1+1</f><v>2</v></c><c r="C5" t="str"><f>"a"&amp;"b"</f><v>ab</v></c></row>' +
            '<row r="6"><c r="A6"><f t="shared" si="0"/><v>3</v></c><c t="inlineStr"><is><t>no reference</t></is></c></row></sheetData>',
        ),
      );
      const workbook = await text('xl/workbook.xml');
      const [first, second] = workbook.match(/<sheet [^>]*\/>/g)!;
      zip.set('xl/workbook.xml', workbook.replace(first + second, second + first));
    });
    const tables = await read('other.xlsx', bytes);
    expect(tables.map((t) => t.sheetName)).toEqual(['Second', 'First']);
    expect(tables[1].rows).toEqual([
      { line: 2, cells: ['CR\rhere, _x000D_ literal', 1] },
      { line: 4, cells: ['As Of', 'inline & co', 'inrich'] },
      { line: 5, cells: [2, null, 'ab'] },
      { line: 6, cells: [3, 'no reference'] },
    ]);
  });
});

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
