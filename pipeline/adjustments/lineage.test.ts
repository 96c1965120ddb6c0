/**
 * A check item from a row a booked adjustment changed cites the adjustment beside the delivered
 * file and line (docs/decisions/0012), in the work paper's Summary, Exceptions and Unadjusted
 * differences: on Meridian's real delivery of the Goldman Sachs Bond Fund, with the delivered
 * lines and balances read here from the files as delivered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCsvTpa, tpaDir } from '../testing/check-data.js';
import type { FundSdmArrays } from '../sdm/rows.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { buildWorkPaper } from '../work-papers/workbook.js';
import { applyAdjustments, type FundAdjustment } from './apply.js';

const GS = 'meridian_fund_services';
const TB_FILE = 'MFS_TB_S000013795_20230331.csv';
const CASH = '10100';
const RECEIVABLES = '12900';
const money = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A delivered TB account's line (1-based) and USD balance (decimal comma), read from the file. */
function deliveredTb(account: string): { line: number; balance: number } {
  const lines = readFileSync(join(tpaDir(GS), 'inputs', TB_FILE), 'utf8').split(/\r?\n/);
  const i = lines.findIndex((l) => l.split(';')[2] === account);
  const c = lines[i].split(';');
  return { line: i + 1, balance: Number(c[6].replace(/\./g, '').replace(',', '.')) };
}

const adjustment = (id: number, description: string, lines: FundAdjustment['lines']): FundAdjustment => ({
  id,
  type: 'main',
  description,
  bookedByTpa: true,
  author: 'Ada Lovelace',
  createdAt: '2023-04-20T10:00:00.000Z',
  updatedAt: '2023-04-20T10:00:00.000Z',
  lines,
});

/** The rows under the header row of a check-items table (the first row whose cells start with `first`), as {header: value}. */
function table(ws: ExcelJS.Worksheet, first: string[]): Array<Record<string, unknown>> {
  let header: string[] | null = null;
  const out: Array<Record<string, unknown>> = [];
  ws.eachRow((r) => {
    const cells = Array.from((r.values as unknown[]).slice(1), (v) => (v === undefined ? null : v));
    if (!header) {
      if (first.every((f, i) => cells[i] === f)) header = cells.map((c) => String(c ?? ''));
      return;
    }
    out.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? null])));
  });
  if (!header) throw new Error(`${ws.name}: no header ${first.join(', ')}`);
  return out;
}

async function workbook(data: FundSdmArrays | ReturnType<typeof applyAdjustments>, adjustments: FundAdjustment[] = []) {
  const input = await gsWorkPaperInput(data);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await buildWorkPaper({ ...input, adjustments })) as unknown as ArrayBuffer);
  return { wb, items: input.checks.items };
}

describe('check items from adjusted rows cite the adjustment (GS, real data)', () => {
  let gs: FundSdmArrays;
  let adjustments: FundAdjustment[];
  let cash: { line: number; balance: number };
  const reclass = () => Math.ceil(cash.balance / 1_000_000) * 1_000_000;
  beforeAll(async () => {
    gs = loadCsvTpa(GS);
    cash = deliveredTb(CASH);
    adjustments = [
      // a reclassification of more cash than the ledger holds: the cash account ends on the credit side
      adjustment(7, 'Cash held for the custodian reclassified to receivables', [
        { account: CASH, target: 'tb_balance', amount: -reclass() },
        { account: RECEIVABLES, target: 'tb_balance', amount: reclass() },
      ]),
    ];
  });

  it('as delivered: no item cites an adjustment and the tables have no Adjusted by column', async () => {
    expect(cash.balance).toBeGreaterThan(0);
    const { wb, items } = await workbook(gs);
    expect(items.filter((i) => i.adjustedBy)).toEqual([]);
    const summary = table(wb.getWorksheet('Summary')!, ['Check', 'Item']);
    expect(Object.keys(summary[0])).not.toContain('Adjusted by');
    expect(Object.keys(table(wb.getWorksheet('Exceptions')!, ['Check', 'Item'])[0] ?? {})).not.toContain('Adjusted by');
  });

  it('the credit balance the reclassification leaves on the cash account cites the delivered line and the adjustment line', async () => {
    const { wb, items } = await workbook(applyAdjustments(gs, adjustments, 'all'), adjustments);
    const credit = items.find((i) => i.name === `Credit balance on asset account ${CASH}`)!;
    expect(credit).toBeTruthy();
    expect([credit.file, credit.line]).toEqual([TB_FILE, cash.line]);
    expect(credit.adjustedBy).toEqual([{ adjustment: 7, line: 1, amount: -reclass() }]);
    expect(credit.message).toContain(money(cash.balance - reclass()));
    const cite = `Adjustment #7 line 1 (${money(-reclass())})`;
    for (const sheet of ['Summary', 'Exceptions']) {
      const row = table(wb.getWorksheet(sheet)!, ['Check', 'Item']).find((r) => r.Item === credit.name)!;
      expect([row.File, row.Line, row['Adjusted by']], sheet).toEqual([TB_FILE, cash.line, cite]);
    }
    // the receivables account it was debited to stays a debit: no item
    expect(items.some((i) => i.name.includes(RECEIVABLES))).toBe(false);
  });

  it('items from delivered rows no adjustment touched cite none: the securities held twice', async () => {
    const { wb, items } = await workbook(applyAdjustments(gs, adjustments, 'all'), adjustments);
    const held = items.filter((i) => i.check === 'holdings_integrity' && i.file && i.line);
    expect(held.length).toBeGreaterThan(3);
    expect(held.filter((i) => i.adjustedBy)).toEqual([]);
    const others = table(wb.getWorksheet('Summary')!, ['Check', 'Item']).filter((r) => !String(r.Item).includes(CASH));
    expect(others.length).toBeGreaterThan(3);
    expect(others.filter((r) => r['Adjusted by'])).toEqual([]);
  });
});
