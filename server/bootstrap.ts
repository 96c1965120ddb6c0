/**
 * First-start and every-start preparation of a data directory: reference data, the fixed saved
 * filters, the first administrator, and (on first start, when enabled) the demo data: the TPAs
 * shipped in `fixtures/tpas` (including the demo TPA `demo_test`) and the real fund requests of
 * `fixtures/fund-requests/real-funds.csv` (SEC N-PORT filers); their demo deliveries are marked
 * due for the first `serve` (server/services/demo/deliveries.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppContext } from './context.js';
import { administrators, savedFilters } from './db/schema/index.js';
import { fixturesDir } from './paths.js';
import type { User } from './services/auth/tokens.js';
import { uploadAndSaveBulk } from './services/bulk-upload/bulk-upload.js';
import { seedFixtureMappings } from './services/mappings/store.js';
import { markDemoDeliveriesDue } from './services/demo/deliveries.js';
import { seedReferenceData } from './services/reference-data/reference-data.js';
import { ensureAdmin } from './services/users/users.js';

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
export function ensureFixedFilters(ctx: AppContext): void {
  for (const f of FIXED_FILTERS) {
    const row = ctx.db.select().from(savedFilters).where(eq(savedFilters.id, f.id)).get();
    if (!row) ctx.db.insert(savedFilters).values({ id: f.id, title: f.title, filter: f.filter, fixed: true }).run();
  }
  // user filters start at 1000 (spec: user-saved filters get id 1000)
  ctx.sqlite
    .prepare(
      "INSERT OR IGNORE INTO sqlite_sequence (name, seq) SELECT 'saved_filters', 999 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'saved_filters')",
    )
    .run();
  ctx.sqlite.prepare("UPDATE sqlite_sequence SET seq = 999 WHERE name = 'saved_filters' AND seq < 999").run();
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
export function addShippedAdministrators(ctx: AppContext, opts: { region?: string } = {}): string[] {
  const added: string[] = [];
  for (const tpa of shippedAdministrators()) {
    if (opts.region && tpa.region?.toUpperCase() !== opts.region.toUpperCase()) continue;
    if (ctx.db.select().from(administrators).where(eq(administrators.code, tpa.code)).get()) continue;
    ctx.db
      .insert(administrators)
      .values({ code: tpa.code, name: tpa.name, region: tpa.region ?? null })
      .run();
    added.push(tpa.code);
  }
  return added;
}

/** Demo TPAs from fixtures: `fixtures/tpas/<code>/tpa.json`; returns how many were added. */
export function seedDemoAdministrators(ctx: AppContext): number {
  return addShippedAdministrators(ctx).length;
}

/** Prepares a data directory; safe to run at every start. */
export function bootstrap(ctx: AppContext): BootstrapResult {
  seedReferenceData(ctx);
  ensureFixedFilters(ctx);
  const { user: admin, created: adminCreated } = ensureAdmin(ctx, ctx.config.adminEmail);
  let demoSeeded = false;
  if (adminCreated && ctx.config.seedDemoData) {
    demoSeeded = seedDemoAdministrators(ctx) > 0;
    if (demoSeeded) seedFixtureMappings(ctx);
    if (demoSeeded) markDemoDeliveriesDue(ctx);
    const csv = join(fixturesDir(), 'fund-requests', 'real-funds.csv');
    if (demoSeeded && existsSync(csv)) {
      try {
        const { failed } = uploadAndSaveBulk(ctx, admin, 'real-funds.csv', readFileSync(csv));
        if (failed.length) ctx.log.warn({ failed }, 'some demo fund requests could not be loaded');
      } catch (err) {
        ctx.log.warn({ err }, 'the demo fund requests could not be loaded');
      }
    }
  }
  return { admin, adminCreated, demoSeeded };
}
