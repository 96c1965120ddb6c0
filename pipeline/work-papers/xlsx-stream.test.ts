import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCsvTpa } from '../testing/check-data.js';
import { SheetWriter } from './sheet-writer.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { buildWorkPaper } from './workbook.js';
import { columnLetters, excelSerial, XlsxWorkbook, xmlText } from './xlsx-stream.js';

const dir = mkdtempSync(join(tmpdir(), 'fa-xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A workbook written by `write` into memory; `out` shows what reached the output before `commit`. */
async function written(write: (wb: XlsxWorkbook) => Promise<void> | void): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new XlsxWorkbook(out, { creator: 'Fund Audit', created: new Date(Date.UTC(2023, 4, 2, 10, 30)) });
  await write(wb);
  await wb.commit();
  return Buffer.concat(chunks);
}

async function exceljs(buf: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

interface PyCell {
  ref: string;
  value: string | number | null;
  fmt: string;
  bold: boolean;
}
interface PySheet {
  name: string;
  freeze: string | null;
  widths: Record<string, number>;
  cells: PyCell[];
}

// Every cell openpyxl reads from a workbook: value (dates as ISO text), number format, weight.
const OPENPYXL = `
import datetime, json, sys
import openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
out = []
for ws in wb.worksheets:
    cells = []
    for row in ws.iter_rows():
        for c in row:
            if c.value is None:
                continue
            v = c.value.isoformat() if isinstance(c.value, datetime.datetime) else c.value
            cells.append({'ref': c.coordinate, 'value': v, 'fmt': c.number_format, 'bold': bool(c.font and c.font.b)})
    widths = {k: d.width for k, d in ws.column_dimensions.items() if d.width}
    out.append({'name': ws.title, 'freeze': ws.freeze_panes, 'widths': widths, 'cells': cells})
json.dump(out, sys.stdout)
`;

/** The workbook as Debian's python3-openpyxl reads it (an independent xlsx reader; `apt-get install python3-openpyxl`). */
function openpyxl(buf: Buffer, name: string): PySheet[] {
  const file = join(dir, name);
  writeFileSync(file, buf);
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', OPENPYXL, file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })) as PySheet[];
}

/** Every non-empty cell as exceljs reads it, in openpyxl's terms (dates as ISO text without the zone). */
function exceljsCells(ws: ExcelJS.Worksheet): PyCell[] {
  const cells: PyCell[] = [];
  ws.eachRow((row) =>
    row.eachCell((c) => {
      const v = c.value instanceof Date ? c.value.toISOString().slice(0, 19) : (c.value as string | number);
      cells.push({ ref: c.address, value: v, fmt: c.numFmt ?? 'General', bold: !!c.font?.bold });
    }),
  );
  return cells;
}

describe('the work paper as two independent xlsx readers see it', () => {
  let buf: Buffer;
  beforeAll(async () => {
    const data = structuredClone(loadCsvTpa('meridian_fund_services'));
    data.holdings[0].security_name = ' Fannie & "Mae" <Pool> \u0001';
    buf = await buildWorkPaper(await gsWorkPaperInput(data));
  });

  it('has the same sheets, frozen headers, widths, cells, number formats and bold in openpyxl as in exceljs', async () => {
    const a = await exceljs(buf);
    const b = openpyxl(buf, 'gs.xlsx');
    expect(b.map((s) => s.name)).toEqual(a.worksheets.map((w) => w.name));
    for (const ws of a.worksheets) {
      const py = b.find((s) => s.name === ws.name)!;
      expect(py.freeze, ws.name).toBe('A2');
      expect(py.widths.A, ws.name).toBe(ws.getColumn(1).width);
      expect(py.cells.length, ws.name).toBeGreaterThan(1);
      expect(py.cells, ws.name).toEqual(exceljsCells(ws));
    }
    const holdings = b.find((s) => s.name === 'Holdings')!;
    // the first position's name kept its spaces and markup characters, without the control character
    expect(holdings.cells.find((c) => c.ref === 'C2')?.value).toBe(' Fannie & "Mae" <Pool> ');
    expect(holdings.cells.find((c) => c.ref === 'F2')).toMatchObject({ value: 13415.85, fmt: '#,##0.00########' });
    // column Q is 'As of' (after the TPA rate, its date and source)
    expect(holdings.cells.find((c) => c.ref === 'Q2')).toMatchObject({ value: '2023-03-31T00:00:00', fmt: 'dd/mm/yyyy' });
  });
});

describe('a large work paper as two independent xlsx readers see it', () => {
  it('has every cell of its continued Holdings and Exceptions sheets alike in openpyxl and exceljs', async () => {
    const gs = loadCsvTpa('meridian_fund_services');
    // 2 copies of the holdings (3,370 positions) with every check item listed, 1,200 rows a sheet
    const data = { ...gs, holdings: Array.from({ length: 2 }, (_, k) => gs.holdings.map((h) => ({ ...h, line: h.line + k * 1700 }))).flat() };
    const input = await gsWorkPaperInput(data, { context: { maxItemsPerCheck: Number.POSITIVE_INFINITY } });
    const buf = await buildWorkPaper(input, { maxRowsPerSheet: 1200 });
    const a = await exceljs(buf);
    const b = openpyxl(buf, 'gs-x2.xlsx');
    const names = a.worksheets.map((w) => w.name);
    expect(b.map((s) => s.name)).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(['Holdings', 'Holdings (2)', 'Holdings (3)', 'Exceptions', 'Exceptions (2)']));
    let cells = 0;
    for (const ws of a.worksheets) {
      const py = b.find((s) => s.name === ws.name)!;
      expect(py.freeze, ws.name).toBe('A2');
      expect(py.cells, ws.name).toEqual(exceljsCells(ws));
      cells += py.cells.length;
    }
    expect(cells).toBeGreaterThan(70_000);
    // the last position is on the third Holdings sheet, under its header, with its line and format
    const last = b.find((s) => s.name === 'Holdings (3)')!;
    const lastLine = data.holdings[data.holdings.length - 1].line;
    expect(last.cells.some((c) => c.value === lastLine && c.fmt === '#,##0')).toBe(true);
  }, 120_000);
});

describe('XlsxWorkbook', () => {
  it('writes texts, numbers and dates with their formats, the header bold and frozen', async () => {
    const buf = await written((wb) => {
      const s = new SheetWriter(wb, 'Figures & notes', [30, 14, 14], [null, 'money', 'date']);
      s.row(['Item', 'Amount', 'Date'], true);
      s.row(['=1+2', 1234.5, new Date(Date.UTC(2023, 2, 31))]);
      s.row(['line one\nline two', [0.0125, 'pct3'], [new Date(Date.UTC(2023, 4, 2, 10, 30)), 'datetime']]);
      s.blank();
      s.row(['Total', -0.1, Number.NaN], true);
      s.commit();
      const t = new SheetWriter(wb, 'Second', [10]);
      t.row(['Only', 7], true);
      t.commit();
    });
    const wb = await exceljs(buf);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Figures & notes', 'Second']);
    const ws = wb.getWorksheet('Figures & notes')!;
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.columns.map((c) => c.width)).toEqual([30, 14, 14]);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect([ws.getCell('A2').value, ws.getCell('B2').value, ws.getCell('B2').numFmt]).toEqual(["'=1+2", 1234.5, '#,##0.00']);
    expect([(ws.getCell('C2').value as Date).toISOString(), ws.getCell('C2').numFmt]).toEqual(['2023-03-31T00:00:00.000Z', 'dd/mm/yyyy']);
    expect([ws.getCell('A3').value, ws.getCell('B3').value, ws.getCell('B3').numFmt]).toEqual(['line one\nline two', 0.0125, '0.000%']);
    expect([(ws.getCell('C3').value as Date).toISOString(), ws.getCell('C3').numFmt]).toEqual(['2023-05-02T10:30:00.000Z', 'dd/mm/yyyy hh:mm']);
    expect(ws.getRow(4).cellCount).toBe(0);
    expect([ws.getCell('A5').value, ws.getCell('B5').value, ws.getCell('B5').font?.bold, ws.getCell('C5').value]).toEqual(['Total', -0.1, true, null]);
    expect(wb.creator).toBe('Fund Audit');
    const py = openpyxl(buf, 'figures.xlsx');
    expect(py[0].cells.find((c) => c.ref === 'A3')?.value).toBe('line one\nline two');
    expect(py[0].cells.find((c) => c.ref === 'C3')).toMatchObject({ value: '2023-05-02T10:30:00', fmt: 'dd/mm/yyyy hh:mm' });
  });

  it('hands a long sheet to the output while its rows are written, not at the end', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const size = () => chunks.reduce((n, c) => n + c.length, 0);
    const wb = new XlsxWorkbook(out, { creator: 'Fund Audit', created: new Date() });
    const s = new SheetWriter(wb, 'Holdings', [20, 16]);
    for (let i = 0; i < 50_000; i++) {
      if (i % 500 === 0) await s.drain();
      s.row([`security ${i % 97}`, i * 1.5]);
    }
    const before = size();
    s.commit();
    await wb.commit();
    expect(before).toBeGreaterThan(size() / 2);
    const ws = (await exceljs(Buffer.concat(chunks))).getWorksheet('Holdings')!;
    expect([ws.rowCount, ws.getCell('A50000').value, ws.getCell('B50000').value]).toEqual([50_000, 'security 44', 74998.5]);
  });

  it('refuses a sheet name Excel refuses, and the same name twice', async () => {
    await written((wb) => {
      expect(() => wb.addSheet('Prices [EUR]')).toThrow(/not a sheet name Excel accepts/);
      expect(() => wb.addSheet('A name longer than thirty-one characters')).toThrow(RangeError);
      wb.addSheet('Holdings').end();
      expect(() => wb.addSheet('holdings')).toThrow(/already has a sheet named 'holdings'/);
    });
  });

  it('names columns and dates as Excel does', () => {
    expect([0, 25, 26, 51, 701, 702, 16383].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'ZZ', 'AAA', 'XFD']);
    expect(excelSerial(new Date(Date.UTC(2023, 2, 31)))).toBe(45016);
    expect(excelSerial(new Date(Date.UTC(1900, 2, 1)))).toBe(61);
    expect(xmlText('a & b <c> "d" \'e\' \u0000\u0008\u000b\u001f\u007f\tf\ng')).toBe('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; \tf\ng');
  });
});
