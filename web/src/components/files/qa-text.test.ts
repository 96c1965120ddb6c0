import { describe, expect, it } from 'vitest';
import { incompleteFileText, qaItemText, qaSummary } from './qa-text';

describe('QA Validations popover texts', () => {
  it('names a check with its difference, an unmapped code with its column and file, or the error', () => {
    expect(qaItemText({ kind: 'amount', status: 'fail', name: 'NAV', diff: -1234.5 })).toBe('NAV: diff -1,234.50');
    expect(qaItemText({ kind: 'mapping', status: 'fail', column: 'Asset Class', file: 'MFS_HOLDINGS.csv', name: 'BANK LOAN' })).toBe(
      'Asset Class - MFS_HOLDINGS.csv (BANK LOAN)',
    );
    expect(qaItemText({ kind: 'error', status: 'warning', error: 'Mapping file missing' })).toBe('Mapping file missing');
    expect(qaItemText({ kind: 'amount', status: 'warning', name: 'US01F0606420', diff: 0, message: 'held twice' })).toBe('US01F0606420: held twice');
    expect(qaItemText({ kind: 'amount', status: 'fail', name: 'NAV', diff: 0.5, message: 'over threshold' })).toBe('NAV: diff 0.50 (over threshold)');
    expect(
      qaItemText({ kind: 'notPerformed', status: 'warning', name: 'CL0000000001', reason: 'no independent CLP rate', file: 'MFS_HOLDINGS.csv', line: 12 }),
    ).toBe('CL0000000001: no independent CLP rate (MFS_HOLDINGS.csv, line 12)');
    expect(qaItemText({ kind: 'notPerformed', status: 'fail', name: 'Trial balance', reason: 'no trial balance rows delivered' })).toBe(
      'Trial balance: no trial balance rows delivered',
    );
    expect(incompleteFileText({ file: 'MFS_HOLDINGS.csv', sdmType: 'holdings', unmappedCodes: 1, rowErrors: 2 })).toBe(
      'MFS_HOLDINGS.csv (holdings): 1 unmapped code, 2 row errors',
    );
  });

  it('is red with failures or incomplete data, orange with warnings or checks not performed, green when all clear, and nothing before a check', () => {
    const item = { kind: 'error', status: 'fail', error: 'x' } as const;
    const none = { failed: [], warnings: [], notPerformed: [], incompleteData: [], incompleteAdjustments: [], allClear: false };
    const skipped = { kind: 'notPerformed', status: 'warning', name: 'A', reason: 'no rate' } as const;
    expect(qaSummary({ ...none, failed: [item], warnings: [item, item] })).toEqual({ tone: 'fail', label: '1 failed, 2 warnings' });
    expect(qaSummary({ ...none, warnings: [item] })).toEqual({ tone: 'warning', label: '1 warning' });
    expect(qaSummary({ ...none, warnings: [item], notPerformed: [skipped, skipped] })).toEqual({ tone: 'warning', label: '1 warning, 2 not performed' });
    // a check that failed for want of data is red, still named not performed
    expect(qaSummary({ ...none, notPerformed: [{ ...skipped, status: 'fail' }] })).toEqual({ tone: 'fail', label: '1 not performed' });
    expect(qaSummary({ ...none, notPerformed: [skipped], incompleteData: [{ file: 'h.csv', sdmType: 'holdings', unmappedCodes: 1, rowErrors: 0 }] })).toEqual({
      tone: 'fail',
      label: 'Incomplete data, 1 not performed',
    });
    // an adjustment line that does not fit the fund's data: the work paper says 'Incomplete data', and so does its cell
    const line = { adjustment: 7, line: 1, reason: 'Adjustment #7 line 1 posts to account 9999, which the fund does not have' };
    expect(qaSummary({ ...none, warnings: [item], incompleteAdjustments: [line] })).toEqual({ tone: 'fail', label: 'Incomplete data, 1 warning' });
    expect(qaSummary({ ...none, allClear: true })).toEqual({ tone: 'clear', label: 'All clear' });
    expect(qaSummary(none)).toBeNull();
  });
});
