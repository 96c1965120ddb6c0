import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fundCodes, fundRequests, trail } from '../../db/schema/index.js';
import { seedDemoAdministrators } from '../setup/prepare.js';
import { fixturesDir } from '../../paths.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { saveBulkFunds, validateBulkUpload, type BulkResultRow } from './bulk-upload.js';
import { OVERWRITE_WARNING } from './validate-row.js';

const fixture = (name: string) => readFileSync(join(fixturesDir(), 'fund-requests', name));
let ctx: TestContext;
beforeEach(async () => {
  ctx = await createTestContext({ seedDemoData: false });
  await seedDemoAdministrators(ctx);
});
afterEach(() => ctx.dispose());

describe('bulk upload of the real N-PORT funds', () => {
  it('accepts every row of real-funds.csv and saves them with their codes', async () => {
    const result = await validateBulkUpload(ctx, 'real-funds.csv', fixture('real-funds.csv'));
    expect(result.totalRows).toBe(4);
    expect(result.declined.map((r) => r.errors.faults)).toEqual([]);
    expect(result.accepted.map((r) => r.fundName)).toEqual([
      'Goldman Sachs Bond Fund',
      'Kentucky Tax-Free Short-to-Medium Series',
      'Kentucky Tax-Free Short-to-Medium Series',
      'AST Bond Portfolio 2022',
    ]);
    const saved = await saveBulkFunds(ctx, ctx.boot.admin, { requestDate: '2023-04-03', funds: result.accepted });
    expect(saved.failed).toEqual([]);
    expect(saved.saved).toHaveLength(4);
    const gs = ctx.db
      .select()
      .from(fundRequests)
      .all()
      .find((f) => f.name === 'Goldman Sachs Bond Fund')!;
    expect(gs).toMatchObject({
      periodStart: '2022-04-01',
      periodEnd: '2023-03-31',
      dueDate: '2023-04-30',
      currency: 'USD',
      country: 'US',
      pm: 1,
      te: 0.75,
      sad: 0.05,
      externalValuations: 'Y',
      priceType1: 'EVALUATED',
      priceSource1: 'ICE',
      requestDate: '2023-04-03',
      status: 'Pending',
    });
    const codes = ctx.db
      .select()
      .from(fundCodes)
      .all()
      .filter((c) => c.fundRequestId === gs.id);
    expect(codes.map((c) => [c.code, c.main])).toEqual([
      ['S000013795', true],
      ['K5ZYN8ZUQE8S5OUPBU26', false],
    ]);
    expect(
      ctx.db
        .select()
        .from(trail)
        .all()
        .filter((t) => t.action === 'bulk-upload'),
    ).toHaveLength(4);
  });

  it('marks a repeated upload editable with the overwrite warning, and overwrites only rows accepted as editable', async () => {
    const first = await validateBulkUpload(ctx, 'real-funds.csv', fixture('real-funds.csv'));
    await saveBulkFunds(ctx, ctx.boot.admin, { funds: first.accepted });
    const again = await validateBulkUpload(ctx, 'real-funds.csv', fixture('real-funds.csv'));
    expect(again.accepted).toHaveLength(0);
    expect(again.editable).toHaveLength(4);
    expect(again.editable[0].errors.warnings.map((w) => w.message)).toContain(OVERWRITE_WARNING);
    const [overwrite, keep] = again.editable;
    const res = await saveBulkFunds(ctx, ctx.boot.admin, { funds: [{ ...overwrite, isEditable: true, notes: 'updated' }, keep] });
    expect(res.saved).toEqual([expect.objectContaining({ overwritten: true, fundShortCode: 'S000013795' })]);
    expect(res.failed).toHaveLength(1);
    expect(res.failed[0].errors.faults[0].message).toMatch(/not accepted for overwrite/);
    expect(ctx.db.select().from(fundRequests).all()).toHaveLength(4);
    expect(
      ctx.db
        .select()
        .from(fundRequests)
        .all()
        .find((f) => f.id === res.saved[0].id)!.notes,
    ).toBe('updated');
  });

  it('refuses to overwrite a request that is no longer Pending', async () => {
    const first = await validateBulkUpload(ctx, 'real-funds.csv', fixture('real-funds.csv'));
    const { saved } = await saveBulkFunds(ctx, ctx.boot.admin, { funds: first.accepted });
    ctx.sqlite.prepare("update fund_requests set status = 'Approved' where id = ?").run(saved[0].id);
    const again = await validateBulkUpload(ctx, 'real-funds.csv', fixture('real-funds.csv'));
    const res = await saveBulkFunds(ctx, ctx.boot.admin, { funds: [{ ...again.editable[0], isEditable: true }] });
    expect(res.failed[0].errors.faults[0].message).toMatch(/cannot be overwritten: the fund request is Open/);
  });
});

