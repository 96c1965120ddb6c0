/**
 * Reference data (spec section 3 "Reference data (nrd)"): static lists from the catalogue (ISO
 * 3166-1 countries, ISO 4217 currencies, accounting standards, ...) seeded into `reference_data`,
 * plus the dynamic `administrators` and `users` lists. Deprecated entries stay in the database and
 * are left out of the options.
 */
import { and, asc, eq, notLike } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, referenceData, users } from '../../db/schema/index.js';
import { STATIC_LISTS, type RefEntry, type StaticListName } from './catalog/index.js';
import { SERVICE_USER_DOMAIN } from '../users/users.js';

export type { RefEntry, StaticListName };
export type NrdListName = StaticListName | 'administrators' | 'users';
export type Nrd = Record<NrdListName, RefEntry[]>;

/**
 * Inserts catalogue entries missing from the database and updates labels and deprecation of
 * existing ones (entries removed from the catalogue are kept, marked deprecated).
 * @returns number of rows inserted or changed
 */
export function seedReferenceData(ctx: AppContext): number {
  let changed = 0;
  const existing = new Map(
    ctx.db
      .select()
      .from(referenceData)
      .all()
      .map((r) => [`${r.list}\u0000${r.code}`, r]),
  );
  const seen = new Set<string>();
  ctx.db.transaction((tx) => {
    for (const [list, entries] of Object.entries(STATIC_LISTS)) {
      entries.forEach((e, sortOrder) => {
        const key = `${list}\u0000${e.code}`;
        seen.add(key);
        const row = existing.get(key);
        if (!row) {
          tx.insert(referenceData).values({ list, code: e.code, altCode: e.alt_code, deprecated: e.deprecated, sortOrder }).run();
          changed++;
        } else if (row.altCode !== e.alt_code || row.deprecated !== e.deprecated || row.sortOrder !== sortOrder) {
          tx.update(referenceData).set({ altCode: e.alt_code, deprecated: e.deprecated, sortOrder }).where(eq(referenceData.id, row.id)).run();
          changed++;
        }
      });
    }
    for (const [key, row] of existing) {
      if (!seen.has(key) && !row.deprecated) {
        tx.update(referenceData).set({ deprecated: true }).where(eq(referenceData.id, row.id)).run();
        changed++;
      }
    }
  });
  return changed;
}

/** Every list for selects: deprecated entries omitted; administrators and users (not service users) from their tables. */
export function getNrd(ctx: AppContext): Nrd {
  const out = {} as Nrd;
  for (const name of Object.keys(STATIC_LISTS) as StaticListName[]) out[name] = [];
  const rows = ctx.db
    .select()
    .from(referenceData)
    .where(eq(referenceData.deprecated, false))
    .orderBy(asc(referenceData.list), asc(referenceData.sortOrder))
    .all();
  for (const r of rows) (out[r.list as StaticListName] ??= []).push({ code: r.code, alt_code: r.altCode, deprecated: false });
  out.administrators = ctx.db
    .select()
    .from(administrators)
    .orderBy(asc(administrators.name))
    .all()
    .map((a) => ({ code: a.code, alt_code: a.name, deprecated: false }));
  // people to pick (assignees, recipients): service users of API keys are left out
  out.users = ctx.db
    .select()
    .from(users)
    .where(and(eq(users.disabled, false), notLike(users.email, `%@${SERVICE_USER_DOMAIN}`)))
    .orderBy(asc(users.lastName), asc(users.firstName))
    .all()
    .map((u) => ({ code: String(u.id), alt_code: `${u.firstName} ${u.lastName}`.trim() || u.email, deprecated: false }));
  return out;
}

/** Current codes of each static list, keyed by lower-case code, valued by the canonical code. */
export type ReferenceIndex = Record<StaticListName, Map<string, string>>;

/**
 * Loads every current (non-deprecated) code into memory for fast, case-insensitive validation of
 * many rows (bulk upload). Build once per request.
 */
export function referenceIndex(ctx: AppContext): ReferenceIndex {
  const index = {} as ReferenceIndex;
  for (const name of Object.keys(STATIC_LISTS) as StaticListName[]) index[name] = new Map();
  const rows = ctx.db.select({ list: referenceData.list, code: referenceData.code }).from(referenceData).where(eq(referenceData.deprecated, false)).all();
  for (const r of rows) index[r.list as StaticListName]?.set(r.code.toLowerCase(), r.code);
  return index;
}
