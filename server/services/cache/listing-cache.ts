/**
 * A cache of fund listing pages, kept exact by a data version (data-version.ts). On SQLite the
 * version is a counter that triggers move on every write of a table the listings read, of this
 * process or another connection; reads and the pipeline's other writes (standardized rows, lease
 * renewals, logs) do not. A page is served from the cache only when
 * it was computed at the current version and on the same calendar day (the derived late /
 * data-status fields depend on today's date), so any such write makes every cached page stale at
 * once.
 *
 * On PostgreSQL the version is the database's current snapshot (data-version.ts): a commit of any
 * node moves it, so every node's cached pages go stale at once on any write, without waiting for a
 * notification; reading it costs one round trip per request.
 *
 * Nothing read inside an open transaction is cached (a rollback would undo the rows read but not
 * the version). A page is stored under the version read before it was computed, and only if the
 * version has not moved meanwhile (a write while it was computed leaves it uncached). The cache is
 * per application context, holds at most `MAX_ENTRIES` pages (least recently used go first) and
 * stores results that callers must treat as read-only.
 *
 * A page computed elsewhere (`cachedListingJsonAsync`: the read pool's threads, each reading the
 * latest committed data) is stored likewise. Requests for a page that is being computed at the
 * current version wait for that computation; after a write they share one computation started
 * when the running one ends.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import type { AppContext } from '../../context.js';
import { dataVersion, inOpenTransaction } from './data-version.js';
import { todayIso } from '../../lib/dates.js';

/** Largest number of cached pages per context. */
export const MAX_ENTRIES = 256;

/** Most bytes of JSON (and its encoded forms) the cached pages of a context hold: a fund's details can be megabytes. */
export const MAX_BYTES = 64 * 2 ** 20;

const sizeOf = (e: Entry) => (e.json?.length ?? 0) + (e.encoded?.body.byteLength ?? 0) + (e.encoded?.gzip?.byteLength ?? 0);

interface Entry {
  version: string;
  day: string;
  /** the value; absent for a page computed elsewhere as JSON until a caller wants the value */
  value?: unknown;
  /** the value as JSON, made on the first serialised read */
  json?: string;
  /** the JSON in the answer's envelope and gzip-compressed, when made ahead with it (the read pool) */
  encoded?: { body: Uint8Array; gzip?: Uint8Array };
}

const caches = new WeakMap<AppContext, Map<string, Entry>>();
/** A page being computed elsewhere: the version and day it was asked for at, and the computation asked for after it. */
interface Flight {
  version: string;
  day: string;
  entry: Promise<Entry>;
  next?: Promise<unknown>;
}
const computing = new WeakMap<AppContext, Map<string, Flight>>();
/** The current data version of the listings (data-version.ts). */
export function listingVersion(ctx: AppContext): Promise<string> {
  return dataVersion(ctx);
}

function cacheOf(ctx: AppContext): Map<string, Entry> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new Map();
    caches.set(ctx, cache);
  }
  return cache;
}

/** The fresh entry of `key` at this version and day (moved to the most recently used place), if any. */
function freshEntry(cache: Map<string, Entry>, key: string, version: string, day: string): Entry | undefined {
  const hit = cache.get(key);
  if (!hit || hit.version !== version || hit.day !== day) return undefined;
  cache.delete(key);
  cache.set(key, hit);
  return hit;
}

/** Stores an entry computed at `entry.version` if the data has not moved since and no transaction is open. */
async function store(ctx: AppContext, cache: Map<string, Entry>, key: string, entry: Entry): Promise<void> {
  if (inOpenTransaction(ctx) || (await listingVersion(ctx)) !== entry.version) return;
  cache.delete(key);
  cache.set(key, entry);
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  let bytes = 0;
  for (const [, e] of cache) bytes += sizeOf(e);
  // least recently used first, never the entry just stored
  for (const [k, e] of cache) {
    if (bytes <= MAX_BYTES || k === key) break;
    bytes -= sizeOf(e);
    cache.delete(k);
  }
}

/**
 * The computation of `key` at `version` and `day`, shared by every request that asks for it while
 * it runs: the first starts `make`, the others wait for its entry. A request at a newer version
 * than the running computation's waits for it to end, then asks again (`retry`), so a key never
 * has more than one computation waiting behind the running one, however often the data moves.
 * The entry is stored if the data did not move meanwhile (`store`).
 */
