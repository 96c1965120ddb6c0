/**
 * Matching a TPA's unmatched files again (DOMAIN.md 2.2): after fund requests are saved (bulk
 * upload), files that matched no fund request may match one now, so their identification is queued
 * again. Parts already attached are not attached twice (the identification stage skips them).
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { enqueue } from '../../queue/enqueue.js';

/**
 * Re-queues identification (force run) of a TPA's unmatched files that nobody has acted on (no
 * action, or 'Unidentified'); their unmatched rows are removed in the same transaction.
 * @returns the number of import files queued again
 */
export async function rematchUnmatched(ctx: AppContext, administratorId: number): Promise<number> {
  return transaction(ctx, async (tx) => {
    const { tables: t } = storeOf(ctx);
    const rows = await tx
      .select({ id: t.unmatchedFiles.id, importFileId: t.unmatchedFiles.importFileId })
      .from(t.unmatchedFiles)
      .where(and(eq(t.unmatchedFiles.administratorId, administratorId), or(isNull(t.unmatchedFiles.action), eq(t.unmatchedFiles.action, 'Unidentified'))));
    const importIds = [...new Set(rows.map((r) => r.importFileId).filter((x): x is number => x !== null))];
    if (!importIds.length) return 0;
    await tx.delete(t.unmatchedFiles).where(
      inArray(
        t.unmatchedFiles.id,
        rows.map((r) => r.id),
      ),
    );
    for (const importFileId of importIds) await enqueue(ctx, { stage: 'identification', fundRequestId: null, payload: { importFileId }, forceRun: true });
    return importIds.length;
  });
}
