/**
 * The grid filter and sort model shared by the fund listing and the trail log (delivery spec
 * section 7 "filters, sorting"), turned into drizzle SQL. No user text is ever concatenated into
 * SQL: values travel as parameters.
 *
 * A filter is `{field, type, value}`:
 * - `enum`: value is a list of strings (exact match; an empty list does not filter)
 * - `text`: value is a string, matched as a case-insensitive substring
 * - `date`: value is `{from?, to?}`, ISO dates `YYYY-MM-DD`, both inclusive
 * - `number`: value is `{min?, max?}`, both inclusive
 * Saved filters may also hold the object form `{[field]: {type, value}}`; both are accepted.
 *
 * The SQL differs by database in two places, chosen by the `dialect` argument (SQLite when not
 * given): a text match is LIKE on SQLite (which ignores ASCII case) and ILIKE on PostgreSQL (LIKE
 * there is case-sensitive); a sort puts empty values first in ascending order and last in
 * descending order on both, as SQLite does by itself (PostgreSQL's default is the reverse).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, desc, gte, inArray, lt, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Dialect } from '../../db/dialect.js';
import { ValidationError } from '../../errors.js';

export const FILTER_TYPES = ['enum', 'text', 'date', 'number'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

export type ListingFilter =
  | { field: string; type: 'enum'; value: string[] }
  | { field: string; type: 'text'; value: string }
  | { field: string; type: 'date'; value: { from?: string; to?: string } }
  | { field: string; type: 'number'; value: { min?: number; max?: number } };

export interface SortSpec {
  field: string;
  order: 'asc' | 'desc';
}

/** How a field can be filtered and sorted. */
export interface FieldDef {
  /** SQL expression of the value (sorting and the generic filters). */
  expr: SQLWrapper;
  /** Filter types accepted. */
  types: readonly FilterType[];
  /** Maps an enum value from the wire to the stored value (e.g. 'Open' -> 'Approved'). */
  enumValue?: (v: string) => unknown;
  /** A custom condition replacing the generic one (e.g. codes kept in another table). */
  condition?: (f: ListingFilter, dialect: Dialect) => SQL | undefined;
  /** Not sortable (e.g. a list of codes). */
  noSort?: boolean;
}

export type FieldRegistry = Record<string, FieldDef>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Adds days to an ISO date. */
function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function checkDate(where: string, v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const s = typeof v === 'string' ? v.slice(0, 10) : '';
  if (!ISO_DATE.test(s) || Number.isNaN(Date.parse(`${s}T00:00:00Z`))) throw new ValidationError(`Filter ${where}: dates must be ISO dates YYYY-MM-DD`);
  return s;
}

function checkNumber(where: string, v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new ValidationError(`Filter ${where}: min and max must be numbers`);
  return n;
}

/**
 * Validates filters (array or object form) against a registry.
 * @throws ValidationError naming the unknown field, the refused type or the badly shaped value
 */
export function normalizeFilters(input: unknown, registry: FieldRegistry): ListingFilter[] {
  if (input === undefined || input === null) return [];
  let list: unknown[];
  if (Array.isArray(input)) list = input;
  else if (isRecord(input)) list = Object.entries(input).map(([field, f]) => (isRecord(f) ? { field, ...f } : { field, value: f }));
  else throw new ValidationError('Filters must be a list of {field, type, value}');
  return list.map((raw, i) => {
    if (!isRecord(raw) || typeof raw.field !== 'string') throw new ValidationError(`Filter ${i + 1} needs a field name`);
    const field = raw.field;
    const def = registry[field];
    if (!def)
      throw new ValidationError(`Unknown filter field: ${field}`, [`Unknown filter field: ${field}; known fields: ${Object.keys(registry).join(', ')}`]);
    const type = raw.type as FilterType;
    if (!FILTER_TYPES.includes(type)) throw new ValidationError(`Filter ${field}: type must be one of ${FILTER_TYPES.join(', ')}`);
    if (!def.types.includes(type)) throw new ValidationError(`Filter ${field}: cannot be filtered by ${type} (use ${def.types.join(' or ')})`);
    const value = raw.value;
    switch (type) {
      case 'enum':
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
          throw new ValidationError(`Filter ${field}: an enum filter needs a list of values`);
        }
        return { field, type, value: value.map(String) };
      case 'text':
        if (typeof value !== 'string') throw new ValidationError(`Filter ${field}: a text filter needs a text value`);
        return { field, type, value };
      case 'date': {
        if (!isRecord(value)) throw new ValidationError(`Filter ${field}: a date filter needs {from, to}`);
        return { field, type, value: { from: checkDate(field, value.from), to: checkDate(field, value.to) } };
      }
      case 'number': {
        if (!isRecord(value)) throw new ValidationError(`Filter ${field}: a number filter needs {min, max}`);
        return { field, type, value: { min: checkNumber(field, value.min), max: checkNumber(field, value.max) } };
      }
    }
  });
}