function inFlight(ctx: AppContext, key: string, version: string, day: string, make: () => Promise<Entry>, retry: () => Promise<Entry>): Promise<Entry> {
  let flights = computing.get(ctx);
  if (!flights) {
    flights = new Map();
    computing.set(ctx, flights);
  }
  const running = flights.get(key);
  // the running computation was asked for at this version: its answer holds every write so far
  if (running && running.version === version && running.day === day) return running.entry;
  if (running)
    return (running.next ??= running.entry
      .then(
        () => undefined,
        () => undefined,
      )
      .then(retry)) as Promise<Entry>;
  const started: Flight = {
    version,
    day,
    entry: make()
      .then(async (entry) => {
        await store(ctx, cacheOf(ctx), key, entry);
        return entry;
      })
      .finally(() => {
        if (flights.get(key) === started) flights.delete(key);
      }),
  };
  flights.set(key, started);
  return started.entry;
}

/** The entry of `key`, fresh at the current data version and day, computed (once for every request asking at once) when missing or stale. */
async function entryFor(ctx: AppContext, key: string, compute: () => Promise<unknown>): Promise<Entry> {
  const day = todayIso();
  // inside a transaction (the rows read may yet be rolled back): never keep them
  if (inOpenTransaction(ctx)) return { version: '', day, value: await compute() };
  const version = await listingVersion(ctx);
  const hit = freshEntry(cacheOf(ctx), key, version, day);
  if (hit) return hit;
  return inFlight(
    ctx,
    key,
    version,
    day,
    async () => ({ version, day, value: await compute() }),
    () => entryFor(ctx, key, compute),
  );
}

/**
 * Answers `compute()` for `key`, from the cache when the entry was computed at the current data
 * version on the same day, else computing and storing it. Errors thrown by `compute` are not cached.
 * @param key a string naming everything the result depends on besides the data (query, page, user where it matters)
 */
export async function cachedListing<T>(ctx: AppContext, key: string, compute: () => Promise<T>): Promise<T> {
  const entry = await entryFor(ctx, key, compute);
  if (!('value' in entry)) entry.value = JSON.parse(entry.json!);
  return entry.value as T;
}

/**
 * Like `cachedListing`, answering the result as JSON text, serialised once per cached entry. The
 * answer is the same object for as long as the entry is fresh, so a caller may key its own
 * derived forms (encoded, compressed) on it.
 */
export async function cachedListingJson(ctx: AppContext, key: string, compute: () => Promise<unknown>): Promise<{ readonly json: string }> {
  const entry = await entryFor(ctx, key, compute);
  entry.json ??= JSON.stringify(entry.value);
  return entry as { readonly json: string };
}

/**
 * Like `cachedListingJson` for a page computed elsewhere as JSON text, with its encoded answer when
 * made there too (the read pool; the entry keeps both as `json` and `encoded`): a fresh
 * entry answers at once; else `compute()` is awaited, once for every request of the same page at
 * the same version, and its answer stored under the version read before it was asked for.
 */
export async function cachedListingJsonAsync(
  ctx: AppContext,
  key: string,
  compute: () => Promise<{ json: string; encoded?: Entry['encoded'] }>,
): Promise<{ readonly json: string }> {
  const cache = cacheOf(ctx);
  const day = todayIso();
  // inside a transaction (the rows read may yet be rolled back): computed, never kept
  if (inOpenTransaction(ctx)) return compute().then(({ json, encoded }) => ({ version: '', day, json, encoded }) as Entry as { readonly json: string });
  const version = await listingVersion(ctx);
  const hit = freshEntry(cache, key, version, day);
  if (hit) {
    hit.json ??= JSON.stringify(hit.value);
    return hit as { readonly json: string };
  }
  const entry = await inFlight(
    ctx,
    key,
    version,
    day,
    () => compute().then(({ json, encoded }) => ({ version, day, json, encoded })),
    () => cachedListingJsonAsync(ctx, key, compute) as Promise<Entry>,
  );
  entry.json ??= JSON.stringify(entry.value);
  return entry as { readonly json: string };
}

/** Drops every cached page of a context (tests, database resets). */
export function clearListingCache(ctx: AppContext): void {
  caches.get(ctx)?.clear();
}
