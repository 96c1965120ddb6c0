import { describe, expect, it } from 'vitest';
import {
  computeDataStatusCounts,
  dataRequestStatusLabel,
  dataStatusLabel,
  isLate,
  parentDisplay,
  processStatusLabel,
  receivedShare,
  requiredInputTypes,
  statusLabel,
  workPaperStatusLabel,
  type InputFileState,
  type WorkPaperStatusCounts,
} from './derive.js';

const noWp: WorkPaperStatusCounts = { total: 0, reviewedCount: 0, notReviewedCount: 0, notRequiredCount: 0 };
const inputs = (entries: Record<string, InputFileState>) => new Map(Object.entries(entries));

describe('derived display fields', () => {
  it('requires TB and holdings always, transactions and share capital unless SOI_ONLY', () => {
    expect(requiredInputTypes('FULL')).toEqual(['trial_balance', 'holdings', 'transactions', 'share_capital']);
    expect(requiredInputTypes(null)).toHaveLength(4);
    expect(requiredInputTypes('SOI_ONLY')).toEqual(['trial_balance', 'holdings']);
  });

  it('counts the newest file per required type; disabled is not required; missing counts in total only', () => {
    const c = computeDataStatusCounts(
      requiredInputTypes(null),
      inputs({
        trial_balance: { status: 'assigned', disabled: false },
        holdings: { status: 'error', disabled: false },
        transactions: { status: 'assigned', disabled: true },
        prices: { status: 'assigned', disabled: false },
      }),
      { ...noWp, notReviewedCount: 2 },
    );
    expect(c).toEqual({
      rawCount: 0,
      pendingCount: 0,
      processingCount: 0,
      processedCount: 0,
      assignedCount: 1,
      errorCount: 1,
      onBoardingCount: 0,
      notRequiredCount: 1,
      notReviewedCount: 2,
      total: 4,
    });
    expect(receivedShare(c)).toBeCloseTo(100 / 3);
  });

  it('is late only when due date passed, not issued and under 80% received', () => {
    const today = '2025-06-10';
    expect(isLate({ dueDate: '2025-06-09', status: 'Approved' }, 79.9, today)).toBe(true);
    expect(isLate({ dueDate: '2025-06-09', status: 'Approved' }, 80, today)).toBe(false);
    expect(isLate({ dueDate: '2025-06-10', status: 'Approved' }, 0, today)).toBe(false);
    expect(isLate({ dueDate: '2025-06-09', status: 'issued' }, 0, today)).toBe(false);
    expect(isLate({ dueDate: null, status: 'Pending' }, 0, today)).toBe(false);
  });

  it('labels data status', () => {
    const base = computeDataStatusCounts(['trial_balance', 'holdings'], inputs({}), noWp);
    const all = computeDataStatusCounts(
      ['trial_balance', 'holdings'],
      inputs({ trial_balance: { status: 'assigned', disabled: false }, holdings: { status: 'assigned', disabled: false } }),
      noWp,
    );
    const some = computeDataStatusCounts(['trial_balance', 'holdings'], inputs({ trial_balance: { status: 'assigned', disabled: false } }), noWp);
    expect(dataStatusLabel(all, { oversized: true, late: false })).toBe('Too large');
    expect(dataStatusLabel(all, { oversized: false, late: false })).toBe('Received');
    expect(dataStatusLabel(some, { oversized: false, late: true })).toBe('Partially received');
    expect(dataStatusLabel(base, { oversized: false, late: true })).toBe('Late');
    expect(dataStatusLabel(base, { oversized: false, late: false })).toBe('Not received');
  });

  it('labels work papers, parents, processes, data requests and statuses', () => {
    expect(workPaperStatusLabel({ total: 2, reviewedCount: 1, notReviewedCount: 0, notRequiredCount: 1 }, 0)).toBe('Available');
    expect(workPaperStatusLabel({ total: 2, reviewedCount: 2, notReviewedCount: 0, notRequiredCount: 0 }, 2)).toBe('Available Rerun');
    expect(workPaperStatusLabel({ total: 2, reviewedCount: 1, notReviewedCount: 1, notRequiredCount: 0 }, 0)).toBe('Partially available');
    expect(workPaperStatusLabel({ total: 2, reviewedCount: 0, notReviewedCount: 2, notRequiredCount: 0 }, 0)).toBe('Partially available');
    expect(workPaperStatusLabel(noWp, 0)).toBe('Not available');
    expect(parentDisplay({ childrenCount: 2, isParent: false, parentId: null })).toBe('Parent');
    expect(parentDisplay({ childrenCount: 0, isParent: true, parentId: null })).toBe('Parent (empty)');
    expect(parentDisplay({ childrenCount: 0, isParent: false, parentId: 4 })).toBe('Child');
    expect(parentDisplay({ childrenCount: 0, isParent: false, parentId: null })).toBeNull();
    expect([processStatusLabel(true, true), processStatusLabel(false, true), processStatusLabel(false, false)]).toEqual(['Processing', 'Ready', 'Idle']);
    expect(['Requested', 'ReRequested', 'Chased1', 'Chased2', 'Chased3', 'NotRequested', null].map(dataRequestStatusLabel)).toEqual([
      'Requested',
      'Re-requested',
      'Chased 1',
      'Chased 2',
      'Chased 3',
      'Not requested',
      'Not requested',
    ]);
    expect(['approved', 'Completed - Fund Closed', 'Paused', null].map(statusLabel)).toEqual(['Open', 'Closed', 'Paused', 'Pending']);
  });
});
