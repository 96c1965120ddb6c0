/**
 * Reference data (spec section 3 "Reference data (nrd)"): static lists from the catalogue (ISO
 * 3166-1 countries, ISO 4217 currencies, accounting standards, ...) seeded into `reference_data`,
 * plus the dynamic `administrators` and `users` lists. Deprecated entries stay in the database and
 * are left out of the options.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, notLike } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { cachedListingJson } from '../cache/listing-cache.js';
import { STATIC_LISTS, type RefEntry, type StaticListName } from './catalog/index.js';
import { SERVICE_USER_DOMAIN } from '../users/users.js';

export type { RefEntry, StaticListName };
export type NrdListName = StaticListName | 'administrators' | 'users';
export type Nrd = Record<NrdListName, RefEntry[]>;

/**
 * Inserts catalogue entries missing from the database and updates labels and deprecation of
 * existing ones (entries removed from the catalogue are kept, marked deprecated), in one
 * transaction; new entries are inserted in batches.
 * @returns number of rows inserted or changed
 */
export async function seedReferenceData(ctx: AppContext): Promise<number> {
  const { tables: t } = storeOf(ctx);
  return transaction(ctx, async (tx) => {
    const existing = new Map((await tx.select().from(t.referenceData)).map((r) => [`${r.list}\u0000${r.code}`, r]));
    const seen = new Set<string>();
    const inserts: Array<typeof t.referenceData.$inferInsert> = [];
    const updates: Array<{ id: number; set: Partial<typeof t.referenceData.$inferInsert> }> = [];
    for (const [list, entries] of Object.entries(STATIC_LISTS)) {
      entries.forEach((e, sortOrder) => {
        const key = `${list}\u0000${e.code}`;
        seen.add(key);
        const row = existing.get(key);
        if (!row) inserts.push({ list, code: e.code, altCode: e.alt_code, deprecated: e.deprecated, sortOrder });
        else if (row.altCode !== e.alt_code || row.deprecated !== e.deprecated || row.sortOrder !== sortOrder)
          updates.push({ id: row.id, set: { altCode: e.alt_code, deprecated: e.deprecated, sortOrder } });
      });
    }
    for (const [key, row] of existing) if (!seen.has(key) && !row.deprecated) updates.push({ id: row.id, set: { deprecated: true } });
    for (let i = 0; i < inserts.length; i += SEED_BATCH) await tx.insert(t.referenceData).values(inserts.slice(i, i + SEED_BATCH));
    for (const u of updates) await tx.update(t.referenceData).set(u.set).where(eq(t.referenceData.id, u.id));
    return inserts.length + updates.length;
  });
}

/** Catalogue entries inserted per statement (5 values each, well under either database's limit). */
const SEED_BATCH = 500;

/** Every list for selects: deprecated entries omitted; administrators and users (not service users) from their tables. */
export async function getNrd(ctx: AppContext): Promise<Nrd> {
  const { db, tables: t } = storeOf(ctx);
  const out = {} as Nrd;
  for (const name of Object.keys(STATIC_LISTS) as StaticListName[]) out[name] = [];
  const rows = await db
    .select()
    .from(t.referenceData)
    .where(eq(t.referenceData.deprecated, false))
    .orderBy(asc(t.referenceData.list), asc(t.referenceData.sortOrder));
  for (const r of rows) (out[r.list as StaticListName] ??= []).push({ code: r.code, alt_code: r.altCode, deprecated: false });
  out.administrators = (await db.select().from(t.administrators).orderBy(asc(t.administrators.name))).map((a) => ({
    code: a.code,
    alt_code: a.name,
    deprecated: false,
  }));
  // people to pick (assignees, recipients): service users of API keys are left out
  out.users = (
    await db
      .select()
      .from(t.users)
      .where(and(eq(t.users.disabled, false), notLike(t.users.email, `%@${SERVICE_USER_DOMAIN}`)))
      .orderBy(asc(t.users.lastName), asc(t.users.firstName))
  ).map((u) => ({ code: String(u.id), alt_code: `${u.firstName} ${u.lastName}`.trim() || u.email, deprecated: false }));
  return out;
}

/** Current codes of each static list, keyed by lower-case code, valued by the canonical code. */
export type ReferenceIndex = Record<StaticListName, Map<string, string>>;

/**
 * Loads every current (non-deprecated) code into memory for fast, case-insensitive validation of
 * many rows (bulk upload). Build once per request.
 */
export async function referenceIndex(ctx: AppContext): Promise<ReferenceIndex> {
  const { db, tables: t } = storeOf(ctx);
  const index = {} as ReferenceIndex;
  for (const name of Object.keys(STATIC_LISTS) as StaticListName[]) index[name] = new Map();
  const rows = await db.select({ list: t.referenceData.list, code: t.referenceData.code }).from(t.referenceData).where(eq(t.referenceData.deprecated, false));
  for (const r of rows) index[r.list as StaticListName]?.set(r.code.toLowerCase(), r.code);
  return index;
}

/**
 * `getNrd` as JSON, kept with the listing pages (listing-cache.ts) until a write to the tables
 * they read (reference data, administrators, users) or the next day: every page of the UI asks
 * for it, and building and serialising the lists each time cost the request thread more than
 * any other call of a dashboard.
 * @returns `{ json }`, the same object while it is fresh
 */
export function nrdJson(ctx: AppContext): Promise<{ readonly json: string }> {
  return cachedListingJson(ctx, '["nrd"]', () => getNrd(ctx));
}
