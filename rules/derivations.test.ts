/** Display derivations, from section 4 of both spec documents. */
import { describe, expect, it } from 'vitest';
import { dataStatusLabel, isLate, parentDisplay, processStatusLabel, receivedShare, workPaperStatusLabel } from './derivations.js';

describe('display derivations', () => {
  const counts = (assignedCount: number, total = 4, notRequiredCount = 0) => ({ assignedCount, total, notRequiredCount });

  // "too-large gives 'Too large'; completed gives 'Received'; in-progress gives 'Partially
  // received'; otherwise 'Late' if isLate else 'Not received'"
  it.each([
    [counts(4), { oversized: true, late: false }, 'Too large'],
    [counts(4), { oversized: false, late: true }, 'Received'],
    [counts(3, 4, 1), { oversized: false, late: false }, 'Received'],
    [counts(1), { oversized: false, late: true }, 'Partially received'],
    [counts(0), { oversized: false, late: true }, 'Late'],
    [counts(0), { oversized: false, late: false }, 'Not received'],
  ])('data status of %j %j is %s', (c, opts, label) => expect(dataStatusLabel(c, opts)).toBe(label));

  // "completed gives 'Available' (or 'Available Rerun' when rerun_count is above 0); in-progress
  // gives 'Partially available'; otherwise 'Not available'"
  it.each([
    [{ total: 2, reviewedCount: 2, notRequiredCount: 0 }, 0, 'Available'],
    [{ total: 2, reviewedCount: 1, notRequiredCount: 1 }, 1, 'Available Rerun'],
    [{ total: 2, reviewedCount: 1, notRequiredCount: 0 }, 0, 'Partially available'],
    [{ total: 2, reviewedCount: 0, notRequiredCount: 0, notReviewedCount: 2 }, 0, 'Partially available'],
    [{ total: 1, reviewedCount: 0, notRequiredCount: 1, notReviewedCount: 0 }, 0, 'Not available'],
    [{ total: 0, reviewedCount: 0, notRequiredCount: 0 }, 0, 'Not available'],
  ])('work papers %j with rerun count %i are %s', (c, rerun, label) => expect(workPaperStatusLabel(c, rerun)).toBe(label));

  // "has children gives 'Parent'; is_parent without children gives 'Parent (empty)'; has parentId gives 'Child'"
  it.each([
    [{ childrenCount: 2, isParent: true, parentId: null }, 'Parent'],
    [{ childrenCount: 0, isParent: true, parentId: null }, 'Parent (empty)'],
    [{ childrenCount: 0, isParent: false, parentId: 7 }, 'Child'],
    [{ childrenCount: 0, isParent: false, parentId: null }, null],
  ])('%j is %s', (f, label) => expect(parentDisplay(f)).toBe(label));

  // "Processing if any process is running or pending; Ready if any done or at visualization stage; else Idle"
  it('derives the process status', () => {
    expect(processStatusLabel(true, true)).toBe('Processing');
    expect(processStatusLabel(false, true)).toBe('Ready');
    expect(processStatusLabel(false, false)).toBe('Idle');
  });

  // "Late means fewer than 80% of required input files received" (past due, not Issued)
  it('calls a fund late below 80% received past its due date unless issued', () => {
    expect(receivedShare(counts(3, 4, 0))).toBe(75);
    expect(receivedShare(counts(0, 2, 2))).toBe(100);
    expect(isLate({ dueDate: '2024-01-01', status: 'Approved' }, 75, '2024-06-01')).toBe(true);
    expect(isLate({ dueDate: '2024-01-01', status: 'issued' }, 75, '2024-06-01')).toBe(false);
    expect(isLate({ dueDate: '2024-01-01', status: 'Approved' }, 80, '2024-06-01')).toBe(false);
    expect(isLate({ dueDate: '2024-12-01', status: 'Approved' }, 0, '2024-06-01')).toBe(false);
  });
});
