/**
 * Display derivations of a fund's files (delivery spec section 4 "Files" and "Display
 * derivations"; auditor spec section 3 "File row", section 4 "File status", 2.3 "QA Validations
 * popover"). Pure functions over `fund_files` rows; no I/O.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { fileStatusLabel } from '../../../rules/files.js';
import type { fundFiles } from '../../db/schema/files.js';

type FileRow = typeof fundFiles.$inferSelect;

// what may be done with a file and the status / validation cells are the rules module's
// (delivery spec section 4 "Files"; auditor spec section 4 "File status")
export { fileStatusLabel, isFilePending as isPendingStatus, PRODUCED_STATUSES, validationCell, type ValidationCell } from '../../../rules/files.js';

/**
 * One popover item. `amount`: a check with its difference in fund currency; `mapping`: a code of
 * `column` in `file` that is not mapped (`name` is the code); `error`: a message only;
 * `notPerformed`: a check item that could not be performed, with the reason (the work paper's
 * NOT PERFORMED; its `status` is the one the check gave it, which counts in the outcome).
 */
export type QaItem =
  | { kind: 'amount'; status: 'fail' | 'warning'; name: string; diff: number; message?: string }
  | { kind: 'mapping'; status: 'fail' | 'warning'; column: string; file: string; name?: string; error?: string }
  | { kind: 'error'; status: 'fail' | 'warning'; error: string }
  | { kind: 'notPerformed'; status: 'fail' | 'warning'; name: string; reason: string; file?: string; line?: number };

/** A standardization that makes a work paper's outcome 'Incomplete data': the input file, its SDM type, its unmapped codes and row errors (counts). */
export interface IncompleteFile {
  file: string;
  sdmType: string;
  unmappedCodes: number;
  rowErrors: number;
}

/** An audit adjustment line that does not fit the fund's data: its work paper's outcome is then 'Incomplete data' (decision 0012). */
export interface IncompleteAdjustment {
  adjustment: number;
  /** 1-based line of the adjustment. */
  line: number;
  /** The sentence the work paper's Summary and Exceptions give (with the child's fund code for a child's line). */
  reason: string;
}

