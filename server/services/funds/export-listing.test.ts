import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { exportColumns, exportListing, neutralise } from './export-listing.js';
import { insertAdministrator, insertFund } from '../../testing/fund-factory.js';

describeEachDialect('listing export', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    const tpa = await insertAdministrator(ctx, 'alpha', 'Alpha');
    await insertFund(ctx, {
      name: '=HYPERLINK("http://evil")',
      client: '+Client',
      notes: '@SUM(A1)',
      administratorId: tpa,
      requestDate: '2025-03-05',
      periodEnd: '2024-12-31',
      dueDate: '2025-02-15',
      pm: 5,
      te: 3.75,
      sad: 0.25,
      rttPlus: 1.5,
      fundCode: '-CODE',
      alternateCodes: ['ALT1', 'ALT2'],
    });
    await insertFund(ctx, { name: 'Plain Fund', client: 'Orion', requestDate: '2025-01-01', status: 'Approved', fundCode: 'PLN' });
    await insertFund(ctx, { name: 'Gone', client: 'Orion', status: 'Deleted' });
  });
  afterAll(() => ctx.dispose());

  async function open(bytes: Buffer) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const headers = (ws.getRow(1).values as unknown[]).slice(1) as string[];
    const rows = [] as Array<Record<string, ExcelJS.CellValue>>;
    ws.eachRow((row, n) => {
      if (n === 1) return;
      rows.push(Object.fromEntries(headers.map((h, i) => [h, row.getCell(i + 1).value])));
    });
    return { ws, headers, rows };
  }

  it('writes every matching fund in the spec column order with real numbers and dates', async () => {
    const file = await exportListing(ctx, ctx.boot.admin, { sorting: [{ field: 'name', order: 'desc' }] });
    expect(file.fileName).toBe('fundrequests.xlsx');
    expect(file.count).toBe(2);
    const { ws, headers, rows } = await open(file.bytes);
    expect(headers).toEqual(exportColumns(false).map((c) => c.header));
    expect(headers.slice(0, 5)).toEqual(['Administrator', 'Country', 'Request date', 'Period end', 'Status']);
    expect(rows.map((r) => r['Fund Name'])).toEqual(['Plain Fund', `'=HYPERLINK("http://evil")`]);
    const evil = rows[1];
    expect(evil['Request date']).toEqual(new Date('2025-03-05T00:00:00Z'));
    expect(evil['Data Due']).toEqual(new Date('2025-02-15T00:00:00Z'));
    expect(evil.PM).toBe(0.05);
    expect(evil.TE).toBeCloseTo(0.0375);
    expect(evil['RTT+']).toBe(1.5);
    expect(evil['Alternate Codes']).toBe('ALT1, ALT2');
    expect(evil['Error flag']).toBe('No');
    expect(rows[0].Status).toBe('Open');
    const col = (h: string) => headers.indexOf(h) + 1;
    expect(ws.getRow(3).getCell(col('PM')).numFmt).toBe('0.00%');
    expect(ws.getRow(3).getCell(col('Request date')).numFmt).toBe('dd/mm/yyyy');
  });

  it('neutralises formula-like text', async () => {
    const { rows } = await open((await exportListing(ctx, null, { search: 'hyperlink' })).bytes);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ 'Fund Name': `'=HYPERLINK("http://evil")`, Client: "'+Client", Notes: "'@SUM(A1)", 'Fund Code': "'-CODE" });
    expect([neutralise('=1+1'), neutralise('+1'), neutralise('-1'), neutralise('@x'), neutralise('a=b')]).toEqual(["'=1+1", "'+1", "'-1", "'@x", 'a=b']);
  });

  it('follows the filters, including deleted funds when asked', async () => {
    const file = await exportListing(ctx, null, { filters: [{ field: 'status', type: 'enum', value: ['Deleted'] }] });
    expect((await open(file.bytes)).rows.map((r) => r['Fund Name'])).toEqual(['Gone']);
  });
});
