/**
 * First-start and every-start preparation of a data directory: its fixed content
 * (server/services/setup/prepare.ts: reference data, the fixed saved filters, the first
 * administrator) and (on first start, when enabled) the demo data: the TPAs shipped in
 * `fixtures/tpas` (including the demo TPA `demo_test`) and the real fund requests of
 * `fixtures/fund-requests/real-funds.csv` (SEC N-PORT filers); their demo deliveries are marked
 * due for the first `serve` (server/services/demo/deliveries.ts).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from './context.js';
import { fixturesDir } from './paths.js';
import type { User } from './services/auth/tokens.js';
import { uploadAndSaveBulk } from './services/bulk-upload/bulk-upload.js';
import { seedDemoChasing } from './services/chasing/demo.js';
import { DEMO_DATA_SAVE } from './services/demo/cleanup.js';
import { markDemoDeliveriesDue } from './services/demo/deliveries.js';
import { seedFixtureMappings } from './services/mappings/store.js';
import { addShippedAdministrators, prepareDataDir } from './services/setup/prepare.js';

export interface BootstrapResult {
  admin: User;
  adminCreated: boolean;
  demoSeeded: boolean;
}

/** Prepares a data directory (or a PostgreSQL database); safe to run at every start. */
export async function bootstrap(ctx: AppContext): Promise<BootstrapResult> {
  const { admin, adminCreated } = await prepareDataDir(ctx);
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
