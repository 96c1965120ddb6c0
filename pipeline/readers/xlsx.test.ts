import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Cell } from './values.js';
import { isDateFormatCode, readXlsx, xmlText, type XlsxSheet } from './xlsx.js';
import { openZip, ZipError } from './zip.js';

const KEYSTONE = new URL('../../fixtures/tpas/keystone_admin/inputs/KEYSTONE_5493006TF05454RBY690_20221231.xlsx', import.meta.url);

/** A zip archive of deflated entries (CRC left 0: readXlsx does not check it). */
function makeZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = deflateRawSync(Buffer.from(text));
    const n = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(text.length, 22);
    local.writeUInt16LE(n.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(text.length, 24);
    dir.writeUInt16LE(n.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    central.push(dir, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** exceljs' reading of a workbook, flattened the way readXlsx promises to read it. */
async function viaExceljs(bytes: Buffer): Promise<XlsxSheet[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const flat = (v: ExcelJS.CellValue): Cell => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'string' || typeof v === 'number' || v instanceof Date) return v;
    if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('error' in v) return v.error;
    if ('result' in v) return v.result === undefined ? null : flat(v.result as ExcelJS.CellValue);
    if ('text' in v) return typeof v.text === 'string' ? v.text : flat(v.text as ExcelJS.CellValue);
    return null;
  };
  return wb.worksheets.map((ws) => {
    const rows: XlsxSheet['rows'] = [];
    ws.eachRow({ includeEmpty: false }, (row, line) => {
      const cells: Cell[] = [];
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        const v = flat(cell.value);
        if (v === null || (typeof v === 'string' && v.trim() === '')) return;
        while (cells.length < col - 1) cells.push(null);
        cells[col - 1] = v;
      });
      if (cells.length) rows.push({ line, cells });
    });
    return { name: ws.name, rows };
  });
}

