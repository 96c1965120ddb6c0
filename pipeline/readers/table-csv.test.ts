/** readTables on delimited text: delimiters, encodings, headers, quoting. */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { detectDelimiter, findHeader, readTables } from './table.js';
import { fixture, one } from '../testing/tables.js';

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
