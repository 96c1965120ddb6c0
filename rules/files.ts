/**
 * File and process rules of fund details (delivery spec section 4 "Files", "Processes", "Display
 * derivations"; auditor spec section 4 "File status"): what may be done with a file or a process
 * in its current state, and the status and validation cells the grids show.
 */

/** What the file rules look at. `kind`: input, standardization, calculation or work_paper. */
export interface FileFacts {
  kind?: string;
  status: string | null | undefined;
  reviewed: boolean;
  disabled: boolean;
  released?: boolean;
  validationStatus?: string | null;
}

/** Statuses meaning a work paper was produced and attached to its fund ('assigned'; the pipeline writes 'done'). */
export const PRODUCED_STATUSES: readonly string[] = ['assigned', 'done'];

/** Whether a file is waiting for or going through processing: neither review nor not-required is offered then. */
export function isFilePending(status: string | null | undefined): boolean {
  return status === 'pending' || status === 'processing';
}

/** Kinds of file that can be marked not required. */
export const DISABLEABLE_KINDS: readonly string[] = ['input', 'work_paper'];
/** Kinds of file that can be reviewed. */
export const REVIEWABLE_KINDS: readonly string[] = ['input', 'standardization', 'work_paper'];

/** Review / Unreview is offered: not while pending, and a disabled (not required) file cannot be reviewed. Unreview stays offered on a reviewed file. */
export function canToggleReview(f: FileFacts): boolean {
  if (f.kind && !REVIEWABLE_KINDS.includes(f.kind)) return false;
  if (isFilePending(f.status)) return false;
  return f.reviewed || !f.disabled;
}

/** Not required / Required is offered: not while pending, and a reviewed file cannot be marked not required. Required stays offered on a disabled file. */
export function canToggleRequired(f: FileFacts): boolean {
  if (f.kind && !DISABLEABLE_KINDS.includes(f.kind)) return false;
  if (isFilePending(f.status)) return false;
  return f.disabled || !f.reviewed;
}

/** Why a review change is refused, or null when allowed (the server's message names the file). */
export function reviewRefusal(f: FileFacts & { fileName: string }, reviewed: boolean): string | null {
  if (isFilePending(f.status)) return f.status === 'pending' ? `File ${f.fileName} is still pending` : `File ${f.fileName} is still being processed`;
  if (reviewed && f.disabled) return `File ${f.fileName} is not required (disabled) and cannot be reviewed; mark it required first`;
  return null;
}

/** Why a not-required change is refused, or null when allowed. */
export function requiredRefusal(f: FileFacts & { fileName: string }, disabled: boolean): string | null {
  if (isFilePending(f.status)) return f.status === 'pending' ? `File ${f.fileName} is still pending` : `File ${f.fileName} is still being processed`;
  if (disabled && f.reviewed) return `File ${f.fileName} is reviewed and cannot be marked not required; mark it unreviewed first`;
  return null;
}

/**
 * The status cell of a file. Work papers: 'Not applicable' when disabled, 'Released' or 'Not
 * released' when produced, else the raw status. Other files: 'Not applicable' (disabled),
 * 'Pending', 'Ready rerun' (reviewed, rerun count above 0), 'Ready' (reviewed), else 'In review'.
 */
export function fileStatusLabel(f: FileFacts, rerunCount = 0): string {
  if (f.disabled) return 'Not applicable';
  if (f.kind === 'work_paper') {
    if (PRODUCED_STATUSES.includes(f.status ?? '')) return f.released ? 'Released' : 'Not released';
    return f.status ?? '';
  }
  if (f.status === 'pending') return 'Pending';
  if (f.reviewed) return rerunCount > 0 ? 'Ready rerun' : 'Ready';
  return 'In review';
}

export type ValidationCell = 'Valid' | 'Invalid' | 'Not Received' | 'Not Required';

/**
 * The validation cell of a file, or of a required type with no file (null): 'Not Received'
 * without a file or before it was validated, 'Not Required' when disabled, else Valid / Invalid
 * (a file in error without a validation status is Invalid).
 */
export function validationCell(f: Pick<FileFacts, 'disabled' | 'validationStatus' | 'status'> | null | undefined): ValidationCell {
  if (!f) return 'Not Received';
  if (f.disabled) return 'Not Required';
  const v = f.validationStatus?.toLowerCase();
  if (v === 'valid') return 'Valid';
  if (v === 'invalid' || f.status === 'error') return 'Invalid';
  return 'Not Received';
}

/** Process states (delivery spec section 4 "Processes"). */
export const PROCESS_STATUSES = ['pending', 'running', 'done', 'error'] as const;

/** A process may be reset only while pending or running (delivery spec section 4). */
export function canResetProcess(status: string | null | undefined): boolean {
  return status === 'pending' || status === 'running';
}

/** A process may be cancelled only while pending or running. */
export function canCancelProcess(status: string | null | undefined): boolean {
  return status === 'pending' || status === 'running';
}

/**
 * A sheet of a delivered workbook that no file layout of the TPA matched (a 'Read Me', notes, a
 * chart): read, not used. Kept with each input file taken from the workbook so that the Files tab,
 * the `import` command and the work paper say which sheets were left out and why.
 */
export interface SkippedSheet {
  /** The sheet's name as in the workbook. */
  sheet: string;
  /** Why no layout matched (the identification's message, e.g. the closest layout and its missing columns). */
  reason: string;
}

/** `Sheet 'Read Me' not used: <reason>` for each sheet, joined with `; ` (empty for none). */
export function skippedSheetsText(sheets: readonly SkippedSheet[] | null | undefined): string {
  return (sheets ?? []).map((s) => `Sheet '${s.sheet}' not used: ${s.reason}`).join('; ');
}
