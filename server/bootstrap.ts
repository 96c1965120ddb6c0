/**
 * First-start and every-start preparation of a data directory: reference data, the fixed saved
 * filters, the first administrator, and (on first start, when enabled) the demo data: the TPAs
 * shipped in `fixtures/tpas` (including the demo TPA `demo_test`) and the real fund requests of
 * `fixtures/fund-requests/real-funds.csv` (SEC N-PORT filers); their demo deliveries are marked
 * due for the first `serve` (server/services/demo/deliveries.ts).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from './context.js';
import { storeOf, type DataStore } from './db/dialect.js';
import { fixturesDir } from './paths.js';
import type { User } from './services/auth/tokens.js';
import { uploadAndSaveBulk } from './services/bulk-upload/bulk-upload.js';
import { seedFixtureMappings } from './services/mappings/store.js';
import { backfillDeliveryEvents } from './services/delivery-events/backfill.js';
import { DEMO_DATA_SAVE } from './services/demo/cleanup.js';
import { markDemoDeliveriesDue } from './services/demo/deliveries.js';
import { seedDemoChasing } from './services/chasing/demo.js';
import { seedReferenceData } from './services/reference-data/reference-data.js';
import { ensureAdmin } from './services/users/users.js';
import { sealUnkeyedAuditLog } from './services/audit/audit-log.js';

/** The fixed saved filters (spec: ids 1, 2, 3 - Pending, Approved shown as Open, Deleted). */
export const FIXED_FILTERS = [
  { id: 1, title: 'Pending', filter: { status: { type: 'enum', value: ['Pending'] } } },
  { id: 2, title: 'Open', filter: { status: { type: 'enum', value: ['Approved'] } } },
  { id: 3, title: 'Deleted', filter: { status: { type: 'enum', value: ['Deleted'] } } },
];

export interface BootstrapResult {
  admin: User;
  adminCreated: boolean;
  demoSeeded: boolean;
}

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

/** Prepares a data directory (or a PostgreSQL database); safe to run at every start. */
export async function bootstrap(ctx: AppContext): Promise<BootstrapResult> {
  // a log written before it was keyed gets its keyed seal first (a no-op once the newest entry is keyed)
  await sealUnkeyedAuditLog(ctx);
  await seedReferenceData(ctx);
  await ensureFixedFilters(ctx);
  // scorecards read delivery events: files and checks stored before they were recorded get theirs once
  await backfillDeliveryEvents(ctx);
  const { user: admin, created: adminCreated } = await ensureAdmin(ctx, ctx.config.adminEmail);
  let demoSeeded = false;
  if (adminCreated && ctx.config.seedDemoData) {
    const addedCodes = await addShippedAdministrators(ctx);
    demoSeeded = addedCodes.length > 0;
    if (demoSeeded) await seedFixtureMappings(ctx);
    if (demoSeeded) await markDemoDeliveriesDue(ctx);
    const csv = join(fixturesDir(), 'fund-requests', 'real-funds.csv');
    if (demoSeeded && existsSync(csv)) {
      try {
        // the demo TPA's request is the demo's own: demo mode may remove it while nobody changed it
        const { failed } = await uploadAndSaveBulk(ctx, admin, 'real-funds.csv', readFileSync(csv), DEMO_DATA_SAVE);
        if (failed.length) ctx.log.warn({ failed }, 'some demo fund requests could not be loaded');
        await seedDemoChasing(ctx, addedCodes);
      } catch (err) {
        ctx.log.warn({ err }, 'the demo fund requests could not be loaded');
      }
    }
  }
  return { admin, adminCreated, demoSeeded };
}