export interface QaValidations {
  /** red items */
  failed: QaItem[];
  /** orange items */
  warnings: QaItem[];
  /** check items that could not be performed (never a pass, never listed as failed or warned) */
  notPerformed: QaItem[];
  /**
   * A work paper's Invalid standardizations, as it recorded them: when any, its Summary's overall
   * status is 'Incomplete data' (empty for every other file).
   */
  incompleteData: IncompleteFile[];
  /** A work paper's adjustment lines that do not fit the fund's data (its outcome is then 'Incomplete data' too; empty for every other file). */
  incompleteAdjustments: IncompleteAdjustment[];
  /** green: the file has been checked and nothing failed, warned or went unperformed */
  allClear: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

function qaItem(raw: Record<string, unknown>, status: 'fail' | 'warning'): QaItem {
  const name = str(raw.name) ?? str(raw.defined_name);
  const reason = str(raw.notPerformed);
  if (reason)
    return {
      kind: 'notPerformed',
      status,
      name: name ?? 'Check',
      reason,
      ...(str(raw.file) ? { file: str(raw.file) } : {}),
      ...(typeof raw.line === 'number' ? { line: raw.line } : {}),
    };
  const diff = typeof raw.diff === 'number' && Number.isFinite(raw.diff) ? raw.diff : undefined;
  if (name && diff !== undefined) return { kind: 'amount', status, name, diff, ...(str(raw.message) ? { message: str(raw.message) } : {}) };
  const column = str(raw.column);
  const file = str(raw.file);
  if (column && file) return { kind: 'mapping', status, column, file, ...(name ? { name } : {}), ...(str(raw.error) ? { error: str(raw.error) } : {}) };
  return { kind: 'error', status, error: str(raw.error) ?? str(raw.message) ?? name ?? 'Unknown error' };
}

/** Normalises a QA status: fail / failed / error -> fail; warning / warn -> warning; anything else passes. */
function qaStatus(v: unknown, fallback: 'fail' | 'warning' | 'pass'): 'fail' | 'warning' | 'pass' {
  const s = typeof v === 'string' ? v.toLowerCase() : '';
  if (s === 'fail' || s === 'failed' || s === 'error') return 'fail';
  if (s === 'warning' || s === 'warn') return 'warning';
  return s ? 'pass' : fallback;
}

/** What a work paper records about its outcome (`fund_files.validation` of a work paper, written by the visualization stage). */
export interface WorkPaperOutcome {
  /** The Summary's 'Overall status': 'Incomplete data', or the checks' worst status (PASS, WARNING, FAIL). */
  overallStatus: string;
  incompleteData: IncompleteFile[];
  incompleteAdjustments: IncompleteAdjustment[];
}

/** A work paper's recorded outcome, or null for one written before outcomes were recorded. */
export function workPaperOutcome(file: Pick<FileRow, 'validation'> | null | undefined): WorkPaperOutcome | null {
  const v = (file?.validation ?? null) as Partial<WorkPaperOutcome> | null;
  if (typeof v?.overallStatus !== 'string') return null;
  return {
    overallStatus: v.overallStatus,
    incompleteData: Array.isArray(v.incompleteData) ? v.incompleteData : [],
    incompleteAdjustments: Array.isArray(v.incompleteAdjustments) ? v.incompleteAdjustments : [],
  };
}

/**
 * Groups a file's QA entries for the QA Validations popover: `validation.QA_Rec` items (calculation
 * file; status pass / warning / fail; an item with `notPerformed` is listed as not performed,
 * whatever its status) and `validation.QA_Mapping` entries (standardization file; an unmapped code
 * fails unless it carries another status). Pass items are left out.
 * @param incompleteData a work paper's Invalid standardizations (`workPaperOutcome`), listed first
 * @param incompleteAdjustments a work paper's adjustment lines that do not fit the fund's data (`workPaperOutcome`)
 */
export function qaValidations(
  file: Pick<FileRow, 'validation'> | null | undefined,
  incompleteData: IncompleteFile[] = [],
  incompleteAdjustments: IncompleteAdjustment[] = [],
): QaValidations {
  const v = (file?.validation ?? null) as Record<string, unknown> | null;
  const rec = Array.isArray(v?.QA_Rec) ? (v.QA_Rec as unknown[]) : null;
  const mapping = Array.isArray(v?.QA_Mapping) ? (v.QA_Mapping as unknown[]) : null;
  const out: QaValidations = { failed: [], warnings: [], notPerformed: [], incompleteData, incompleteAdjustments, allClear: false };
  const add = (items: unknown[], fallback: 'fail' | 'warning' | 'pass') => {
    for (const raw of items) {
      const item = typeof raw === 'string' ? { error: raw } : raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
      if (!item) continue;
      const status = qaStatus(item.status, fallback);
      // a check that could not be performed measured nothing: it is not performed, never passed
      if (str(item.notPerformed)) out.notPerformed.push(qaItem(item, status === 'fail' ? 'fail' : 'warning'));
      else if (status === 'fail') out.failed.push(qaItem(item, 'fail'));
      else if (status === 'warning') out.warnings.push(qaItem(item, 'warning'));
    }
  };
  if (rec) add(rec, 'pass');
  if (mapping) add(mapping, 'fail');
  out.allClear =
    (rec !== null || mapping !== null) &&
    !out.failed.length &&
    !out.warnings.length &&
    !out.notPerformed.length &&
    !incompleteData.length &&
    !incompleteAdjustments.length;
  return out;
}

/**
 * A file row as the screens show it (spec "File row"), with its server-computed display:
 * `statusLabel` (spec section 4 "File status"; work papers: Released / Not released) and `qa`, the
 * QA Validations popover's groups (auditor spec 2.3).
 * @param opts.rerunCount the fund's `rerun_count` ('Ready rerun' when above 0)
 * @param opts.qaSource the row whose `validation` feeds `qa` (a work paper shows its fund's
 *   calculation file's QA_Rec items, and the Invalid standardizations it recorded); the file itself by default
 */
export function fileView(f: FileRow, opts: { rerunCount?: number; qaSource?: FileRow | null } = {}) {
  const outcome = f.kind === 'work_paper' ? workPaperOutcome(f) : null;
  return {
    id: f.id,
    filename: f.fileName,
    timestamp: f.updatedAt,
    status: f.status,
    statusLabel: fileStatusLabel(f, opts.rerunCount ?? 0),
    fileType: f.fileType,
    name: f.fileType,
    disabled: f.disabled,
    reviewed: f.reviewed,
    released: f.released,
    rowCount: f.rowCount,
    validation_status: f.validationStatus,
    validation: f.validation ?? null,
    qa: qaValidations(opts.qaSource === undefined ? f : opts.qaSource, outcome?.incompleteData, outcome?.incompleteAdjustments),
    importFileId: f.importFileId,
  };
}
