import { describe, expect, it } from 'vitest';
import { fileStatusLabel, qaValidations, validationCell, workPaperOutcome } from './display.js';

const file = (
  over: Partial<{
    kind: 'input' | 'standardization' | 'calculation' | 'work_paper';
    status: string;
    reviewed: boolean;
    disabled: boolean;
    released: boolean;
  }> = {},
) => ({
  kind: 'input' as const,
  status: 'assigned',
  reviewed: false,
  disabled: false,
  released: false,
  ...over,
});

describe('file status label (auditor spec 4 "File status"; delivery spec 4 work papers in the grid)', () => {
  it.each([
    { name: 'pending', f: file({ status: 'pending' }), rerun: 0, label: 'Pending' },
    { name: 'reviewed', f: file({ reviewed: true }), rerun: 0, label: 'Ready' },
    { name: 'reviewed after a rerun', f: file({ reviewed: true }), rerun: 2, label: 'Ready rerun' },
    { name: 'not reviewed', f: file(), rerun: 3, label: 'In review' },
    { name: 'not reviewed, in error', f: file({ status: 'error' }), rerun: 0, label: 'In review' },
    { name: 'disabled', f: file({ disabled: true }), rerun: 0, label: 'Not applicable' },
    { name: 'standardization file reviewed', f: file({ kind: 'standardization', status: 'done', reviewed: true }), rerun: 0, label: 'Ready' },
    { name: 'work paper disabled', f: file({ kind: 'work_paper', status: 'done', disabled: true, released: true }), rerun: 0, label: 'Not applicable' },
    { name: 'work paper assigned, released', f: file({ kind: 'work_paper', status: 'assigned', released: true }), rerun: 0, label: 'Released' },
    { name: 'work paper done, not released', f: file({ kind: 'work_paper', status: 'done' }), rerun: 0, label: 'Not released' },
    { name: 'work paper otherwise: raw status', f: file({ kind: 'work_paper', status: 'error' }), rerun: 0, label: 'error' },
  ])('$name -> $label', ({ f, rerun, label }) => {
    expect(fileStatusLabel(f, rerun)).toBe(label);
  });
});

describe('validation cell', () => {
  it.each([
    { name: 'no file', f: undefined, cell: 'Not Received' },
    { name: 'disabled', f: { disabled: true, validationStatus: 'Valid', status: 'assigned' }, cell: 'Not Required' },
    { name: 'valid', f: { disabled: false, validationStatus: 'Valid', status: 'assigned' }, cell: 'Valid' },
    { name: 'invalid (any case)', f: { disabled: false, validationStatus: 'INVALID', status: 'error' }, cell: 'Invalid' },
    { name: 'error without a validation status', f: { disabled: false, validationStatus: null, status: 'error' }, cell: 'Invalid' },
    { name: 'received, not yet validated', f: { disabled: false, validationStatus: null, status: 'pending' }, cell: 'Not Received' },
  ])('$name -> $cell', ({ f, cell }) => {
    expect(validationCell(f)).toBe(cell);
  });
});

