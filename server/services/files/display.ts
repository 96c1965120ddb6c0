/**
 * Display derivations of a fund's files (delivery spec section 4 "Files" and "Display
 * derivations"; auditor spec section 3 "File row", section 4 "File status", 2.3 "QA Validations
 * popover"). Pure functions over `fund_files` rows; no I/O.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import type { fundFiles } from '../../db/schema/files.js';

type FileRow = typeof fundFiles.$inferSelect;

// what may be done with a file and the status / validation cells are the rules module's
// (delivery spec section 4 "Files"; auditor spec section 4 "File status")
export { fileStatusLabel, isFilePending as isPendingStatus, PRODUCED_STATUSES, validationCell, type ValidationCell } from '../../../rules/files.js';

/**
 * One popover item. `amount`: a check with its difference in fund currency; `mapping`: a code of
 * `column` in `file` that is not mapped (`name` is the code); `error`: a message only.
 */
export type QaItem =
  | { kind: 'amount'; status: 'fail' | 'warning'; name: string; diff: number; message?: string }
  | { kind: 'mapping'; status: 'fail' | 'warning'; column: string; file: string; name?: string; error?: string }
  | { kind: 'error'; status: 'fail' | 'warning'; error: string };

export interface QaValidations {
  /** red items */
  failed: QaItem[];
  /** orange items */
  warnings: QaItem[];
  /** green: the file has been checked and nothing failed or warned */
  allClear: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

function qaItem(raw: Record<string, unknown>, status: 'fail' | 'warning'): QaItem {
  const name = str(raw.name) ?? str(raw.defined_name);
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

/**
 * Groups a file's QA entries for the QA Validations popover: `validation.QA_Rec` items (calculation
 * file; status pass / warning / fail) and `validation.QA_Mapping` entries (standardization file; an
 * unmapped code fails unless it carries another status). Pass items are left out.
 */
export function qaValidations(file: Pick<FileRow, 'validation'> | null | undefined): QaValidations {
  const v = (file?.validation ?? null) as Record<string, unknown> | null;
  const rec = Array.isArray(v?.QA_Rec) ? (v.QA_Rec as unknown[]) : null;
  const mapping = Array.isArray(v?.QA_Mapping) ? (v.QA_Mapping as unknown[]) : null;
  const out: QaValidations = { failed: [], warnings: [], allClear: false };
  const add = (items: unknown[], fallback: 'fail' | 'warning' | 'pass') => {
    for (const raw of items) {
      const item = typeof raw === 'string' ? { error: raw } : raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
      if (!item) continue;
      const status = qaStatus(item.status, fallback);
      if (status === 'fail') out.failed.push(qaItem(item, 'fail'));
      else if (status === 'warning') out.warnings.push(qaItem(item, 'warning'));
    }
  };
  if (rec) add(rec, 'pass');
  if (mapping) add(mapping, 'fail');
  out.allClear = (rec !== null || mapping !== null) && !out.failed.length && !out.warnings.length;
  return out;
}
