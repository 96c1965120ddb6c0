/**
 * The review state of a delivery bulk upload (delivery spec section 4 "Bulk upload", section 5):
 * rows come from the server accepted, editable (warnings) or declined (faults). The user moves
 * selected rows: accepting editable rows marks them accepted and editable (so a save may
 * overwrite the existing request); declining marks them declined, with a note when the warning
 * was the overwrite question. Rows with faults can never be accepted; approved rows are
 * selectable only while accepted; declined rows cannot be selected. The server checks every
 * row again when saving. Pure functions, no I/O.
 */
import type { BulkResultRow, BulkUploadResult } from '../../../api/bulk-upload';

/** The overwrite question of the spec (section 8). */
export const OVERWRITE_WARNING = 'Another request exists with same unique identifier. Do you want to overwrite?';
/** The note a declined overwrite gets. */
export const NOT_OVERWRITTEN_NOTE = 'The existing request with the same unique identifier will not be overwritten.';
/** Most rows one save sends (spec section 9). */
export const MAX_SAVE = 100;

/** A row under review: the server's row with the user's selection and note. */
export interface ReviewRow extends BulkResultRow {
  note?: string;
}

/** The rows of a validation answer, in file order, accepted ones selected. */
export function reviewRows(result: BulkUploadResult): ReviewRow[] {
  return [...result.accepted, ...result.editable, ...result.declined]
    .map((r) => ({ ...r, selected: r.frBulkuploadStatus === 'accepted' }))
    .sort((a, b) => a.columnName - b.columnName);
}

const hasFaults = (r: ReviewRow) => r.errors.faults.length > 0;
const asksOverwrite = (r: ReviewRow) => r.errors.warnings.some((w) => w.message.includes('Another request exists with same unique identifier'));

/** Rows of the approved grid (accepted). */
export const approvedRows = (rows: readonly ReviewRow[]) => rows.filter((r) => r.frBulkuploadStatus === 'accepted');
/** Rows of the 'requires action' grid (editable and declined). */
export const actionRows = (rows: readonly ReviewRow[]) => rows.filter((r) => r.frBulkuploadStatus !== 'accepted');

/** Whether a row may be ticked: accepted rows, and editable rows (to accept or decline them); never declined ones. */
export function isSelectable(r: ReviewRow): boolean {
  return r.frBulkuploadStatus !== 'declined';
}

/** Whether a row may be accepted: no faults (warnings are the user's call). */
export function canAccept(r: ReviewRow): boolean {
  return !hasFaults(r);
}

/**
 * Accepts the given rows that can be accepted: they become accepted and editable (a save may
 * overwrite the request they repeat) and stay selected for saving. Rows with faults are left as they are.
 */
export function acceptRows(rows: readonly ReviewRow[], lines: ReadonlySet<number>): ReviewRow[] {
  return rows.map((r) =>
    lines.has(r.columnName) && canAccept(r) ? { ...r, frBulkuploadStatus: 'accepted', isEditable: true, selected: true, note: undefined } : r,
  );
}

/** Declines the given rows: declined, unselected, noting when the overwrite question is thereby answered no. */
export function declineRows(rows: readonly ReviewRow[], lines: ReadonlySet<number>): ReviewRow[] {
  return rows.map((r) =>
    lines.has(r.columnName)
      ? { ...r, frBulkuploadStatus: 'declined', isEditable: false, selected: false, note: asksOverwrite(r) ? NOT_OVERWRITTEN_NOTE : r.note }
      : r,
  );
}

/** Sets the selection of the given rows (rows that are not selectable stay unselected). */
export function selectRows(rows: readonly ReviewRow[], lines: ReadonlySet<number>, selected: boolean): ReviewRow[] {
  return rows.map((r) => (lines.has(r.columnName) ? { ...r, selected: selected && isSelectable(r) } : r));
}

/** What a save sends: the first 100 selected accepted rows, and how many selected ones wait for a later save. */
export function rowsToSave(rows: readonly ReviewRow[]): { batch: ReviewRow[]; remaining: number } {
  const ready = rows.filter((r) => r.selected && r.frBulkuploadStatus === 'accepted');
  return { batch: ready.slice(0, MAX_SAVE), remaining: Math.max(0, ready.length - MAX_SAVE) };
}

/** The Errors cell: "F faults, W warnings" (empty when there are none). */
export function errorSummary(r: ReviewRow): string {
  const f = r.errors.faults.length;
  const w = r.errors.warnings.length;
  const parts = [f ? `${f} fault${f === 1 ? '' : 's'}` : '', w ? `${w} warning${w === 1 ? '' : 's'}` : ''].filter(Boolean);
  return parts.join(', ');
}