describe('QA Validations popover', () => {
  it('groups QA_Rec items into failed, warnings and not performed (pass left out), as name and diff, reason or error text', () => {
    const qa = qaValidations({
      validation: {
        QA_Rec: [
          { check: 'tb_balance', name: 'Trial balance sums to zero', status: 'fail', diff: 1250.5, threshold: 100, message: 'TB is out by 1,250.50' },
          { check: 'nav', name: 'NAV', status: 'pass', diff: 0, threshold: 10, message: 'ok' },
          { check: 'investments_reconciliation', defined_name: 'Investments', status: 'warning', diff: -40, threshold: 30, message: 'close' },
          { check: 'price_testing', name: 'Price testing', status: 'fail', diff: null, message: 'The price file could not be read' },
          {
            check: 'price_testing',
            name: 'CL0000000001',
            status: 'warning',
            diff: 0,
            threshold: null,
            message: 'FX not tested',
            notPerformed: 'no independent CLP rate on or before the period end',
            file: 'holdings.csv',
            line: 7,
          },
          {
            check: 'tb_balance',
            name: 'Trial balance',
            status: 'fail',
            diff: 0,
            threshold: null,
            message: 'no rows',
            notPerformed: 'no trial balance rows delivered',
          },
        ],
        summary: { pass: 1, warning: 2, fail: 3 },
        status: 'fail',
      },
    });
    expect(qa).toEqual({
      failed: [
        { kind: 'amount', status: 'fail', name: 'Trial balance sums to zero', diff: 1250.5, message: 'TB is out by 1,250.50' },
        { kind: 'error', status: 'fail', error: 'The price file could not be read' },
      ],
      warnings: [{ kind: 'amount', status: 'warning', name: 'Investments', diff: -40, message: 'close' }],
      // never under Failed, even when the check counted it as a failure
      notPerformed: [
        {
          kind: 'notPerformed',
          status: 'warning',
          name: 'CL0000000001',
          reason: 'no independent CLP rate on or before the period end',
          file: 'holdings.csv',
          line: 7,
        },
        { kind: 'notPerformed', status: 'fail', name: 'Trial balance', reason: 'no trial balance rows delivered' },
      ],
      incompleteData: [],
      incompleteAdjustments: [],
      allClear: false,
    });
  });

  it("carries a work paper's Invalid standardizations, which are never all clear", () => {
    const incomplete = [{ file: 'holdings.csv', sdmType: 'holdings', unmappedCodes: 1, rowErrors: 0 }];
    const qa = qaValidations({ validation: { QA_Rec: [{ name: 'NAV', status: 'pass', diff: 0 }] } }, incomplete);
    expect(qa).toMatchObject({ failed: [], warnings: [], notPerformed: [], incompleteData: incomplete, allClear: false });
    expect(workPaperOutcome({ validation: { overallStatus: 'Incomplete data', incompleteData: incomplete } })).toEqual({
      overallStatus: 'Incomplete data',
      incompleteData: incomplete,
      incompleteAdjustments: [],
    });
    expect(workPaperOutcome({ validation: null })).toBeNull();
  });

  it("carries a work paper's adjustment lines that do not fit the fund's data, which are never all clear", () => {
    const lines = [{ adjustment: 7, line: 1, reason: 'Adjustment #7 line 1 posts to account 9999, which the fund does not have' }];
    const validation = { overallStatus: 'Incomplete data', incompleteData: [], incompleteAdjustments: lines };
    const outcome = workPaperOutcome({ validation })!;
    expect(outcome.incompleteAdjustments).toEqual(lines);
    const qa = qaValidations({ validation: { QA_Rec: [{ name: 'NAV', status: 'pass', diff: 0 }] } }, outcome.incompleteData, outcome.incompleteAdjustments);
    expect(qa).toMatchObject({ incompleteData: [], incompleteAdjustments: lines, allClear: false });
  });

  it('shows unmapped codes (QA_Mapping) as failed column and file items', () => {
    const qa = qaValidations({
      validation: {
        QA_Mapping: [{ name: 'ACC999', column: 'account_code', file: 'tb.csv', error: 'ACC999 is not in account_mapping', lines: [4] }, 'Mapping file missing'],
      },
    });
    expect(qa.failed).toEqual([
      { kind: 'mapping', status: 'fail', column: 'account_code', file: 'tb.csv', name: 'ACC999', error: 'ACC999 is not in account_mapping' },
      { kind: 'error', status: 'fail', error: 'Mapping file missing' },
    ]);
    expect(qa.allClear).toBe(false);
  });

  it('is all clear when checked items all pass; not without any QA data', () => {
    expect(qaValidations({ validation: { QA_Rec: [{ name: 'NAV', status: 'pass', diff: 0 }], QA_Mapping: [] } })).toEqual({
      failed: [],
      warnings: [],
      notPerformed: [],
      incompleteData: [],
      incompleteAdjustments: [],
      allClear: true,
    });
    expect(qaValidations({ validation: null })).toEqual({
      failed: [],
      warnings: [],
      notPerformed: [],
      incompleteData: [],
      incompleteAdjustments: [],
      allClear: false,
    });
    expect(qaValidations(undefined).allClear).toBe(false);
  });
});
