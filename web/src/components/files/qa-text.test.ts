import { describe, expect, it } from 'vitest';
import { qaItemText, qaSummary } from './qa-text';

describe('QA Validations popover texts', () => {
  it('names a check with its difference, an unmapped code with its column and file, or the error', () => {
    expect(qaItemText({ kind: 'amount', status: 'fail', name: 'NAV', diff: -1234.5 })).toBe('NAV: diff -1,234.50');
    expect(qaItemText({ kind: 'mapping', status: 'fail', column: 'Asset Class', file: 'MFS_HOLDINGS.csv', name: 'BANK LOAN' })).toBe(
      'Asset Class - MFS_HOLDINGS.csv (BANK LOAN)',
    );
    expect(qaItemText({ kind: 'error', status: 'warning', error: 'Mapping file missing' })).toBe('Mapping file missing');
    expect(qaItemText({ kind: 'amount', status: 'warning', name: 'US01F0606420', diff: 0, message: 'held twice' })).toBe('US01F0606420: held twice');
    expect(qaItemText({ kind: 'amount', status: 'fail', name: 'NAV', diff: 0.5, message: 'over threshold' })).toBe('NAV: diff 0.50 (over threshold)');
  });

  it('is red with failures, orange with warnings only, green when all clear, and nothing before a check', () => {
    const item = { kind: 'error', status: 'fail', error: 'x' } as const;
    expect(qaSummary({ failed: [item], warnings: [item, item], allClear: false })).toEqual({ tone: 'fail', label: '1 failed, 2 warnings' });
    expect(qaSummary({ failed: [], warnings: [item], allClear: false })).toEqual({ tone: 'warning', label: '1 warning' });
    expect(qaSummary({ failed: [], warnings: [], allClear: true })).toEqual({ tone: 'clear', label: 'All clear' });
    expect(qaSummary({ failed: [], warnings: [], allClear: false })).toBeNull();
  });
});
