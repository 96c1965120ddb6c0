/**
 * Formula-injection guard for spreadsheet outputs (DOMAIN.md 2.6): a text cell beginning with
 * `=`, `+`, `-` or `@` (or a tab / carriage return, which some spreadsheet programs strip before
 * reading a formula) is prefixed with `'` so it is shown as text, never run. Used by the xlsx work
 * papers and the CSV exports alike. Numbers must be written as numbers, not passed through here.
 */

const DANGEROUS = /^[=+\-@\t\r]/;

/** `s` made safe for a spreadsheet cell: `'` + s when it starts with = + - @ (or tab / CR). */
export function safeCellText(s: string): string {
  return DANGEROUS.test(s) ? `'${s}` : s;
}

/** True when `s` would be neutralised by `safeCellText`. */
export const needsNeutralising = (s: string): boolean => DANGEROUS.test(s);
