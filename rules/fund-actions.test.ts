/** The listing action rules, one row per sentence of section 4 of each spec document. */
import { describe, expect, it } from 'vitest';
import {
  deliveryActionStates,
  fundDetailsActions,
  isAuditorActionEnabled,
  isDataRequestEnabled,
  isDeleteEnabled,
  type AuditorAction,
  type DeliveryActionStates,
} from './fund-actions.js';

const CLOSED = 'Completed - Fund Closed';

describe('auditor listing: Open, Close, Issue', () => {
  // "Each is disabled when every selected fund is already in that target state, or when the
  // selection contains only declined, pending or deleted funds; Close additionally treats paused
  // and issued funds as blocking."
  const rows: Array<[AuditorAction, Array<string | null>, boolean, string]> = [
    ['open', [], false, 'nothing selected'],
    ['open', ['Approved', 'approved'], false, 'all already in the target state'],
    ['close', [CLOSED], false, 'all already in the target state'],
    ['issue', ['Issued'], false, 'all already in the target state'],
    ['open', ['Pending'], false, 'only pending funds'],
    ['close', ['Pending', null], false, 'only pending funds (null is Pending)'],
    ['issue', ['pending'], false, 'only pending funds, any case'],
    ['open', ['Declined', 'Deleted', 'Pending'], false, 'only declined, pending or deleted funds'],
    ['issue', ['Declined', 'Deleted'], false, 'only declined or deleted funds'],
    ['close', ['Paused', 'Issued'], false, 'Close: paused and issued block'],
    ['close', ['Paused', 'Declined', CLOSED], false, 'Close: target plus blockers'],
    ['open', ['Paused'], true, 'Open may move a paused fund'],
    ['issue', ['Paused'], true, 'Issue may move a paused fund'],
    ['open', ['Approved', 'Pending', CLOSED], true, 'a closed fund can be opened'],
    ['close', ['Approved', 'Pending'], true, 'an open fund can be closed'],
    ['issue', [CLOSED, 'Pending'], true, 'a closed fund can be issued'],
  ];
  it.each(rows)('%s on %j is enabled=%s (%s)', (action, statuses, enabled) => {
    expect(isAuditorActionEnabled(action, statuses)).toBe(enabled);
  });
});

describe('delivery listing buttons', () => {
  type Key = keyof DeliveryActionStates;
  // one row per sentence: [button, selection, enabled, sentence]
  const rows: Array<[Key, string[], boolean, string]> = [
    ['decline', ['Pending', 'pending'], true, 'Decline: only for pending funds'],
    ['decline', ['Pending', 'Approved'], false, 'Decline: only for pending funds'],
    ['open', ['Approved', 'Declined', 'Deleted'], false, 'Open: disabled when all selected are already approved, declined or deleted'],
    ['open', ['Pending'], true, 'Open: a pending fund can be opened'],
    ['close', [CLOSED, 'Declined', 'Pending', 'Deleted'], false, 'Close: disabled when all are closed, declined, pending or deleted'],
    ['close', ['Approved', 'Pending'], true, 'Close: an open fund'],
    ['issue', ['Issued', 'Declined', 'Pending', 'Deleted', 'Paused'], false, 'Issue: disabled when all are issued, declined, pending, deleted or paused'],
    ['issue', ['Approved'], true, 'Issue: an open fund'],
    ['pause', ['Paused', 'Declined', 'Pending', 'Deleted'], false, 'Pause: disabled when all are paused, declined, pending or deleted'],
    ['pause', [CLOSED], true, 'Pause: a closed fund'],
    ['undoDelete', ['Approved'], false, 'Undo delete: disabled unless some selected are deleted'],
    ['undoDelete', ['Approved', 'Deleted'], true, 'Undo delete: some are deleted'],
    ['reset', [], false, 'Reset: disabled when the selection is empty'],
    ['reset', ['Deleted', 'deleted'], false, 'Reset: disabled when all are deleted'],
    ['reset', ['Deleted', 'Pending'], true, 'Reset: not all deleted'],
    ['dataActions', ['Deleted'], false, 'other actions: disabled when all are deleted'],
    ['workPaperActions', ['Deleted'], false, 'other actions: disabled when all are deleted'],
    ['review', ['Approved'], true, 'review status: a selection not all deleted'],
    ['remove', ['Issued', 'Issued'], false, 'Delete: additionally disabled when all are issued'],
    ['remove', ['Issued', 'Deleted'], true, 'Delete: issued + deleted is not all issued'],
    ['remove', ['Deleted'], false, 'Delete: all deleted'],
    ['rerun', ['Approved', 'approved'], true, 'Rerun: only on approved funds'],
    ['rerun', ['Approved', 'Pending'], false, 'Rerun: only on approved funds'],
  ];
  it.each(rows)('%s on %j is enabled=%s (%s)', (key, statuses, enabled) => {
    expect(deliveryActionStates(statuses)[key]).toBe(enabled);
  });

  it('Delete follows the same rule on both listings', () => {
    expect(isDeleteEnabled(['Issued', 'Deleted'])).toBe(true);
    expect(isDeleteEnabled(['Issued'])).toBe(false);
    expect(isDeleteEnabled([])).toBe(false);
  });

  it('disables the data-requested value every selected fund already has', () => {
    const sel = [
      { status: 'Approved', dataRequestStatus: 'Chased1' },
      { status: 'Pending', dataRequestStatus: 'chased1' },
    ];
    expect(isDataRequestEnabled(sel, 'Chased1')).toBe(false);
    expect(isDataRequestEnabled(sel, 'Chased2')).toBe(true);
    expect(isDataRequestEnabled([{ status: 'Pending', dataRequestStatus: null }], 'NotRequested')).toBe(false);
    expect(isDataRequestEnabled([{ status: 'Deleted', dataRequestStatus: null }], 'Requested')).toBe(false);
  });
});

describe('fund details buttons', () => {
  // Edit "disabled ... when the status equals a disabled status"; Rerun "only on approved funds";
  // Delete "disabled when all are issued" (and deleted ones)
  it.each([
    ['Pending', { edit: true, rerun: false, remove: true }],
    ['approved', { edit: true, rerun: true, remove: true }],
    ['Completed - Fund Closed', { edit: false, rerun: false, remove: true }],
    ['Issued', { edit: true, rerun: false, remove: false }],
    ['Deleted', { edit: false, rerun: false, remove: false }],
  ])('%s: %j', (status, buttons) => expect(fundDetailsActions(status)).toEqual(buttons));
});
