/** readTables on xlsx workbooks: sheets, cells, formats, packages exceljs does not write. */
import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readTables, type RawTable } from './table.js';
import { fixture, KEYSTONE, read, one, xlsx, edit } from '../testing/tables.js';

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
