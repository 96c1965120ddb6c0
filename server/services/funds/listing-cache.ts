/**
 * A cache of fund listing pages, kept exact by a data version: SQLite's `PRAGMA data_version`
 * (moves when another connection - the CLI on the same data directory, a worker thread - commits
 * a write) together with this connection's `total_changes()` (moves on every row this process
 * inserts, updates or deletes). Reads move neither. A page is served from the cache only when it
 * was computed at the current version and on the same calendar day (the derived late / data-status
 * fields depend on today's date), so any write makes every cached page stale at once; while the
 * pipeline writes, pages are simply recomputed. Reading the version costs two pragma-level reads.
 *
 * Nothing read inside an open transaction is cached (a rollback would undo the rows read but not
 * the version). The cache is per application context, holds at most `MAX_ENTRIES` pages (least recently used
 * go first) and stores results that callers must treat as read-only.
 */
import type { AppContext } from '../../context.js';
import { todayIso } from './derive.js';

/** Largest number of cached pages per context. */
export const MAX_ENTRIES = 256;

interface Entry {
  version: string;
  day: string;
  value: unknown;
  /** the value as JSON, made on the first serialised read */
  json?: string;
}

const caches = new WeakMap<AppContext, Map<string, Entry>>();
const versionStatements = new WeakMap<AppContext, { data: { get(): unknown }; changes: { get(): unknown } }>();

/** The current data version of the listings: "<data_version>:<total_changes>". */
export function listingVersion(ctx: AppContext): string {
  let stmts = versionStatements.get(ctx);
  if (!stmts) {
    stmts = { data: ctx.sqlite.prepare('PRAGMA data_version').pluck(), changes: ctx.sqlite.prepare('SELECT total_changes()').pluck() };
    versionStatements.set(ctx, stmts);
  }
  return `${stmts.data.get()}:${stmts.changes.get()}`;
}

/** The entry of `key`, fresh at the current data version and day, computed when missing or stale. */
function entryFor(ctx: AppContext, key: string, compute: () => unknown): Entry {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new Map();
    caches.set(ctx, cache);
  }
  const version = listingVersion(ctx);
  const day = todayIso();
  // inside a transaction the rows read may yet be rolled back, leaving the version where it is: never keep them
  if (ctx.sqlite.inTransaction) return { version, day, value: compute() };
  const hit = cache.get(key);
  if (hit && hit.version === version && hit.day === day) {
    // refresh its place in the least-recently-used order
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const entry: Entry = { version, day, value: compute() };
  // a compute that wrote (none should) would have moved the version: keep the entry only if unchanged
  if (listingVersion(ctx) === version) {
    cache.delete(key);
    cache.set(key, entry);
    while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  }
  return entry;
}

/**
 * Answers `compute()` for `key`, from the cache when the entry was computed at the current data
 * version on the same day, else computing and storing it. Errors thrown by `compute` are not cached.
 * @param key a string naming everything the result depends on besides the data (query, page, user where it matters)
 */
export function cachedListing<T>(ctx: AppContext, key: string, compute: () => T): T {
  return entryFor(ctx, key, compute).value as T;
}

/**
 * Like `cachedListing`, answering the result as JSON text, serialised once per cached entry. The
 * answer is the same object for as long as the entry is fresh, so a caller may key its own
 * derived forms (encoded, compressed) on it.
 */
export function cachedListingJson(ctx: AppContext, key: string, compute: () => unknown): { readonly json: string } {
  const entry = entryFor(ctx, key, compute);
  entry.json ??= JSON.stringify(entry.value);
  return entry as { readonly json: string };
}

/** Drops every cached page of a context (tests, database resets). */
export function clearListingCache(ctx: AppContext): void {
  caches.get(ctx)?.clear();
}
