/**
 * What every data directory (or PostgreSQL database) holds from its first start on, whoever opens
 * it: the server's bootstrap (server/bootstrap.ts, which adds the demo data), a test case's
 * workspace (server/jobs/test-runner/workspace.ts) and the dev tools' reset: reference data, the
 * fixed saved filters, the first administrator, and the TPAs shipped in `fixtures/tpas`.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf, type DataStore } from '../../db/dialect.js';
import { fixturesDir } from '../../paths.js';
import { sealUnkeyedAuditLog } from '../audit/audit-log.js';
import type { User } from '../auth/tokens.js';
import { backfillDeliveryEvents } from '../delivery-events/backfill.js';
import { seedReferenceData } from '../reference-data/reference-data.js';
import { ensureAdmin } from '../users/users.js';

/** The fixed saved filters (spec: ids 1, 2, 3 - Pending, Approved shown as Open, Deleted). */
export const FIXED_FILTERS = [
  { id: 1, title: 'Pending', filter: { status: { type: 'enum', value: ['Pending'] } } },
  { id: 2, title: 'Open', filter: { status: { type: 'enum', value: ['Approved'] } } },
  { id: 3, title: 'Deleted', filter: { status: { type: 'enum', value: ['Deleted'] } } },
];

/** Creates the fixed saved filters when missing; user filters start at id 1000. */
export async function ensureFixedFilters(ctx: AppContext): Promise<void> {
  const store = storeOf(ctx);
  const { db, tables: t } = store;
  for (const f of FIXED_FILTERS) {
    await db.insert(t.savedFilters).values({ id: f.id, title: f.title, filter: f.filter, fixed: true }).onConflictDoNothing({ target: t.savedFilters.id });
  }
  // user filters start at 1000 (spec: user-saved filters get id 1000)
  await startUserFiltersAt1000(store);
}

/**
 * Moves the id generator of `saved_filters` to 999 unless it is past it already: SQLite's
 * `sqlite_sequence` row of the table, PostgreSQL's identity sequence.
 */
async function startUserFiltersAt1000(store: DataStore): Promise<void> {
  if (store.dialect === 'postgres') {
    const pgDb = store.db as unknown as { execute(query: ReturnType<typeof sql>): Promise<unknown> };
    await pgDb.execute(
      sql`SELECT setval(s, 999) FROM (SELECT pg_get_serial_sequence('saved_filters', 'id')::regclass AS s) AS q WHERE COALESCE(pg_sequence_last_value(s), 0) < 999`,
    );
    return;
  }
  await store.db.run(
    sql`INSERT OR IGNORE INTO sqlite_sequence (name, seq) SELECT 'saved_filters', 999 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'saved_filters')`,
  );
  await store.db.run(sql`UPDATE sqlite_sequence SET seq = 999 WHERE name = 'saved_filters' AND seq < 999`);
}

/** The TPAs shipped in fixtures: `fixtures/tpas/<code>/tpa.json`. */
export function shippedAdministrators(): Array<{ code: string; name: string; region?: string }> {
  const dir = join(fixturesDir(), 'tpas');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((code) => join(dir, code, 'tpa.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { code: string; name: string; region?: string });
}

/**
 * Adds the shipped TPAs that do not exist yet (all, or those of one region).
 * @returns the codes added
 */
export async function addShippedAdministrators(ctx: AppContext, opts: { region?: string } = {}): Promise<string[]> {
  const { db, tables: t } = storeOf(ctx);
  const added: string[] = [];
  for (const tpa of shippedAdministrators()) {
    if (opts.region && tpa.region?.toUpperCase() !== opts.region.toUpperCase()) continue;
    const [existing] = await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.code, tpa.code)).limit(1);
    if (existing) continue;
    await db.insert(t.administrators).values({ code: tpa.code, name: tpa.name, region: tpa.region ?? null });
    added.push(tpa.code);
  }
  return added;
}

/** Demo TPAs from fixtures: `fixtures/tpas/<code>/tpa.json`; returns how many were added. */
export async function seedDemoAdministrators(ctx: AppContext): Promise<number> {
  return (await addShippedAdministrators(ctx)).length;
}

/**
 * Prepares a data directory's fixed content; safe to run at every start: the audit log's seal,
 * reference data, the fixed saved filters, delivery events of older data, the first administrator.
 * @returns the administrator (`ctx.config.adminEmail`) and whether it was created now
 */
export async function prepareDataDir(ctx: AppContext): Promise<{ admin: User; adminCreated: boolean }> {
  // a log written before it was keyed gets its keyed seal first (a no-op once the newest entry is keyed)
  await sealUnkeyedAuditLog(ctx);
  await seedReferenceData(ctx);
  await ensureFixedFilters(ctx);
  // scorecards read delivery events: files and checks stored before they were recorded get theirs once
  await backfillDeliveryEvents(ctx);
  const { user: admin, created: adminCreated } = await ensureAdmin(ctx, ctx.config.adminEmail);
  return { admin, adminCreated };
}
