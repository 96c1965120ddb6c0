/** The adjustment rules, one row per decision of docs/decisions/0012-audit-adjustments.md. */
import { describe, expect, it } from 'vitest';
import { ADJUSTMENT_TYPE_RULES, ADJUSTMENT_TYPES, adjustmentAmount, adjustmentProblems, type AdjustmentType } from './adjustments.js';

describe('adjustment types', () => {
  // "pre-calc Bond adjustment, post-calc UK apportionment": books are corrected before the checks,
  // tax and reporting figures are derived after them
  const rows: Array<[AdjustmentType, 'pre-calc' | 'post-calc', boolean, 'adjustments' | 'apportionment']> = [
    ['bond', 'pre-calc', true, 'adjustments'],
    ['uk_apportionment', 'post-calc', true, 'apportionment'],
    ['main', 'pre-calc', true, 'adjustments'],
    ['hmrc', 'post-calc', false, 'adjustments'],
    ['distributions', 'pre-calc', true, 'adjustments'],
    ['target_funds', 'post-calc', false, 'adjustments'],
    ['uk_distributions', 'post-calc', false, 'apportionment'],
    ['flexible', 'pre-calc', true, 'adjustments'],
    ['derivatives', 'pre-calc', true, 'adjustments'],
  ];
  it.each(rows)('%s is %s, double entry %s, recalculated by Rerun %s', (type, phase, doubleEntry, rerun) => {
    expect(ADJUSTMENT_TYPE_RULES[type]).toMatchObject({ phase, doubleEntry, rerun });
  });
  it('lists the spec dialogs in its order', () => {
    expect(ADJUSTMENT_TYPES.map((t) => ADJUSTMENT_TYPE_RULES[t].label)).toEqual([
      'Bond adjustment',
      'UK apportionment',
      'Main adjustment',
      'HMRC adjustment',
      'Distributions',
      'Target funds (preview)',
      'UK distributions',
      'Flexible',
      'Derivatives',
    ]);
  });
});

describe('size and balance', () => {
  const tb = (amount: number) => ({ account: 'X', target: 'tb_balance' as const, amount });
  it('a double entry counts its debit total; a single-sided one its signed sum', () => {
    expect(adjustmentAmount({ type: 'main', lines: [tb(100.1), tb(-60.05), tb(-40.05)] })).toBe(100.1);
    expect(adjustmentAmount({ type: 'hmrc', lines: [tb(-12.5), tb(2.25)] })).toBe(-10.25);
    // a position line is the sub-ledger side of a revaluation: not counted twice
    expect(adjustmentAmount({ type: 'bond', lines: [{ target: 'holding_value', amount: -5 }, tb(-5), tb(5)] })).toBe(5);
  });
  it('a balanced journal nets to zero to the cent; a single-sided one needs no balance', () => {
    const base = { description: 'd', bookedByTpa: false };
    expect(adjustmentProblems({ ...base, type: 'main', lines: [tb(0.1), tb(0.2), tb(-0.3)] })).toEqual([]);
    expect(adjustmentProblems({ ...base, type: 'hmrc', lines: [tb(7)] })).toEqual([]);
    expect(adjustmentProblems({ ...base, type: 'uk_apportionment', lines: [tb(7)] })).toEqual([
      { field: 'lines', message: 'UK apportionment is a double entry: it needs at least two trial balance lines (a debit and a credit)' },
    ]);
  });
});
