/**
 * Formula-injection guard for spreadsheet outputs (DOMAIN.md 2.6): text a spreadsheet program
 * would read as a formula (first character `=`, `+`, `-` or `@`, or a leading tab or carriage
 * return, OWASP's list) gets a leading `'`. Numbers are never changed: only text cells are passed
 * here, so `-5` as a number stays a number and `'-5'` as text becomes `'-5`.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The text of a cell value, neutralised.
 * @param value any value; null and undefined give '', objects their JSON
 */
export function safeCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}
