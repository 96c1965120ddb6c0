/**
 * Chasing (docs/chasing.md): the reasons a fund request is chased, the states of a chase and the
 * moves between them, contact roles, and their labels. Framework-free: the server, the browser and
 * the CLI all read these.
 */

/**
 * Why a fund request is chased: input files missing as the data due date nears or passes; a
 * delivery that failed a check (the failing rows are the evidence); a reviewer's 'Return to TPA'.
 */
export const CHASE_REASONS = ['missing_files', 'failed_check', 'returned'] as const;
export type ChaseReason = (typeof CHASE_REASONS)[number];

/** Chase states: scheduled (nothing sent yet), sent, answered (a file came in against it), resolved, cancelled. */
export const CHASE_STATES = ['scheduled', 'sent', 'answered', 'resolved', 'cancelled'] as const;
export type ChaseState = (typeof CHASE_STATES)[number];

/** States of a chase that is still open (it is reminded, and shown as open to its recipients). */
export const OPEN_CHASE_STATES: readonly ChaseState[] = ['scheduled', 'sent', 'answered'];

/** Whether a chase in this state is still open. */
export function isOpenChase(state: string): boolean {
  return (OPEN_CHASE_STATES as readonly string[]).includes(state);
}

/**
 * The moves a chase may make: an open chase is sent (again: a reminder), answered, resolved or
 * cancelled; an answered chase whose answer did not fix it goes back to sent with the next mail.
 * Resolved and cancelled are final.
 */
export const CHASE_MOVES: Readonly<Record<ChaseState, readonly ChaseState[]>> = {
  scheduled: ['sent', 'answered', 'resolved', 'cancelled'],
  sent: ['sent', 'answered', 'resolved', 'cancelled'],
  answered: ['sent', 'answered', 'resolved', 'cancelled'],
  resolved: [],
  cancelled: [],
};

/** Whether a chase may move from one state to another. */
export function canMoveChase(from: ChaseState, to: ChaseState): boolean {
  return CHASE_MOVES[from]?.includes(to) ?? false;
}

export const CHASE_REASON_LABELS: Readonly<Record<ChaseReason, string>> = {
  missing_files: 'Files missing',
  failed_check: 'Failed check',
  returned: 'Returned to TPA',
};

export const CHASE_STATE_LABELS: Readonly<Record<ChaseState, string>> = {
  scheduled: 'Scheduled',
  sent: 'Sent',
  answered: 'Answered',
  resolved: 'Resolved',
  cancelled: 'Cancelled',
};

/** Roles of a TPA's or a client's contact: data contacts get every chase, escalation contacts the later late reminders. */
export const CONTACT_ROLES = ['data', 'escalation'] as const;
export type ContactRole = (typeof CONTACT_ROLES)[number];

export const CONTACT_ROLE_LABELS: Readonly<Record<ContactRole, string>> = {
  data: 'Data',
  escalation: 'Escalation',
};

/**
 * The install's default reminder schedule for missing files: days relative to the data due date
 * (negative: before it): 3 days before, on the day, 3 and 7 days after.
 */
export const DEFAULT_CHASE_OFFSETS: readonly number[] = [-3, 0, 3, 7];

/** From which late reminder (1 = the first one after the due date) the escalation contacts are copied in. */
export const DEFAULT_ESCALATE_FROM = 2;

/** Longest reason a reviewer may give when returning a file or a fund to the TPA (characters). */
export const RETURN_REASON_MAX = 2000;
