/**
 * Display derivations of a fund (delivery spec section 4 "Display derivations"; auditor spec
 * sections 3-4): received share, lateness, data status, work paper status, parent and process
 * status labels. Pure functions over counts the server loads.
 */
import { normalizeStatus } from './statuses.js';

/** Share of required input files received below which a fund past its due date is late (%). */
export const LATE_THRESHOLD_PCT = 80;

/** Received share in percent (0-100): assigned / (total - notRequired); 100 when nothing is required. */
export function receivedShare(c: { assignedCount: number; total: number; notRequiredCount: number }): number {
  const required = c.total - c.notRequiredCount;
  return required <= 0 ? 100 : (100 * c.assignedCount) / required;
}

/** Whether a data due date (ISO date or date-time) is before `today` (ISO `YYYY-MM-DD`). */
export function isDuePast(dueDate: string | null | undefined, today: string): boolean {
  return !!dueDate && dueDate.slice(0, 10) < today;
}

/** Late: due date past, status not Issued, received share under 80%. */
export function isLate(fund: { dueDate: string | null; status: string | null }, share: number, today: string): boolean {
  return isDuePast(fund.dueDate, today) && normalizeStatus(fund.status) !== 'Issued' && share < LATE_THRESHOLD_PCT;
}

/** Data status: 'Too large' (oversized calculation), 'Received', 'Partially received', else 'Late' or 'Not received'. */
export function dataStatusLabel(c: { assignedCount: number; total: number; notRequiredCount: number }, opts: { oversized: boolean; late: boolean }): string {
  if (opts.oversized) return 'Too large';
  const required = c.total - c.notRequiredCount;
  if (c.assignedCount >= required) return 'Received';
  if (c.assignedCount > 0) return 'Partially received';
  return opts.late ? 'Late' : 'Not received';
}

/**
 * Work paper status (spec: "completed gives 'Available' (or 'Available Rerun' when rerun_count is
 * above 0); in-progress gives 'Partially available'; otherwise 'Not available'"): every required
 * one reviewed is completed; some reviewed, or one made but not yet reviewed (not released), is
 * in progress; none made is 'Not available'.
 */
export function workPaperStatusLabel(
  c: { total: number; reviewedCount: number; notRequiredCount: number; notReviewedCount?: number },
  rerunCount: number,
): string {
  const required = c.total - c.notRequiredCount;
  if (required > 0 && c.reviewedCount >= required) return rerunCount > 0 ? 'Available Rerun' : 'Available';
  if (c.reviewedCount > 0 || (c.notReviewedCount ?? 0) > 0) return 'Partially available';
  return 'Not available';
}

/** Parent display: 'Parent' (has children), 'Parent (empty)' (is_parent without children), 'Child' (has a parent), else null. */
export function parentDisplay(f: { childrenCount: number; isParent: boolean; parentId: number | null }): string | null {
  if (f.childrenCount > 0) return 'Parent';
  if (f.isParent) return 'Parent (empty)';
  if (f.parentId != null) return 'Child';
  return null;
}

/** Listing process status: 'Processing' (any process pending or running), 'Ready' (any done or at visualization), else 'Idle'. */
export function processStatusLabel(busy: boolean, ready: boolean): 'Processing' | 'Ready' | 'Idle' {
  return busy ? 'Processing' : ready ? 'Ready' : 'Idle';
}
