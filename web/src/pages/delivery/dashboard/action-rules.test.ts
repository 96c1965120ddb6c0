import { describe, expect, it } from 'vitest';
import { actionStates, dataRequestEnabled, deleteConfirmation, statusLabel } from './action-rules';

const sel = (...statuses: Array<string | null>) => statuses.map((status) => ({ status }));

describe('listing action rules (delivery spec section 4)', () => {
  it('disables everything for an empty selection', () => {
    expect(Object.values(actionStates([])).every((v) => v === false)).toBe(true);
  });

  it('allows Decline only for pending funds and Rerun only for approved ones', () => {
    expect(actionStates(sel('Pending')).decline).toBe(true);
    expect(actionStates(sel('pending', null)).decline).toBe(true); // case-insensitive, null is Pending
    expect(actionStates(sel('Approved')).decline).toBe(false);
    expect(actionStates(sel('Pending', 'Approved')).decline).toBe(false);
    expect(actionStates(sel('Approved')).rerun).toBe(true);
    expect(actionStates(sel('Approved', 'Pending')).rerun).toBe(false);
  });

  it('disables a status move only when every selected fund blocks it', () => {
    expect(actionStates(sel('Approved', 'Declined', 'Deleted')).open).toBe(false);
    expect(actionStates(sel('Approved', 'Pending')).open).toBe(true);
    expect(actionStates(sel('Pending')).close).toBe(false);
    expect(actionStates(sel('Pending', 'Approved')).close).toBe(true);
    expect(actionStates(sel('Completed - Fund Closed', 'Declined')).close).toBe(false);
    expect(actionStates(sel('Paused', 'Issued')).issue).toBe(false);
    expect(actionStates(sel('Paused', 'Approved')).issue).toBe(true);
    expect(actionStates(sel('Paused', 'Pending')).pause).toBe(false);
    expect(actionStates(sel('Issued')).pause).toBe(true);
  });

  it('offers Undo delete when some are deleted and Delete unless all are issued or deleted', () => {
    expect(actionStates(sel('Deleted', 'Pending')).undoDelete).toBe(true);
    expect(actionStates(sel('Pending')).undoDelete).toBe(false);
    expect(actionStates(sel('Issued')).remove).toBe(false);
    expect(actionStates(sel('Deleted')).remove).toBe(false);
    expect(actionStates(sel('Issued', 'Pending')).remove).toBe(true);
    expect(actionStates(sel('Deleted')).reset).toBe(false);
    expect(actionStates(sel('Deleted', 'Approved')).reset).toBe(true);
  });

  it('disables the data-requested status all selected funds share', () => {
    const funds = [
      { status: 'Pending', dataRequestStatus: 'Requested' },
      { status: 'Approved', dataRequestStatus: 'Requested' },
    ];
    expect(dataRequestEnabled(funds, 'Requested')).toBe(false);
    expect(dataRequestEnabled(funds, 'Chased1')).toBe(true);
    expect(dataRequestEnabled([{ status: 'Pending', dataRequestStatus: 'Chased1' }, ...funds], 'Requested')).toBe(true);
    expect(dataRequestEnabled([{ status: 'Deleted', dataRequestStatus: 'NotRequested' }], 'Requested')).toBe(false);
  });

  it('words the delete confirmation for the selection and shows delivery labels', () => {
    expect(deleteConfirmation(1)).toBe('This will permanently remove this fund request, are you REALLY sure?');
    expect(deleteConfirmation(3)).toBe('This will permanently remove these 3 fund requests, are you REALLY sure?');
    expect(statusLabel('Approved')).toBe('Open');
    expect(statusLabel('completed - fund closed')).toBe('Closed');
    expect(statusLabel(null)).toBe('Pending');
    expect(statusLabel('Issued')).toBe('Issued');
  });
});
