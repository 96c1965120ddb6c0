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
 * The status cell of a file in the delivery grids. Work papers: 'Not applicable' when disabled,
 * 'Released' or 'Not released' when produced, else the raw status (delivery spec section 4
 * "Display derivations"). Other files: the spec's file status, as `auditorFileStatus` gives it
 * (Pending, Ready, Ready rerun, In review, Not applicable) - a replaced delivery included, whose
 * replacement is said beside the status, never in its place.
 */
export function fileStatusLabel(f: FileFacts, rerunCount = 0): string {
  if (f.kind === 'work_paper') {
    if (f.disabled) return 'Not applicable';
    if (PRODUCED_STATUSES.includes(f.status ?? '')) return f.released ? 'Released' : 'Not released';
    return f.status ?? '';
  }
  return auditorFileStatus(f, rerunCount);
}

/** The file status values of the auditor views (auditor spec section 4 "File status"). */
export const AUDITOR_FILE_STATUSES = ['Pending', 'Ready', 'Ready rerun', 'In review', 'Not applicable'] as const;
export type AuditorFileStatus = (typeof AUDITOR_FILE_STATUSES)[number];

/**
 * The status of a file in the auditor views, whatever its kind (auditor spec section 4 "File
 * status"): 'Not applicable' when disabled, 'Pending' while waiting for or going through
 * processing, 'Ready rerun' when reviewed and the fund's rerun count is above 0, 'Ready' when
 * reviewed, else 'In review'. (The delivery grids say Released / Not released for work papers:
 * `fileStatusLabel`.)
 */
export function auditorFileStatus(f: Pick<FileFacts, 'status' | 'reviewed' | 'disabled'>, rerunCount = 0): AuditorFileStatus {
  if (f.disabled) return 'Not applicable';
  if (isFilePending(f.status)) return 'Pending';
  if (f.reviewed) return rerunCount > 0 ? 'Ready rerun' : 'Ready';
  return 'In review';
}

/**
 * The standardization files a fund's file list shows: those of the deliveries its results are built
 * from. A standardization whose input a newer delivery of its type replaced (`current` false) is
 * left out, so the old one is never listed beside the current one; a file without the flag stays.
 */
export function listedStandardizations<F extends { current?: boolean }>(files: readonly F[]): F[] {
  return files.filter((f) => f.current !== false);
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

/** The longest file name an upload may carry, in UTF-8 bytes (NAME_MAX of most file systems). */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * What is wrong with an uploaded file's name, as a message for its uploader, or null when it is
 * fine: a NUL character, a line break or other control character, a path separator, or a name
 * longer than `MAX_FILE_NAME_BYTES` (a long name is shown shortened).
 */
export function fileNameProblem(name: string): string | null {
  const bytes = new TextEncoder().encode(name).length;
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 40)}...${name.slice(-12)}` : name);
  if (name.includes('\u0000'))
    return `The file name ${shown.replace(/\\u0000/g, '\\0')} contains a NUL character (\\0), which no file name may hold; rename the file and upload it again`;
  if (bytes > MAX_FILE_NAME_BYTES)
    return `The file name ${shown} is ${bytes} bytes long; a file name may have at most ${MAX_FILE_NAME_BYTES} bytes (as many plain letters, fewer accented or non-Latin ones): rename the file to something shorter and upload it again`;
  if (/[\u0001-\u001f\u007f/\\]/.test(name))
    return `The file name ${shown} contains a line break, control character or path separator; rename the file and upload it again`;
  return null;
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

/**
 * The sheets' names alone, for a place too narrow for the reasons (the Files tab shows the reasons
 * of `skippedSheetsText` on hover): `Sheet 'Read Me' not used`, `Sheets 'Read Me', 'Notes' not used`;
 * empty for none.
 */
export function skippedSheetsLabel(sheets: readonly SkippedSheet[] | null | undefined): string {
  const names = (sheets ?? []).map((s) => `'${s.sheet}'`);
  if (!names.length) return '';
  return `${names.length === 1 ? 'Sheet' : 'Sheets'} ${names.join(', ')} not used`;
}
