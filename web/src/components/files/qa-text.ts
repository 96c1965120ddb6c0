/** Texts of the QA Validations popover (auditor spec 2.3): the summary of a file's QA groups and one line per item. */
import type { IncompleteFile, QaItem, QaValidations } from '../../api/auditor-types';

const amount = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The text of one item: "NAV: diff 12.50" (fund currency), "account_code - tb.csv (ACC999)", a
 * check that could not be performed with its reason (and file and line), or the error.
 */
export function qaItemText(item: QaItem): string {
  if (item.kind === 'amount') {
    // a check without an amount to compare (diff 0) that explains itself: the explanation only
    if (item.diff === 0 && item.message) return `${item.name}: ${item.message}`;
    return `${item.name}: diff ${amount.format(item.diff)}${item.message ? ` (${item.message})` : ''}`;
  }
  if (item.kind === 'mapping') return `${item.column} - ${item.file}${item.name ? ` (${item.name})` : ''}${item.error ? `: ${item.error}` : ''}`;
  if (item.kind === 'notPerformed') {
    const where = item.file ? ` (${item.file}${item.line !== undefined ? `, line ${item.line}` : ''})` : '';
    return `${item.name}: ${item.reason}${where}`;
  }
  return item.error;
}

/** The text of a standardization that makes a work paper 'Incomplete data': "holdings.csv (holdings): 1 unmapped code, 0 row errors". */
export function incompleteFileText(f: IncompleteFile): string {
  return `${f.file} (${f.sdmType}): ${plural(f.unmappedCodes, 'unmapped code')}, ${plural(f.rowErrors, 'row error')}`;
}

/** Whether a work paper's outcome is 'Incomplete data' (its Invalid standardizations or adjustment lines that do not fit). */
export const incomplete = (qa: Pick<QaValidations, 'incompleteData' | 'incompleteAdjustments'>): boolean =>
  qa.incompleteData.length > 0 || qa.incompleteAdjustments.length > 0;

/**
 * The cell's summary: its colour key and label; null when the file has not been checked. Red when
 * something failed or the work paper's data is incomplete (or a check that failed could not be
 * performed), orange for warnings and checks not performed, green when all clear. The label names
 * each group as the work paper counts them: 'Incomplete data, 1 failed, 8 warnings, 32 not performed'.
 * Incomplete data: an Invalid standardization or an audit adjustment line that does not fit the
 * fund's data, as the work paper's Summary says.
 */
export function qaSummary(qa: QaValidations): { tone: 'fail' | 'warning' | 'clear'; label: string } | null {
  const parts = [
    ...(incomplete(qa) ? ['Incomplete data'] : []),
    ...(qa.failed.length ? [`${qa.failed.length} failed`] : []),
    ...(qa.warnings.length ? [plural(qa.warnings.length, 'warning')] : []),
    ...(qa.notPerformed.length ? [`${qa.notPerformed.length} not performed`] : []),
  ];
  if (parts.length) {
    const red = incomplete(qa) || qa.failed.length > 0 || qa.notPerformed.some((i) => i.status === 'fail');
    return { tone: red ? 'fail' : 'warning', label: parts.join(', ') };
  }
  if (qa.allClear) return { tone: 'clear', label: 'All clear' };
  return null;
}
