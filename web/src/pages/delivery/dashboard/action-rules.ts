/**
 * Enabling rules of the listing's action buttons (delivery spec section 4), on the selected funds'
 * statuses, compared case-insensitively. Pure: unit-tested in action-rules.test.ts.
 */

/** Stored fund statuses, lower case. */
export const STATUS = {
  pending: 'pending',
  approved: 'approved',
  closed: 'completed - fund closed',
  issued: 'issued',
  paused: 'paused',
  declined: 'declined',
  deleted: 'deleted',
} as const;

/** Data-requested statuses (stored value and label). */
export const DATA_REQUEST_STATUSES = [
  { value: 'Requested', label: 'Requested' },
  { value: 'ReRequested', label: 'Re-requested' },
  { value: 'Chased1', label: 'Chased 1' },
  { value: 'Chased2', label: 'Chased 2' },
  { value: 'Chased3', label: 'Chased 3' },
  { value: 'NotRequested', label: 'Not requested' },
] as const;

/** What the rules look at in a selected fund. */
export interface SelectedFund {
  status: string | null | undefined;
  dataRequestStatus?: string | null;
}

/** The action buttons of the listing. */
export interface ActionStates {
  reset: boolean;
  remove: boolean;
  downloadWorkPapers: boolean;
  rerun: boolean;
  dataActions: boolean;
  open: boolean;
  close: boolean;
  issue: boolean;
  pause: boolean;
  decline: boolean;
  undoDelete: boolean;
}

/** A null status is shown as Pending (auditor spec section 4). */
const norm = (s: string | null | undefined) => (s ?? 'Pending').trim().toLowerCase();

/** Whether every selected fund has one of the statuses (false for an empty selection). */
function allIn(statuses: string[], set: readonly string[]): boolean {
  return statuses.length > 0 && statuses.every((s) => set.includes(s));
}

/** Which actions are enabled for a selection (true = enabled). */
export function actionStates(selection: readonly SelectedFund[]): ActionStates {
  const st = selection.map((f) => norm(f.status));
  const empty = st.length === 0;
  const { pending, approved, closed, issued, paused, declined, deleted } = STATUS;
  const general = !empty && !allIn(st, [deleted]);
  return {
    reset: general,
    remove: general && !allIn(st, [deleted, issued]),
    downloadWorkPapers: general,
    rerun: allIn(st, [approved]),
    dataActions: general,
    open: !empty && !allIn(st, [approved, declined, deleted]),
    close: !empty && !allIn(st, [closed, declined, pending, deleted]),
    issue: !empty && !allIn(st, [issued, declined, pending, deleted, paused]),
    pause: !empty && !allIn(st, [paused, declined, pending, deleted]),
    decline: allIn(st, [pending]),
    undoDelete: st.includes(deleted),
  };
}

/** Whether a data-requested status button is enabled: not when every selected fund already has it. */
export function dataRequestEnabled(selection: readonly SelectedFund[], value: string): boolean {
  if (!actionStates(selection).dataActions) return false;
  return !selection.every((f) => (f.dataRequestStatus ?? 'NotRequested').toLowerCase() === value.toLowerCase());
}

/** The delete confirmation, adapted to the number of selected funds. */
export function deleteConfirmation(count: number): string {
  return count === 1
    ? 'This will permanently remove this fund request, are you REALLY sure?'
    : `This will permanently remove these ${count} fund requests, are you REALLY sure?`;
}

/** The delivery label of a status ('Approved' -> 'Open', 'Completed - Fund Closed' -> 'Closed'). */
export function statusLabel(status: string | null | undefined): string {
  const s = norm(status);
  if (s === STATUS.approved) return 'Open';
  if (s === STATUS.closed) return 'Closed';
  const raw = status ?? 'Pending';
  return raw.charAt(0).toUpperCase() + raw.slice(1);
}
