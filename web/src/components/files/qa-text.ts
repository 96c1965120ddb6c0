/** Texts of the QA Validations popover (auditor spec 2.3): the summary of a file's QA groups and one line per item. */
import type { QaItem, QaValidations } from '../../api/auditor-types';

const amount = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The text of one item: "NAV: diff 12.50" (fund currency), "account_code - tb.csv (ACC999)" or the error. */
export function qaItemText(item: QaItem): string {
  if (item.kind === 'amount') {
    // a check without an amount to compare (diff 0) that explains itself: the explanation only
    if (item.diff === 0 && item.message) return `${item.name}: ${item.message}`;
    return `${item.name}: diff ${amount.format(item.diff)}${item.message ? ` (${item.message})` : ''}`;
  }
  if (item.kind === 'mapping') return `${item.column} - ${item.file}${item.name ? ` (${item.name})` : ''}${item.error ? `: ${item.error}` : ''}`;
  return item.error;
}

/** The cell's summary: its colour key and label; null when the file has not been checked. */
export function qaSummary(qa: QaValidations): { tone: 'fail' | 'warning' | 'clear'; label: string } | null {
  const warnings = `${qa.warnings.length} warning${qa.warnings.length === 1 ? '' : 's'}`;
  if (qa.failed.length) return { tone: 'fail', label: `${qa.failed.length} failed${qa.warnings.length ? `, ${warnings}` : ''}` };
  if (qa.warnings.length) return { tone: 'warning', label: warnings };
  if (qa.allClear) return { tone: 'clear', label: 'All clear' };
  return null;
}
