/**
 * Display formats of the auditor views (spec section 9): Yes/No, percentages, labels. Dates are
 * shown through the one formatter of every screen, `displayDate` / `displayDateTime` (rules/dates.ts).
 */

/** Booleans as Yes/No: false, 'N', 'no' and empty mean No. */
export function yesNo(value: unknown): string {
  if (value === true || value === 1) return 'Yes';
  if (typeof value === 'string' && /^(y|yes|true|1)$/i.test(value.trim())) return 'Yes';
  return 'No';
}

/** A percentage value with a % sign ('' for none). */
export function percent(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  return `${value}%`;
}

/** Labels of the data request status (spec section 4), from the rules module. */
export { DATA_REQUEST_LABELS, dataRequestStatusLabel as dataRequestLabel } from '../../../../rules';

/** Export job statuses as the Downloads Queue shows them: Done, Error, Running or Pending. */
export function exportStatusLabel(status: string | null | undefined): 'Done' | 'Error' | 'Running' | 'Pending' {
  switch ((status ?? '').toLowerCase()) {
    case 'done':
    case 'success':
      return 'Done';
    case 'error':
    case 'ignored':
      return 'Error';
    case 'running':
      return 'Running';
    default:
      return 'Pending';
  }
}
