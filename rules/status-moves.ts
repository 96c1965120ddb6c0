/**
 * The fund status machine (delivery spec section 4, auditor spec section 4): each status action's
 * target status and the statuses a fund may move from. A selected fund in any other status stays
 * as it is and is marked '*' (section 8's warning).
 */
import type { FundStatus } from './statuses.js';

/** Status moves: target status and the statuses a fund may come from. */
export const STATUS_MOVES = {
  approve: { to: 'Approved', from: ['Pending', 'Paused', 'Completed - Fund Closed', 'Issued'] },
  close: { to: 'Completed - Fund Closed', from: ['Approved', 'Paused', 'Issued'] },
  issue: { to: 'Issued', from: ['Approved', 'Completed - Fund Closed'] },
  pause: { to: 'Paused', from: ['Approved', 'Completed - Fund Closed', 'Issued'] },
  decline: { to: 'Declined', from: ['Pending'] },
  remove: { to: 'Deleted', from: ['Pending', 'Approved', 'Declined', 'Completed - Fund Closed', 'Paused'] },
} as const satisfies Record<string, { to: FundStatus; from: readonly FundStatus[] }>;
export type StatusAction = keyof typeof STATUS_MOVES;

/** Close from the auditor area: paused and issued funds block it too (auditor spec section 4). */
export const AUDITOR_CLOSE_FROM: FundStatus[] = ['Approved'];
