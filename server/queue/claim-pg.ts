/**
 * The job claim on PostgreSQL, where workers of several nodes claim at once
 * (docs/decisions/0011-postgresql-beside-sqlite.md "Jobs across nodes"). The same rules as the
 * SQLite claim of `queue.ts`: the oldest runnable job (pending, or running under a lease that has
 * ended) goes to `owner` with a fresh lease and one more attempt; a job whose fund has another job
 * under a live lease waits, test runs go one at a time, and the same job (fund, stage, file,
 * export or test run) never runs twice at once.
 *
 * One transaction: the oldest candidates are read, then locked one at a time `FOR UPDATE SKIP
 * LOCKED` (two claimers never wait on, nor take, the same row, and claimers of other funds go on in
 * parallel); for a locked candidate, a transaction-level advisory lock on what it must not run
 * beside (its fund; all test runs; else the job itself) is tried, and only then, in a statement
 * that sees every commit made before that lock was taken, the live leases are checked. The lock
 * is held to commit, so two claimers cannot both start two jobs of one fund.
 * Used by `claimNext` of `queue.ts` on a PostgreSQL context.
 */
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { PgDb } from '../db/client-pg.js';
import { processes } from '../db/schema-pg/index.js';
import type { JobKind } from '../db/schema/index.js';

export type PgProcessRow = typeof processes.$inferSelect;

/** Advisory lock namespace of claims (the first key of the two-key form). */
const CLAIM_LOCK_NAMESPACE = 7_301;

/** What tells two jobs of a stage apart besides their fund (as `enqueue.ts`). */
const SUBJECTS = ['importFileId', 'exportId', 'testRunId'] as const;

/** What a job must not run beside: its fund, every test run, or (no fund) the same job. */
export function exclusionKey(job: Pick<PgProcessRow, 'fundRequestId' | 'stage' | 'payload'>): string {
  if (job.stage === 'testRun') return 'test-run';
  if (job.fundRequestId !== null) return `fund:${job.fundRequestId}`;
  return `job:${job.stage}:${JSON.stringify(SUBJECTS.map((k) => job.payload?.[k] ?? null))}`;
}

/**
 * Claims the oldest runnable job for `owner`.
 * @param opts.owner `<node>/t<thread>`
 * @param opts.leaseMs length of the lease (ms)
 * @param opts.stages the stages this worker runs (default: all)
 * @param opts.now the time (epoch ms; default now)
 * @returns the claimed row, or null when nothing is runnable for this worker now
 */
export async function claimNextPg(db: PgDb, opts: { owner: string; leaseMs: number; stages?: JobKind[]; now?: number }): Promise<PgProcessRow | null> {
  const now = opts.now ?? Date.now();
  return db.transaction(async (tx) => {
    const expired = or(isNull(processes.leaseExpiresAt), lte(processes.leaseExpiresAt, now));
    const runnable = or(eq(processes.status, 'pending'), and(eq(processes.status, 'running'), expired));
    const filter = opts.stages ? and(runnable, inArray(processes.stage, opts.stages)) : runnable;
    // oldest first, unlocked: rows are locked one at a time below, so claimers of other funds go on in parallel
    const candidates = await tx.select({ id: processes.id }).from(processes).where(filter).orderBy(asc(processes.id)).limit(50);
    for (const { id } of candidates) {
      // still runnable, and no other claimer on it (else the next one)
      const [job] = await tx
        .select()
        .from(processes)
        .where(and(eq(processes.id, id), filter))
        .for('update', { skipLocked: true });
      if (!job) continue;
      const key = exclusionKey(job);
      const locked = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${CLAIM_LOCK_NAMESPACE}, hashtext(${key})) as ok`);
      if (!locked.rows[0]?.ok) continue;
      const live = await tx
        .select({ id: processes.id, fundRequestId: processes.fundRequestId, stage: processes.stage, payload: processes.payload })
        .from(processes)
        .where(
          and(
            eq(processes.status, 'running'),
            sql`${processes.leaseExpiresAt} > ${now}`,
            sql`${processes.id} <> ${job.id}`,
            // only rows that can share its key: its fund's, or those without a fund
            job.fundRequestId !== null && job.stage !== 'testRun' ? eq(processes.fundRequestId, job.fundRequestId) : isNull(processes.fundRequestId),
          ),
        );
      if (live.some((r) => exclusionKey(r) === key)) continue;
      const [claimed] = await tx
        .update(processes)
        .set({
          status: 'running',
          workerId: opts.owner,
          startedAt: new Date(now).toISOString(),
          leaseExpiresAt: now + opts.leaseMs,
          attempts: sql`${processes.attempts} + 1`,
        })
        .where(eq(processes.id, job.id))
        .returning();
      return claimed ?? null;
    }
    return null;
  });
}
