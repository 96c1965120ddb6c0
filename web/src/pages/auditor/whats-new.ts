/** Types of the 'What's New' release list (data generated from CHANGELOG.md into whats-new.data.ts). */
import { displayDate } from '../../../../rules';

/** One group of changes of a release ('Added', 'Changed', 'Fixed'...). */
export interface ReleaseGroup {
  title: string;
  items: readonly string[];
}

/** One released version of the changelog. */
export interface Release {
  version: string;
  /** ISO date (YYYY-MM-DD, or YYYY-MM for a release known by its month), or null when the changelog gives none. */
  date: string | null;
  groups: readonly ReleaseGroup[];
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * 'YYYY-MM-DD' as DD/MM/YYYY (the one date format, rules/dates.ts), 'YYYY-MM' (a release known by
 * its month) as 'October 2024'; anything else unchanged.
 */
export function releaseDate(iso: string | null): string {
  const m = /^(\d{4})-(\d{2})$/.exec(iso ?? '');
  if (m) return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
  return displayDate(iso);
}

/** Splits a changelog line on `code` spans: odd entries are code. */
export function codeSpans(text: string): string[] {
  return text.split('`');
}
