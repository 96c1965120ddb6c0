import { describe, expect, it } from 'vitest';
import type { BulkUploadResult } from '../../../api/bulk-upload';
import {
  acceptRows,
  actionRows,
  approvedRows,
  declineRows,
  errorSummary,
  isSelectable,
  NOT_OVERWRITTEN_NOTE,
  reviewRows,
  rowsToSave,
  selectRows,
} from './bulk-rows';

const row = (line: number, status: 'accepted' | 'editable' | 'declined', faults: string[] = [], warnings: string[] = []) => ({
  id: line,
  columnName: line,
  fundName: `Fund ${line}`,
  fundShortCode: `F${line}`,
  tpa: 'keystone_admin',
  frBulkuploadStatus: status,
  isEditable: false,
  selected: status === 'accepted',
  duplicateOfId: null,
  errors: { faults: faults.map((message) => ({ column: 'x', message })), warnings: warnings.map((message) => ({ column: 'fundShortCode', message })) },
});
const result = (rows: ReturnType<typeof row>[]): BulkUploadResult => ({
  fileName: 'real-funds.csv',
  encoding: 'utf-8',
  totalRows: rows.length,
  accepted: rows.filter((r) => r.frBulkuploadStatus === 'accepted'),
  editable: rows.filter((r) => r.frBulkuploadStatus === 'editable'),
  declined: rows.filter((r) => r.frBulkuploadStatus === 'declined'),
});
const OVERWRITE = 'Another request exists with same unique identifier. Do you want to overwrite?';

describe('bulk upload review', () => {
  const rows = reviewRows(result([row(3, 'declined', ["tpa 'demo_test' is not a known TPA"]), row(1, 'accepted'), row(2, 'editable', [], [OVERWRITE])]));

  it('lists rows in file order, accepted ones selected, split into the approved and requires-action grids', () => {
    expect(rows.map((r) => [r.columnName, r.selected])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(approvedRows(rows).map((r) => r.columnName)).toEqual([1]);
    expect(actionRows(rows).map((r) => r.columnName)).toEqual([2, 3]);
    expect(rows.map(isSelectable)).toEqual([true, true, false]);
  });

  it('accepts an editable row as editable, never a row with faults', () => {
    const next = acceptRows(rows, new Set([2, 3]));
    expect(next[1]).toMatchObject({ frBulkuploadStatus: 'accepted', isEditable: true, selected: true });
    expect(next[2]).toMatchObject({ frBulkuploadStatus: 'declined', selected: false });
  });

  it('declines with a note when the overwrite question is answered no, and keeps declined rows unselectable', () => {
    const next = declineRows(rows, new Set([1, 2]));
    expect(next[0]).toMatchObject({ frBulkuploadStatus: 'declined', selected: false });
    expect(next[0].note).toBeUndefined();
    expect(next[1]).toMatchObject({ frBulkuploadStatus: 'declined', note: NOT_OVERWRITTEN_NOTE });
    expect(selectRows(next, new Set([1, 2]), true).every((r) => !r.selected)).toBe(true);
  });

  it('saves the first 100 selected accepted rows and says how many wait', () => {
    const many = reviewRows(result(Array.from({ length: 130 }, (_, i) => row(i + 1, 'accepted'))));
    const unticked = selectRows(many, new Set([5]), false);
    const { batch, remaining } = rowsToSave(unticked);
    expect(batch).toHaveLength(100);
    expect(batch.map((r) => r.columnName)).not.toContain(5);
    expect(remaining).toBe(29);
  });

  it('summarises faults and warnings for the Errors column', () => {
    expect(rows.map(errorSummary)).toEqual(['', '1 warning', '1 fault']);
  });
});
