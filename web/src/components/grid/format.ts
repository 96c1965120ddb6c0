/**
 * Cell formats of the delivery grids (spec section 9): percent columns with a % sign, booleans
 * Yes/No, and a date typed in an uploaded csv. Dates and timestamps themselves are shown through
 * the one formatter of every screen, `displayDate` / `displayDateTime` (rules/dates.ts).
 */

import { displayDate } from '../../../../rules';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date typed in an uploaded csv (YYYY-MM-DD or DD/MM/YYYY, the template's two forms) as
 * DD/MM/YYYY, so one grid never mixes forms; other text is shown as typed.
 */
export function formatCsvDate(value: string | null | undefined): string {
  if (!value) return '';
  const v = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return displayDate(v);
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (dmy) return `${pad(Number(dmy[1]))}/${pad(Number(dmy[2]))}/${dmy[3]}`;
  return v;
}

/** A percent value with its sign ('' for none). */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '' : `${value}%`;
}

/** Yes/No of a boolean or a Y/N, yes/no or true/false text (false, 'no' and 'N' mean No; empty stays empty). */
export function yesNo(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') return ['y', 'yes', 'true', '1'].includes(value.trim().toLowerCase()) ? 'Yes' : 'No';
  return value ? 'Yes' : 'No';
}
