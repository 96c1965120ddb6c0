/**
 * Delivery events for what was stored before they were recorded (docs/scorecards.md, "History from
 * before delivery events"): once per database, at the first start of a version that records them,
 * every input file of a fund becomes a `received` event dated when the file was attached, and each
 * fund's current calculation file a `checked` event dated when it was written, judged on the
 * fund's current inputs (the state of earlier runs is not kept). Both are marked `backfill`.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, gt } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { judgeChecks, type CheckItemOutcome } from './record.js';

/** The settings key that says the backfill ran (its value: when, and how many events it wrote). */
export const BACKFILL_KEY = 'deliveryEventsBackfilled';

/** Calculation files judged per read (their validation documents are read this many at a time). */
const BATCH = 200;

/**
 * Writes the backfilled events once per database (nodes starting together: one of them does it).
 * @returns how many `received` and `checked` events were written (zeros when it had run before)
 */
export async function backfillDeliveryEvents(ctx: AppContext): Promise<{ received: number; checked: number }> {
  const { db: base, tables: t } = storeOf(ctx);
  const [done] = await base.select({ key: t.settings.key }).from(t.settings).where(eq(t.settings.key, BACKFILL_KEY)).limit(1);
  if (done) return { received: 0, checked: 0 };
  return transaction(ctx, async (db) => {
    // the key first: a second node waits on it here, then finds it taken
    const taken = await db.insert(t.settings).values({ key: BACKFILL_KEY, value: null }).onConflictDoNothing({ target: t.settings.key }).returning();
    if (!taken.length) return { received: 0, checked: 0 };
    let received = 0;
    let lastId = 0;
    for (;;) {
      const files = await db
        .select({
          id: t.fundFiles.id,
          fundRequestId: t.fundFiles.fundRequestId,
          fileType: t.fundFiles.fileType,
          fileName: t.fundFiles.fileName,
          importFileId: t.fundFiles.importFileId,
          createdAt: t.fundFiles.createdAt,
        })
        .from(t.fundFiles)
        .where(and(eq(t.fundFiles.kind, 'input'), gt(t.fundFiles.id, lastId)))
        .orderBy(asc(t.fundFiles.id))
        .limit(1000);
      if (!files.length) break;
      lastId = files[files.length - 1]!.id;
      await db.insert(t.deliveryEvents).values(
        files.map((f) => ({
          fundRequestId: f.fundRequestId,
          kind: 'received' as const,
          at: f.createdAt,
          fileType: f.fileType,
          fileName: f.fileName,
          fundFileId: f.id,
          importFileId: f.importFileId,
          source: 'backfill' as const,
        })),
      );
      received += files.length;
    }
    let checked = 0;
    lastId = 0;
    for (;;) {
      const calcs = await db
        .select({ id: t.fundFiles.id, fundRequestId: t.fundFiles.fundRequestId, createdAt: t.fundFiles.createdAt, validation: t.fundFiles.validation })
        .from(t.fundFiles)
        .where(and(eq(t.fundFiles.kind, 'calculation'), gt(t.fundFiles.id, lastId)))
        .orderBy(asc(t.fundFiles.id))
        .limit(BATCH);
      if (!calcs.length) break;
      lastId = calcs[calcs.length - 1]!.id;
      for (const c of calcs) {
        const items = ((c.validation as { QA_Rec?: CheckItemOutcome[] } | null)?.QA_Rec ?? []).map((i) => ({ check: i.check, status: i.status }));
        const judgement = await judgeChecks(ctx, c.fundRequestId, items);
        await db
          .insert(t.deliveryEvents)
          .values({ fundRequestId: c.fundRequestId, kind: 'checked', at: c.createdAt, fundFileId: c.id, ...judgement, source: 'backfill' });
        checked++;
      }
    }
    await db
      .update(t.settings)
      .set({ value: { at: new Date().toISOString(), received, checked } })
      .where(eq(t.settings.key, BACKFILL_KEY));
    if (received || checked) ctx.log.info({ received, checked }, 'delivery events written for the files and checks stored before they were recorded');
    return { received, checked };
  });
}