describe('readXlsx', () => {
  it('reads the Keystone workbook exactly as exceljs does', async () => {
    const bytes = readFileSync(KEYSTONE);
    const mine = readXlsx(bytes);
    expect(mine.map((s) => s.name)).toEqual(['GL Balances', 'Portfolio Valuation', 'Capital Stock Activity', 'Security Prices']);
    expect(mine.map((s) => s.rows.length)).toEqual([5, 56, 12, 56]);
    expect(mine).toEqual(await viaExceljs(bytes));
    const holding = mine[1].rows[1].cells;
    expect(holding[1]).toEqual(new Date('2022-12-31T00:00:00.000Z'));
    expect(typeof holding[6]).toBe('number');
  });

  it('flattens formulas, rich text, booleans, errors and hyperlinks; drops blank rows and keeps blank sheets empty', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data & More <1>');
    ws.addRow(['Name', 'Amount', 'Date', 'Double', 'Label', 'Flag', 'Bad', 'Link', 'Rich']);
    ws.addRow([
      'Caf\u00e9 "A" & <B>', 5, new Date(Date.UTC(2023, 2, 31)), { formula: 'B2*2', result: 10 }, { formula: 'A2&"x"', result: 'Caf\u00e9x' },
      true, { error: '#VALUE!' }, { text: 'link', hyperlink: 'https://example.com' },
      { richText: [{ text: 'Hello ' }, { font: { bold: true }, text: 'World' }] },
    ]);
    ws.getCell('C2').numFmt = 'dd/mm/yyyy hh:mm';
    ws.addRow([]);
    ws.getCell('B4').value = -1234.5;
    ws.getCell('B4').numFmt = '#,##0.00;(#,##0.00)';
    ws.getCell('K4').value = '  ';
    ws.getCell('A6').value = new Date(Date.UTC(2022, 11, 31, 12, 30));
    ws.getCell('A8').style = { font: { bold: true } }; // styled but empty: a blank row
    wb.addWorksheet('Blank');
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const mine = readXlsx(bytes);
    expect(mine).toEqual(await viaExceljs(bytes));
    expect(mine[0].name).toBe('Data & More <1>');
    expect(mine[0].rows.map((r) => r.line)).toEqual([1, 2, 4, 6]);
    expect(mine[0].rows[1].cells).toEqual([
      'Caf\u00e9 "A" & <B>', 5, new Date(Date.UTC(2023, 2, 31)), 10, 'Caf\u00e9x', 'TRUE', '#VALUE!', 'link', 'Hello World',
    ]);
    expect(mine[0].rows[2].cells).toEqual([null, -1234.5]);
    expect(mine[0].rows[3].cells).toEqual([new Date(Date.UTC(2022, 11, 31, 12, 30))]);
    expect(mine[1]).toEqual({ name: 'Blank', rows: [] });
  });

  it('reads the 1904 date system', async () => {
    const wb = new ExcelJS.Workbook();
    wb.properties.date1904 = true;
    wb.addWorksheet('S').addRow(['a', new Date(Date.UTC(2020, 0, 2))]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const mine = readXlsx(bytes);
    expect(mine).toEqual(await viaExceljs(bytes));
    expect(mine[0].rows[0].cells).toEqual(['a', new Date(Date.UTC(2020, 0, 2))]);
  });

  it('reads packages of other writers: prefixed elements, inline strings, cells without references, phonetic runs', () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const bytes = makeZip({
      '_rels/.rels': '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="/x/book.xml"/></Relationships>',
      'x/book.xml': `<x:workbook ${ns}><x:sheets><x:sheet name="Chart" sheetId="2" r:id="rId9"/><x:sheet name="Q&amp;A" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
      'x/_rels/book.xml.rels': '<Relationships>'
        + '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="sheets/s1.xml"/>'
        + '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="charts/c1.xml"/>'
        + '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="strings.xml"/>'
        + '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="../x/styles.xml"/></Relationships>',
      'x/strings.xml': `<x:sst ${ns}><x:si><x:t>Fund</x:t></x:si><x:si><x:r><x:t xml:space="preserve">As </x:t></x:r><x:r><x:rPr><x:b/></x:rPr><x:t>Of</x:t></x:r><x:rPh><x:t>ignored</x:t></x:rPh></x:si><x:si/></x:sst>`,
      'x/styles.xml': `<x:styleSheet ${ns}><x:numFmts count="1"><x:numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></x:numFmts><x:cellXfs count="3"><x:xf numFmtId="0"/><x:xf numFmtId="164"><x:alignment/></x:xf><x:xf numFmtId="4"/></x:cellXfs></x:styleSheet>`,
      'x/sheets/s1.xml': `<x:worksheet ${ns}><x:sheetData>`
        + '<x:row r="2"><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c t="s"><x:v>2</x:v></x:c></x:row>'
        + '<x:row><x:c t="inlineStr"><x:is><x:t>S1 &amp; co</x:t></x:is></x:c><x:c s="1"><x:v>44926</x:v></x:c><x:c r="E3" s="2"><x:v>1234.5</x:v></x:c>'
        + '<x:c r="F3" t="b"><x:v>0</x:v></x:c><x:c r="G3" t="e"><x:f>1/0</x:f><x:v>#DIV/0!</x:v></x:c><x:c r="H3" t="str"><x:f>A3</x:f><x:v>S1</x:v></x:c><x:c r="I3"><x:f>1+1</x:f></x:c></x:row>'
        + '</x:sheetData></x:worksheet>',
    });
    expect(readXlsx(bytes)).toEqual([{
      name: 'Q&A',
      rows: [
        { line: 2, cells: ['Fund', 'As Of'] },
        { line: 3, cells: ['S1 & co', new Date(Date.UTC(2022, 11, 31)), null, null, 1234.5, 'FALSE', '#DIV/0!', 'S1'] },
      ],
    }]);
  });

  it('rejects a zip without a workbook and damaged archives', () => {
    expect(() => readXlsx(Buffer.from('PK\u0003\u0004 not really a zip'))).toThrow(ZipError);
    const bytes = readFileSync(KEYSTONE);
    expect(() => readXlsx(bytes.subarray(0, bytes.length - 100))).toThrow(/truncated|damaged/);
    expect(openZip(bytes).names).toContain('xl/workbook.xml');
  });
});

describe('xlsx helpers', () => {
  it('decodes XML entities and OOXML escapes', () => {
    expect(xmlText('a &amp; b &lt;c&gt; &#233; &#x2013; _x000D_')).toBe('a & b <c> \u00e9 \u2013 \r');
  });

  it.each([
    ['yyyy-mm-dd', true],
    ['dd/mm/yyyy hh:mm', true],
    ['[$-409]mmm d, yyyy', true],
    ['h:mm AM/PM', true],
    ['#,##0.00;(#,##0.00)', false],
    ['0.00%', false],
    ['"USD" #,##0', false],
    ['General', false],
    ['[Red]0.00', false],
  ])('%s is a date format: %s', (code, isDate) => {
    expect(isDateFormatCode(code)).toBe(isDate);
  });
});
