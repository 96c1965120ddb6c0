/**
 * The fund listing's preferences kept in the browser's local storage, per user (delivery spec
 * section 2): filters, the active saved filter, sorting, last page offset, page size, column order
 * and hidden columns. Reading is tolerant: anything malformed falls back to the defaults.
 */
import type { ListingFilter, SortSpec } from '../api/delivery-types';

/** Listing page size and its choices (auditor spec section 9). */
export const LISTING_PAGE_SIZE = 100;
export const LISTING_PAGE_SIZES = [50, 100, 200] as const;

/** What is remembered of the listing. */
export interface ListingPrefs {
  filters: ListingFilter[];
  activeFilterId: number | null;
  sorting: SortSpec[];
  offset: number;
  rows: number;
  /** Column keys in display order (unknown keys are ignored, new columns go to their default place). */
  columnOrder: string[];
  /** Hidden column keys; null means the defaults. */
  hiddenColumns: string[] | null;
}

/** The defaults: no filter, server default sort, first page of 100. */
export function defaultListingPrefs(): ListingPrefs {
  return { filters: [], activeFilterId: null, sorting: [], offset: 0, rows: LISTING_PAGE_SIZE, columnOrder: [], hiddenColumns: null };
}

/** The storage key of a user's listing preferences. */
export function listingPrefsKey(userId: string | number): string {
  return `fa.listing.${userId}`;
}

const FILTER_TYPES = ['enum', 'text', 'date', 'number'];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function sanitizeFilter(raw: unknown): ListingFilter | null {
  if (!isRecord(raw) || typeof raw.field !== 'string' || !FILTER_TYPES.includes(raw.type as string)) return null;
  const { field, type, value } = raw;
  if (type === 'enum') return Array.isArray(value) ? { field, type, value: value.map(String) } : null;
  if (type === 'text') return typeof value === 'string' ? { field, type, value } : null;
  if (!isRecord(value)) return null;
  if (type === 'date') {
    const pick = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
    return { field, type, value: { from: pick(value.from), to: pick(value.to) } };
  }
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return { field, type: 'number', value: { min: num(value.min), max: num(value.max) } };
}

/** Validates a parsed preferences object; every bad part falls back to its default. */
export function sanitizeListingPrefs(raw: unknown): ListingPrefs {
  const d = defaultListingPrefs();
  if (!isRecord(raw)) return d;
  const filters = Array.isArray(raw.filters) ? raw.filters.map(sanitizeFilter).filter((f): f is ListingFilter => f !== null) : d.filters;
  const sorting = Array.isArray(raw.sorting)
    ? raw.sorting
        .filter((s): s is SortSpec => isRecord(s) && typeof s.field === 'string' && (s.order === 'asc' || s.order === 'desc'))
        .map((s) => ({ field: s.field, order: s.order }))
    : d.sorting;
  const rows = LISTING_PAGE_SIZES.includes(raw.rows as 50) ? (raw.rows as number) : d.rows;
  const offset = typeof raw.offset === 'number' && Number.isInteger(raw.offset) && raw.offset >= 0 ? raw.offset : 0;
  return {
    filters,
    activeFilterId: typeof raw.activeFilterId === 'number' ? raw.activeFilterId : null,
    sorting,
    offset: offset - (offset % rows),
    rows,
    columnOrder: strings(raw.columnOrder),
    hiddenColumns: Array.isArray(raw.hiddenColumns) ? strings(raw.hiddenColumns) : null,
  };
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Reads a user's listing preferences (defaults when none or unreadable). */
export function readListingPrefs(userId: string | number): ListingPrefs {
  try {
    const text = storage()?.getItem(listingPrefsKey(userId));
    return text ? sanitizeListingPrefs(JSON.parse(text)) : defaultListingPrefs();
  } catch {
    return defaultListingPrefs();
  }
}

/** Writes a user's listing preferences (ignored when storage is unavailable). */
export function writeListingPrefs(userId: string | number, prefs: ListingPrefs): void {
  try {
    storage()?.setItem(listingPrefsKey(userId), JSON.stringify(prefs));
  } catch {
    // storage full or disabled: the listing keeps working for this page view
  }
}
