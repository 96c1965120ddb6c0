/** Display formats of the auditor views (spec section 9): DD/MM/YYYY dates, Yes/No, percentages, labels. */

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO date or date-time as DD/MM/YYYY ('' for none; a date-only value is not shifted by time zone). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) return `${m[3]}/${m[2]}/${m[1]}`;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** An ISO date-time as DD/MM/YYYY HH:mm:ss in local time ('' for none). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

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
