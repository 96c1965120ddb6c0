/**
 * The demo deliveries of a first start: real TPA files, shipped in `fixtures/tpas`, imported for
 * the demo fund requests of `fixtures/fund-requests/real-funds.csv` so a newcomer finds funds whose
 * files went through the real pipeline (identification, standardization, checks, work papers):
 * - Keystone's one workbook of the Dupree Kentucky fund (trial balance, holdings, share capital and
 *   prices sheets): every file Valid, every check passes or warns, a work paper without
 *   'Incomplete data';
 * - Meridian's holdings of the Goldman Sachs Bond Fund with an instrument type the mapping does not
 *   know: holdings Invalid with a QA validation naming the code, and failed checks.
 * The demo TPA `demo_test` gets nothing: demo mode (demo.ts) delivers its files in its step 2, and
 * the same bytes imported twice would not be processed again.
 * Importing only queues the jobs; the job threads of `serve` run them. The first preparation of a
 * data directory with demo data marks the deliveries due (whichever command made it: `serve`,
 * `init` or any other); the first `serve` then imports them once.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { fixturesDir } from '../../paths.js';
import { importFile, type ImportView } from '../imports/imports.js';
import { seedDemoHistory } from './history.js';

/** Each demo delivery: the TPA and its files, relative to `fixtures/`. */
export const DEMO_DELIVERIES: ReadonlyArray<{ administratorCode: string; files: readonly string[] }> = [
  { administratorCode: 'keystone_admin', files: ['tpas/keystone_admin/inputs/KEYSTONE_5493006TF05454RBY690_20221231.xlsx'] },
  { administratorCode: 'meridian_fund_services', files: ['tpas/meridian_fund_services/broken/MFS_HOLDINGS_unknown_instrument.csv'] },
];

/**
 * Imports the demo deliveries (queues their identification jobs; nothing runs here).
 * @param userId the user the imports are recorded for (the first administrator)
 * @returns the import rows made; a delivery whose TPA or file is missing is skipped and logged
 */
export async function queueDemoDeliveries(ctx: AppContext, userId: number): Promise<ImportView[]> {
  const imported: ImportView[] = [];
  for (const delivery of DEMO_DELIVERIES) {
    for (const rel of delivery.files) {
      const path = join(fixturesDir(), ...rel.split('/'));
      if (!existsSync(path)) {
        ctx.log.warn({ file: rel }, 'a demo delivery file is missing');
        continue;
      }
      const fileName = rel.slice(rel.lastIndexOf('/') + 1);
      try {
        imported.push(await importFile(ctx, { administratorCode: delivery.administratorCode, fileName, path, userId, source: 'demo' }));
      } catch (err) {
        ctx.log.warn({ err, file: rel }, 'a demo delivery could not be imported');
      }
    }
  }
  return imported;
}

const DUE_KEY = 'demoDeliveriesDue';

/** Marks the demo deliveries due for the first `serve` (called when the demo data is loaded). */
export async function markDemoDeliveriesDue(ctx: AppContext): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  await db.insert(t.settings).values({ key: DUE_KEY, value: true }).onConflictDoNothing({ target: t.settings.key });
}

/**
 * At a `serve` start: imports the demo deliveries when they are due and `demoDeliveries` is on,
 * and writes the demo TPAs' year of history when `demoHistory` is on (`seedDemoHistory`); either
 * way they are due no more (a later start never does it again).
 * @returns how many files were imported (0 when none were due or the setting is off)
 */
export async function queueDueDemoDeliveries(ctx: AppContext, userId: number): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  // one node takes the due mark: the delete returns the row to one of them only
  const taken = await db.delete(t.settings).where(eq(t.settings.key, DUE_KEY)).returning({ key: t.settings.key });
  if (!taken.length) return 0;
  if (ctx.config.demoHistory) {
    const history = await seedDemoHistory(
      ctx,
      DEMO_DELIVERIES.map((d) => d.administratorCode),
    );
    ctx.log.info(history, 'demo history written');
  }
  return ctx.config.demoDeliveries ? (await queueDemoDeliveries(ctx, userId)).length : 0;
}