/**
 * `expr like '%text%'` with LIKE wildcards in the text escaped, ignoring case. SQLite's LIKE
 * ignores case (for ASCII, as its lower() does) and is much cheaper than lower() on every row;
 * PostgreSQL's ILIKE (whose escape character is the backslash already) does the same there.
 */
export function containsText(expr: SQLWrapper, text: string, dialect: Dialect = 'sqlite'): SQL {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  if (dialect === 'postgres') return sql`${expr} ilike ${pattern}`;
  return sql`${expr} like ${pattern} escape '\\'`;
}

/** The SQL condition of one validated filter (undefined when it does not restrict). */
export function filterCondition(f: ListingFilter, registry: FieldRegistry, dialect: Dialect = 'sqlite'): SQL | undefined {
  const def = registry[f.field];
  if (def.condition) return def.condition(f, dialect);
  const expr = def.expr as SQL;
  switch (f.type) {
    case 'enum':
      return f.value.length
        ? inArray(
            expr,
            f.value.map((v) => (def.enumValue ? def.enumValue(v) : v)),
          )
        : undefined;
    case 'text':
      return f.value.trim() ? containsText(expr, f.value.trim(), dialect) : undefined;
    case 'date':
      return and(f.value.from ? gte(expr, f.value.from) : undefined, f.value.to ? lt(expr, addDays(f.value.to, 1)) : undefined);
    case 'number':
      return and(f.value.min !== undefined ? gte(expr, f.value.min) : undefined, f.value.max !== undefined ? lte(expr, f.value.max) : undefined);
  }
}

/**
 * Validates sorting `[{field, order}]` (order 'asc'|'desc', or 1 / -1 as grids send it).
 * @throws ValidationError naming an unknown or unsortable field
 */
export function normalizeSorting(input: unknown, registry: FieldRegistry, aliases: Record<string, string> = {}): SortSpec[] {
  if (input === undefined || input === null) return [];
  const list = Array.isArray(input) ? input : [input];
  return list.map((raw) => {
    if (!isRecord(raw) || typeof raw.field !== 'string') throw new ValidationError('Sorting must be a list of {field, order}');
    const field = aliases[raw.field] ?? raw.field;
    const def = registry[field];
    if (!def || def.noSort) throw new ValidationError(`Cannot sort by: ${raw.field}`);
    const o = raw.order;
    const order = o === 'desc' || o === -1 || o === 'DESC' ? 'desc' : o === 'asc' || o === 1 || o === 'ASC' || o === undefined ? 'asc' : null;
    if (!order) throw new ValidationError(`Sort order of ${raw.field} must be asc or desc`);
    return { field, order };
  });
}

/** ORDER BY terms for validated sorting (empty values first ascending, last descending, on both databases). */
export function orderTerms(sorting: SortSpec[], registry: FieldRegistry, dialect: Dialect = 'sqlite'): SQL[] {
  return sorting.map((s) => {
    const expr = registry[s.field].expr;
    if (dialect === 'postgres') return s.order === 'desc' ? sql`${expr} desc nulls last` : sql`${expr} asc nulls first`;
    return s.order === 'desc' ? desc(expr as SQL) : asc(expr as SQL);
  });
}