describe('bulk upload rules, one bad row each', () => {
  const expected = JSON.parse(fixture('bad-rows.expected.json').toString()) as Array<{ row: number; column: string; rule: string }>;
  let rows: BulkResultRow[];
  beforeEach(async () => {
    const result = await validateBulkUpload(ctx, 'bad-rows.csv', fixture('bad-rows.csv'));
    rows = [...result.accepted, ...result.editable, ...result.declined].sort((a, b) => a.columnName - b.columnName);
  });

  it.each(expected)('row $row is declined for $column ($rule)', ({ row, column }) => {
    const r = rows[row - 1];
    expect(r.frBulkuploadStatus).toBe('declined');
    expect(r.errors.faults.map((f) => f.column)).toContain(column);
  });

  it('explains each fault in words naming the column', async () => {
    for (const r of rows) for (const f of r.errors.faults) expect(f.message).toMatch(new RegExp(f.column.replace(/\d$/, ''), 'i'));
  });

  it('saves none of them', async () => {
    const res = await saveBulkFunds(ctx, ctx.boot.admin, { funds: rows.slice(0, 20) });
    expect(res.saved).toEqual([]);
    expect(res.failed).toHaveLength(Math.min(rows.length, 20));
    expect(ctx.db.select().from(fundRequests).all()).toEqual([]);
  });
});

describe('bulk upload files that cannot be read', () => {
  const names = (r: Awaited<ReturnType<typeof validateBulkUpload>>) => [...r.accepted, ...r.editable, ...r.declined].map((x) => `${x.fundName}|${x.notes}`);
  const reference = async () => names(await validateBulkUpload(ctx, 'real-funds.csv', fixture('real-funds.csv')));

  it.each([
    ['real-funds.utf8-bom.csv', 'utf-8-bom'],
    ['real-funds.utf16le-bom.csv', 'utf-16le'],
    ['real-funds.windows-1252.csv', 'windows-1252'],
  ])('reads %s (%s) exactly like the UTF-8 file', async (file, encoding) => {
    const result = await validateBulkUpload(ctx, file, fixture(join('encodings', file)));
    expect(result.encoding).toBe(encoding);
    expect(names(result)).toEqual(await reference());
    expect(names(result)[0]).toMatch(/Révision – /);
  });

  it.each([
    ['CRLF first, then LF', (i: number) => (i % 2 ? '\n' : '\r\n')],
    ['LF first, then CRLF', (i: number) => (i % 2 ? '\r\n' : '\n')],
  ])('reads a file whose lines end in both CRLF and LF (%s) exactly like the file as delivered, with the same line numbers', async (_, ending) => {
    // a file put together from an export and rows typed on another machine: each line keeps its own ending
    const lines = fixture('real-funds.csv').toString().split(/\r?\n/).filter(Boolean);
    const mixed = lines.map((l, i) => l + ending(i)).join('');
    expect(mixed).toMatch(/[^\r]\n/);
    expect(mixed).toContain('\r\n');
    const result = await validateBulkUpload(ctx, 'mixed-endings.csv', Buffer.from(mixed));
    expect(result.totalRows).toBe(lines.length - 1);
    expect(names(result)).toEqual(await reference());
    // every value of the last column stays clean: no carriage return glued to it
    expect(JSON.stringify(result)).not.toContain('\\r');
  });

  it('names the row of a ragged row and of an unclosed quote', async () => {
    await expect(validateBulkUpload(ctx, 'ragged-rows.csv', fixture('encodings/ragged-rows.csv'))).rejects.toThrow(/ragged-rows\.csv: row \d+ has \d+ values/);
    await expect(validateBulkUpload(ctx, 'unclosed-quote.csv', fixture('encodings/unclosed-quote.csv'))).rejects.toThrow(
      /unclosed-quote\.csv: a quote opened near row \d+ is never closed/,
    );
  });

  it('refuses other file types, empty files and headers without rows', async () => {
    await expect(validateBulkUpload(ctx, 'funds.xlsx', Buffer.from('x'))).rejects.toThrow('funds.xlsx: only .csv files can be bulk uploaded');
    await expect(validateBulkUpload(ctx, 'empty.csv', Buffer.from('  \n'))).rejects.toThrow('empty.csv: the file is empty');
    const header = fixture('real-funds.csv').toString().split('\n')[0];
    await expect(validateBulkUpload(ctx, 'h.csv', Buffer.from(header + '\n'))).rejects.toThrow('h.csv: the file has a header but no rows');
  });

  it('lists misspelt and missing header columns', async () => {
    const text = fixture('real-funds.csv').toString().replace('fundName,', 'fundNme,').replace(',fundCurrency', ',currencyX');
    try {
      await validateBulkUpload(ctx, 'bad-header.csv', Buffer.from(text));
      expect.unreachable();
    } catch (err: any) {
      expect(err.message).toMatch(/bad-header\.csv: the header does not match the template \(2 missing, 2 not recognised\)/);
      expect(err.errors).toContain("bad-header.csv, header column 1 'fundNme' is not a template column (did you mean 'fundName'?)");
      expect(err.errors).toContain("bad-header.csv: required column 'fundCurrency' is missing from the header");
    }
  });

  it('refuses a file over the size limit', async () => {
    const small = await createTestContext({ maxUploadBytes: 1024, seedDemoData: false });
    try {
      await expect(validateBulkUpload(small, 'real-funds.csv', fixture('real-funds.csv'))).rejects.toThrow(/File size limit has been reached 1024B/);
    } finally {
      await small.dispose();
    }
  });

  it('saves at most 100 rows at once', async () => {
    const row = (await validateBulkUpload(ctx, 'real-funds.csv', fixture('real-funds.csv'))).accepted[0];
    await expect(saveBulkFunds(ctx, ctx.boot.admin, { funds: Array.from({ length: 101 }, () => row) })).rejects.toThrow(
      'At most 100 funds can be saved at once (got 101)',
    );
  });
});
