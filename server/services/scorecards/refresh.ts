/**
 * Writing the cached scorecard facts of stale fund requests back from their events
 * (`scorecard_facts`, docs/decisions/0020-delivery-events-and-scorecards.md), then the tallies of
 * stale buckets from those (`scorecard_tallies`, tallies.ts). Scorecards are right without it (they
 * read stale rows from the events); it keeps them fast. A running server or worker refreshes every
 * few seconds in a job thread, at its idle priority (`ScorecardRefresher`, started by
 * server/jobs/thread.ts).
 * A row is written back only if no trigger marked it stale again while it was computed (`mark`).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { lockRowsForRefresh, rowKey } from './refresh-locks.js';
import { eventFacts } from './facts.js';
import { refreshScorecardTallies, TALLY_BATCH } from './tallies.js';

/** Requests refreshed in one batch. */
export const REFRESH_BATCH = 200;

/**
 * Rewrites the facts of up to `limit` stale requests from their events. The events are read
 * outside any transaction; each row is then written back only if no trigger marked it again
 * meanwhile (its `mark` unchanged), in one short transaction, so the refresher never holds the
 * database's write lock while it computes and a fact recorded meanwhile is never hidden.
 * @returns how many stale requests were taken (fewer than `limit`: none is left)
 */
export async function refreshScorecardFacts(ctx: AppContext, limit = REFRESH_BATCH): Promise<number> {
  const { db, tables } = storeOf(ctx);
  const t = tables.scorecardFacts;
  const taken = await db.select({ id: t.fundRequestId, mark: t.mark }).from(t).where(eq(t.stale, true)).orderBy(t.fundRequestId).limit(limit);
  if (!taken.length) return 0;
  const facts = new Map(
    (
      await eventFacts(ctx, {
        fundRequestIds: taken.map((r) => r.id),
        everyRequest: true,
      })
    ).map((f) => [f.id, f]),
  );
  const now = new Date().toISOString();
  await transaction(ctx, async (tx) => {
    const locked = await lockRowsForRefresh(
      ctx,
      'scorecard_facts',
      ['fund_request_id'],
      taken.map((r) => [r.id]),
    );
    for (const { id, mark } of taken) {
      if (locked && !locked.has(rowKey([id]))) continue;
      const f = facts.get(id);
      await tx
        .update(t)
        .set({
          stale: false,
          completedAt: f?.completedAt ?? null,
          reDeliveries: f?.reDeliveries ?? 0,
          firstTimeRight: f?.firstTimeRight ?? null,
          chasesSent: f?.chasesSent ?? 0,
          chasesOpen: f?.chasesOpen ?? 0,
          daysToAnswer: f?.daysToAnswer.length ? f.daysToAnswer : null,
          refreshedAt: now,
        })
        .where(and(eq(t.fundRequestId, id), eq(t.mark, mark)));
    }
  });
  return taken.length;
}

/**
 * Refreshes until no request and no bucket is stale, `maxBatches` batches of each at most: the
 * requests' facts first, then the buckets' tallies made of them.
 * @returns how many requests and buckets were refreshed
 */
export async function refreshAllScorecardFacts(ctx: AppContext, maxBatches = Number.POSITIVE_INFINITY): Promise<{ requests: number; buckets: number }> {
  const total = { requests: 0, buckets: 0 };
  for (let i = 0; i < maxBatches; i++) {
    const n = await refreshScorecardFacts(ctx);
    total.requests += n;
    if (n < REFRESH_BATCH) break;
  }
  for (let i = 0; i < maxBatches; i++) {
    const n = await refreshScorecardTallies(ctx);
    total.buckets += n;
    if (n < TALLY_BATCH) break;
  }
  return total;
}

/** How many requests' facts are stale. */
export async function staleScorecardFacts(ctx: AppContext): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(t.scorecardFacts).where(eq(t.scorecardFacts.stale, true));
  return Number(row?.n ?? 0);
}

/** Refreshes stale scorecard facts every few seconds in the background of a server or worker. */
export class ScorecardRefresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly everyMs = 5000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
    void this.tick();
  }

  /** One pass (also what the timer runs); a pass still running is not started twice. */
  tick(): Promise<void> {
    this.running ??= refreshAllScorecardFacts(this.ctx, 40)
      .then(() => undefined)
      .catch((err: unknown) => this.ctx.log.warn({ err }, 'scorecard facts could not be refreshed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
