/**
 * Which status actions are enabled for a selection of funds: the auditor Funds Listing (auditor
 * spec section 4) and the delivery listing (delivery spec section 4). Statuses are compared
 * case-insensitively; null is Pending.
 */
import { normalizeStatus } from './statuses.js';

type Status = string | null | undefined;

/** Whether the selection is not empty and every status is one of `set` (canonical spellings). */
function allIn(statuses: readonly Status[], set: readonly string[]): boolean {
  return statuses.length > 0 && statuses.every((s) => set.includes(normalizeStatus(s)));
}

/** Status actions of the auditor Funds Listing. */
export type AuditorAction = 'open' | 'close' | 'issue';

/** Target status of each auditor action. */
export const AUDITOR_ACTION_TARGET: Readonly<Record<AuditorAction, string>> = {
  open: 'Approved',
  close: 'Completed - Fund Closed',
  issue: 'Issued',
};

/** Statuses that keep an auditor action from applying: declined, pending and deleted; Close also paused and issued. */
export const AUDITOR_ACTION_BLOCKERS: Readonly<Record<AuditorAction, readonly string[]>> = {
  open: ['Declined', 'Pending', 'Deleted'],
  close: ['Declined', 'Pending', 'Deleted', 'Paused', 'Issued'],
  issue: ['Declined', 'Pending', 'Deleted'],
};

/**
 * Whether Open, Close or Issue is enabled on the auditor listing: disabled with nothing selected,
 * when every selected fund is already in the target status, or when every selected fund is in the
 * target status or a blocking one (the combined rule: some fund must be able to move).
 */
export function isAuditorActionEnabled(action: AuditorAction, statuses: readonly Status[]): boolean {
  return statuses.length > 0 && !allIn(statuses, [AUDITOR_ACTION_TARGET[action], ...AUDITOR_ACTION_BLOCKERS[action]]);
}

/** The delivery listing's action buttons, true when enabled. */
export interface DeliveryActionStates {
  reset: boolean;
  remove: boolean;
  downloadWorkPapers: boolean;
  workPaperActions: boolean;
  rerun: boolean;
  review: boolean;
  dataActions: boolean;
  open: boolean;
  close: boolean;
  issue: boolean;
  pause: boolean;
  decline: boolean;
  undoDelete: boolean;
}

/**
 * Delivery listing enabling (delivery spec section 4): Reset and other actions need a selection
 * that is not all deleted; Delete also not all issued; Rerun only approved funds; Decline only
 * pending funds; Open not when all are approved, declined or deleted; Close not when all are
 * closed, declined, pending or deleted; Issue not when all are issued, declined, pending, deleted
 * or paused; Pause not when all are paused, declined, pending or deleted; Undo delete when some
 * are deleted.
 */
export function deliveryActionStates(statuses: readonly Status[]): DeliveryActionStates {
  const empty = statuses.length === 0;
  const general = !empty && !allIn(statuses, ['Deleted']);
  const rerun = allIn(statuses, ['Approved']);
  return {
    reset: general,
    remove: general && !allIn(statuses, ['Issued']),
    downloadWorkPapers: general,
    workPaperActions: general,
    rerun,
    review: general,
    dataActions: general,
    open: !empty && !allIn(statuses, ['Approved', 'Declined', 'Deleted']),
    close: !empty && !allIn(statuses, ['Completed - Fund Closed', 'Declined', 'Pending', 'Deleted']),
    issue: !empty && !allIn(statuses, ['Issued', 'Declined', 'Pending', 'Deleted', 'Paused']),
    pause: !empty && !allIn(statuses, ['Paused', 'Declined', 'Pending', 'Deleted']),
    decline: allIn(statuses, ['Pending']),
    undoDelete: statuses.some((s) => normalizeStatus(s) === 'Deleted'),
  };
}

/**
 * Delete on either listing: something selected that is not all deleted and not all issued
 * (delivery spec section 4; the auditor listing follows the same rule).
 */
export function isDeleteEnabled(statuses: readonly Status[]): boolean {
  return deliveryActionStates(statuses).remove;
}

/** A data-requested status button: enabled with the data actions, unless every selected fund already has that value. */
export function isDataRequestEnabled(selection: ReadonlyArray<{ status: Status; dataRequestStatus?: string | null }>, value: string): boolean {
  if (!deliveryActionStates(selection.map((f) => f.status)).dataActions) return false;
  return !selection.every((f) => (f.dataRequestStatus ?? 'NotRequested').toLowerCase() === value.toLowerCase());
}

/** Statuses in which Fund details cannot be edited (the spec's 'disabled status'; its value is not given): closed and deleted funds. */
export const DETAILS_EDIT_DISABLED_STATUSES: readonly string[] = ['Deleted', 'Completed - Fund Closed'];

/**
 * The buttons of one fund's details page, by its status: Edit unless the status is an
 * edit-disabled one; Rerun workpapers only when open (as the listing's Rerun); Delete as the
 * listing's Delete on that one fund (not when deleted or issued).
 */
export function fundDetailsActions(status: string | null | undefined): { edit: boolean; rerun: boolean; remove: boolean } {
  const listing = deliveryActionStates([status]);
  return { edit: !DETAILS_EDIT_DISABLED_STATUSES.includes(normalizeStatus(status)), rerun: listing.rerun, remove: listing.remove };
}
