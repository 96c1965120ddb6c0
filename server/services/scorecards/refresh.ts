/**
 * Writing the cached scorecard facts of stale fund requests back from their events
 * (`scorecard_facts`, docs/decisions/0018-delivery-events-and-scorecards.md). Scorecards are right
 * without it (they read stale rows from the events); it keeps them fast. A running server or
 * worker refreshes every few seconds (`ScorecardRefresher`, started by server/runtime.ts).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { eventFacts } from './facts.js';

/** Requests refreshed in one transaction (a few milliseconds of the thread that serves requests). */
export const REFRESH_BATCH = 250;

/**
 * Rewrites the facts of up to `limit` stale requests from their events, in one transaction; on
 * PostgreSQL the rows are taken `FOR UPDATE SKIP LOCKED`, so a transaction recording an event of
 * one of them waits for this one and marks it stale again after it.
 * @returns how many were refreshed (0: none was stale)
 */
export async function refreshScorecardFacts(ctx: AppContext, limit = REFRESH_BATCH): Promise<number> {
  return transaction(ctx, async (db) => {
    const store = storeOf(ctx);
    const t = store.tables;
    const ids =
      store.dialect === 'postgres'
        ? (
            await (db as unknown as { execute(q: unknown): Promise<{ rows: Array<{ id: number }> }> }).execute(
              sql`select fund_request_id as id from scorecard_facts where stale order by fund_request_id limit ${limit} for update skip locked`,
            )
          ).rows.map((r) => Number(r.id))
        : (
            await db
              .select({ id: t.scorecardFacts.fundRequestId })
              .from(t.scorecardFacts)
              .where(eq(t.scorecardFacts.stale, true))
              .orderBy(t.scorecardFacts.fundRequestId)
              .limit(limit)
          ).map((r) => r.id);
    if (!ids.length) return 0;
    const facts = new Map((await eventFacts(ctx, { fundRequestIds: ids })).map((f) => [f.id, f]));
    const now = new Date().toISOString();
    for (const id of ids) {
      const f = facts.get(id);
      await db
        .update(t.scorecardFacts)
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
        .where(eq(t.scorecardFacts.fundRequestId, id));
    }
    return ids.length;
  });
}

/**
 * Refreshes until no request is stale, `maxBatches` batches at most.
 * @returns how many were refreshed
 */
export async function refreshAllScorecardFacts(ctx: AppContext, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await refreshScorecardFacts(ctx);
    total += n;
    if (n < REFRESH_BATCH) break;
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
