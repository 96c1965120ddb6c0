/** Types of the 'What's New' release list (data generated from CHANGELOG.md into whats-new.data.ts). */

/** One group of changes of a release ('Added', 'Changed', 'Fixed'...). */
export interface ReleaseGroup {
  title: string;
  items: readonly string[];
}

/** One released version of the changelog. */
export interface Release {
  version: string;
  /** ISO date, or null when the changelog gives none. */
  date: string | null;
  groups: readonly ReleaseGroup[];
}

/** 'YYYY-MM-DD' as DD/MM/YYYY (the auditor views' date format); anything else unchanged. */
export function releaseDate(iso: string | null): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : (iso ?? '');
}

/** Splits a changelog line on `code` spans: odd entries are code. */
export function codeSpans(text: string): string[] {
  return text.split('`');
}
