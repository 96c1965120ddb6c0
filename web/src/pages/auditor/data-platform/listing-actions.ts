/**
 * When the auditor listing's status actions are enabled (auditor spec section 4). Each of Open,
 * Close and Issue is disabled when nothing is selected, or when every selected fund is already in
 * the action's target status or in a status that blocks it. Declined and deleted funds block every
 * action; Close is also blocked by paused and issued funds. Pending funds do not block: Open opens
 * them, and for Close and Issue the server leaves them unchanged and marks them '*' (section 8's
 * warning), so the user learns why. This is the combined-count rule the spec leaves open.
 */

/** Status actions of the auditor listing. */
export type StatusActionKey = 'open' | 'close' | 'issue';

/** Target status of each action. */
export const ACTION_TARGET: Record<StatusActionKey, string> = {
  open: 'Approved',
  close: 'Completed - Fund Closed',
  issue: 'Issued',
};

/** Statuses that keep an action from applying to a fund. */
export const ACTION_BLOCKERS: Record<StatusActionKey, readonly string[]> = {
  open: ['Declined', 'Deleted'],
  close: ['Declined', 'Deleted', 'Paused', 'Issued'],
  issue: ['Declined', 'Deleted'],
};

/** The warning shown when some funds did not move (spec section 8). */
export const UNCHANGED_WARNING = 'Warning! Funds marked with * cannot move into the state you have selected. Reselect separately and retry.';

/** The confirmation of Delete (spec 2.3). */
export const DELETE_CONFIRMATION = 'This will permanently remove these fund requests';

const KNOWN = ['Pending', 'Approved', 'Declined', 'Completed - Fund Closed', 'Deleted', 'Issued', 'Paused'];

/** A status compared case-insensitively; null is Pending (spec section 4). */
export function normalizeStatus(status: string | null | undefined): string {
  if (!status) return 'Pending';
  return KNOWN.find((s) => s.toLowerCase() === status.toLowerCase()) ?? status;
}

/** Whether an action is enabled for the statuses of the selected funds. */
export function isActionEnabled(action: StatusActionKey, statuses: ReadonlyArray<string | null | undefined>): boolean {
  if (statuses.length === 0) return false;
  const target = ACTION_TARGET[action];
  const blockers = ACTION_BLOCKERS[action];
  return statuses.map(normalizeStatus).some((s) => s !== target && !blockers.includes(s));
}

/** Whether Delete is enabled: something selected that is not deleted or issued already. */
export function isDeleteEnabled(statuses: ReadonlyArray<string | null | undefined>): boolean {
  return statuses.map(normalizeStatus).some((s) => s !== 'Deleted' && s !== 'Issued');
}
