/**
 * Chasing (docs/chasing.md): the reasons a fund request is chased, the states of a chase and the
 * moves between them, contact roles, their labels, and which chase actions the screens enable
 * ('Return to TPA', cancel, answer). Framework-free: the server, the browser and the CLI all read these.
 */
import { normalizeStatus, statusLabel } from './statuses.js';

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

/** Fund request statuses that are chased: Pending and Approved (shown as Open); the chases of any other are cancelled. */
export const CHASED_FUND_STATUSES: readonly string[] = ['Pending', 'Approved'];

/** Whether a fund request in this status is chased (compared as the statuses module spells them; null is Pending). */
export function isChasedFundStatus(status: string | null | undefined): boolean {
  return CHASED_FUND_STATUSES.includes(normalizeStatus(status));
}

/** The key of a reviewer's return: one open return per file (`returned:<file id>`) and one for the whole fund (`returned:fund`). */
export const returnKey = (fundFileId?: number | null): string => `returned:${fundFileId ?? 'fund'}`;

/** Why a reason for 'Return to TPA' is refused, or null when it is fine (required, at most RETURN_REASON_MAX characters). */
export function returnReasonProblem(reason: string | null | undefined): string | null {
  const r = (reason ?? '').trim();
  if (!r) return 'The reason is required: say what the TPA must correct';
  if (r.length > RETURN_REASON_MAX) return `The reason is longer than ${RETURN_REASON_MAX} characters`;
  return null;
}

/** 'Return to TPA' on a fund or a file as the screens offer it. */
export interface ReturnAction {
  /** Offered at all (a file: input files only). */
  shown: boolean;
  enabled: boolean;
  /** 'Return to TPA' (a file), 'Return fund to TPA', or 'Returned' while a return is open. */
  label: string;
  /** Why it is disabled (a tooltip), null when enabled. */
  why: string | null;
}

/**
 * Whether a reviewer may return the fund (no `file`) or one of its files to the TPA: only input
 * files, not one marked not required, only while the fund request is chased (Pending or Open), and
 * not twice while the first return is open.
 * @param openReturnId the open returned-chase of that file or fund, if any
 */
export function returnToTpaAction(input: {
  fundStatus: string | null | undefined;
  file?: { kind: string; disabled?: boolean | null } | null;
  openReturnId?: number | null;
}): ReturnAction {
  const { file } = input;
  const label = file ? 'Return to TPA' : 'Return fund to TPA';
  if (file && file.kind !== 'input') return { shown: false, enabled: false, label, why: 'Only input files go back to the TPA' };
  const off = (why: string): ReturnAction => ({ shown: true, enabled: false, label, why });
  if (!isChasedFundStatus(input.fundStatus)) return off(`Only pending and open fund requests are chased; this one is ${statusLabel(input.fundStatus)}`);
  if (file?.disabled) return off('The file is marked not required');
  if (input.openReturnId)
    return {
      shown: true,
      enabled: false,
      label: 'Returned',
      why: `Already returned to the TPA (chase ${input.openReturnId}); it closes when a new file arrives`,
    };
  return { shown: true, enabled: true, label, why: null };
}

/** What may be done with a chase: cancel it (the delivery team), answer it with a file, download its failing rows. */
export function chaseActions(c: { state: string; hasEvidenceCsv?: boolean }): { cancel: boolean; answer: boolean; evidence: boolean } {
  const open = isOpenChase(c.state);
  return { cancel: open, answer: open, evidence: Boolean(c.hasEvidenceCsv) };
}

/** The tone of a chase state's tag: still waiting (warning), mailed (info), answered (help), resolved (success), cancelled (secondary). */
export const CHASE_STATE_TONES: Readonly<Record<ChaseState, 'warning' | 'info' | 'help' | 'success' | 'secondary'>> = {
  scheduled: 'warning',
  sent: 'info',
  answered: 'help',
  resolved: 'success',
  cancelled: 'secondary',
};

/** What each contact role gets, for the contact form. */
export const CONTACT_ROLE_HINTS: Readonly<Record<ContactRole, string>> = {
  data: 'gets every chase of the TPA or client',
  escalation: 'copied in on the later late reminders',
};

/** How a contact or recipient is shown: the name, else the address (no name is made up). */
export function contactLabel(c: { full_name?: string | null; name?: string | null; email: string }): string {
  return (c.full_name ?? c.name ?? '').trim() || c.email;
}

/** An SDM input type in words: 'trial_balance' -> 'trial balance'. */
export const inputTypeWords = (type: string): string => type.replace(/_/g, ' ');

/**
 * A schedule's days in words, e.g. [-3, 0, 3, 7] -> '3 days before, on the due date, 3 days after, 7 days after'.
 * @param offsets days relative to the data due date (negative: before it)
 */
export function scheduleWords(offsets: readonly number[]): string {
  const day = (n: number) => `${Math.abs(n)} day${Math.abs(n) === 1 ? '' : 's'}`;
  return offsets.map((o) => (o === 0 ? 'on the due date' : o < 0 ? `${day(o)} before` : `${day(o)} after`)).join(', ');
}
