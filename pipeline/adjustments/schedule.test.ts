import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { loadCsvTpa } from '../testing/check-data.js';
import { gsWorkPaperInput } from '../testing/work-paper-input.js';
import { buildWorkPaper } from '../work-papers/workbook.js';
import { applyAdjustments, type FundAdjustment } from './apply.js';
import { rowOf } from '../testing/sheets.js';

const at = '2023-04-21T09:30:00.000Z';
const adjustment = (a: Partial<FundAdjustment> & Pick<FundAdjustment, 'id' | 'type' | 'description' | 'bookedByTpa' | 'lines'>): FundAdjustment => ({
  author: 'Ada Lovelace',
  createdAt: at,
  updatedAt: at,
  ...a,
});

const ADJUSTMENTS: FundAdjustment[] = [
  adjustment({
    id: 5,
    type: 'main',
    description: 'Audit fee accrual',
    bookedByTpa: false,
    lines: [
      { account: 'EXPENSE_OTHER', target: 'tb_balance', amount: 250_000 },
      { account: '20900', target: 'tb_balance', amount: -250_000 },
    ],
  }),
  adjustment({
    id: 6,
    type: 'hmrc',
    description: 'Reportable income: offshore fund distributions',
    bookedByTpa: false,
    lines: [{ account: 'INCOME_OTHER', target: 'tb_balance', amount: -12_345.67 }],
  }),
  adjustment({
    id: 7,
    type: 'main',
    description: 'Cash at the broker reclassified from receivables',
    bookedByTpa: true,
    lines: [
      { account: '10100', target: 'tb_balance', amount: 400_000 },
      { account: '12900', target: 'tb_balance', amount: -400_000 },
    ],
  }),
];

/** The work paper the stages build for GS with these adjustments (booked pre-calc ones in the checks' inputs). */
async function workPaper() {
  const delivered = loadCsvTpa('meridian_fund_services');
  const input = await gsWorkPaperInput(applyAdjustments(delivered, ADJUSTMENTS, 'pre-calc'), { generatedAt: new Date(at) });
  const bytes = await buildWorkPaper({ ...input, data: applyAdjustments(delivered, ADJUSTMENTS, 'all'), adjustments: ADJUSTMENTS });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return { wb, m: input.materiality, nav: input.nav };
}

const cells = (r: ExcelJS.Row, n: number) => Array.from({ length: n }, (_, i) => r.getCell(i + 1).value);

describe('adjustments on the summary of unadjusted differences (GS, real data)', () => {
  it('lists each adjustment the TPA has not booked with its size, judged against SAD, TE and PM', async () => {
    const { wb, m, nav } = await workPaper();
    // the booked reclassification moves 400,000 between two assets: NAV and materiality are as delivered
    expect(nav).toBe(361_898_455.93);
    expect(m).toEqual({ pm: 3_618_984.56, te: 2_714_238.42, sad: 180_949.23 });
    const ws = wb.getWorksheet('Unadjusted differences')!;
    const fee = rowOf(ws, '#5 Main adjustment: Audit fee accrual', 2);
    expect(cells(fee, 7)).toEqual([
      'Proposed adjustment (not booked by the TPA)',
      '#5 Main adjustment: Audit fee accrual',
      250_000,
      250_000,
      'Above SAD: accumulated',
      'Main adjustment (pre-calc, double entry) by Ada Lovelace on 2023-04-21: Audit fee accrual. Lines: EXPENSE_OTHER 250,000.00; 20900 -250,000.00 (Trial balance: closing balance of the account)',
      'Adjustment #5',
    ]);
    const hmrc = rowOf(ws, '#6 HMRC adjustment: Reportable income: offshore fund distributions', 2);
    expect(cells(hmrc, 5).slice(2)).toEqual([-12_345.67, 12_345.67, 'Clearly trivial (at or below SAD)']);
    // the booked reclassification is no difference: listed apart
    expect(() => rowOf(ws, '#7 Main adjustment: Cash at the broker reclassified from receivables', 2)).not.toThrow();
    const booked = rowOf(ws, 'Adjustments booked by the TPA (in the figures)');
    expect(rowOf(ws, '#7 Main adjustment: Cash at the broker reclassified from receivables', 2).number).toBeGreaterThan(booked.number);
    // totals: the fee accrual is the only difference above SAD (price testing's impact is trivial)
    expect(rowOf(ws, 'Differences above SAD (absolute): compared with PM').getCell(3).value).toBe(250_000);
    const conclusion = rowOf(ws, 'Conclusion');
    expect(conclusion.getCell(2).value).toBe('NOT MATERIAL');
    expect(String(conclusion.getCell(6).value)).toContain('the 1 unadjusted difference(s) above SAD total 250,000.00, within PM 3,618,984.56');
    const summary = rowOf(wb.getWorksheet('Summary')!, 'Unadjusted differences above SAD (absolute)');
    expect([summary.getCell(4).value, summary.getCell(5).value]).toEqual([250_000, 'NOT MATERIAL']);
    // the booked reclassification is in the trial balance the work paper reports
    const tb = wb.getWorksheet('Trial balance')!;
    expect(rowOf(tb, '10100').getCell(7).value).toBe(8_897_774.45 + 400_000);
    expect(rowOf(tb, '12900').getCell(7).value).toBe(182_632_610.98 - 400_000);
    // and every check still passes on it but the ones the delivered data already warned about
    const checks = wb.getWorksheet('Summary')!;
    expect(rowOf(checks, 'NAV vs share capital', 2).getCell(5).value).toBe('PASS');
  });
});
