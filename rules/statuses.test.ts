/** Statuses and labels, from section 4 of both spec documents. */
import { describe, expect, it } from 'vitest';
import { dataRequestStatusLabel, normalizeStatus, parseStatus, statusLabel } from './statuses.js';

describe('fund statuses', () => {
  // "compared case-insensitively"; "A null status is shown as Pending"; "Approved (displayed
  // 'Open' in delivery views)"; "Completed - Fund Closed (displayed 'Closed' in delivery views)"
  it.each([
    [null, 'Pending', 'Pending'],
    ['', 'Pending', 'Pending'],
    ['approved', 'Approved', 'Open'],
    ['Completed - Fund Closed', 'Completed - Fund Closed', 'Closed'],
    ['completed - fund closed', 'Completed - Fund Closed', 'Closed'],
    ['ISSUED', 'Issued', 'Issued'],
    ['paused', 'Paused', 'Paused'],
    ['declined', 'Declined', 'Declined'],
    ['deleted', 'Deleted', 'Deleted'],
  ])('%j is %s, labelled %s', (raw, status, label) => {
    expect(normalizeStatus(raw)).toBe(status);
    expect(statusLabel(raw)).toBe(label);
  });

  it('reads a status or its label and refuses unknown ones', () => {
    expect(parseStatus('Open')).toBe('Approved');
    expect(parseStatus('closed')).toBe('Completed - Fund Closed');
    expect(parseStatus('pending')).toBe('Pending');
    expect(parseStatus('Shipped')).toBeNull();
  });
});

describe('data request status', () => {
  // "Requested, ReRequested, Chased1, Chased2, Chased3, NotRequested (default 'Not requested');
  // labels Requested, Re-requested, Chased 1, Chased 2, Chased 3, Not requested."
  it.each([
    ['Requested', 'Requested'],
    ['ReRequested', 'Re-requested'],
    ['Chased1', 'Chased 1'],
    ['Chased2', 'Chased 2'],
    ['Chased3', 'Chased 3'],
    ['NotRequested', 'Not requested'],
    [null, 'Not requested'],
  ])('%j is labelled %s', (raw, label) => expect(dataRequestStatusLabel(raw)).toBe(label));
});
