/**
 * The request side of the job queue behind the spec's "processes" (DOMAIN.md 2): queueing a job
 * (a pending job of the same fund, stage and subject is reused), its `process` event, and the
 * pipeline service switch. The worker side (claims, leases, outcomes) is `queue.ts`.
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { NextJob } from '../../pipeline/engine.js';
import type { AppContext } from '../context.js';
import { storeOf, type Tables } from '../db/dialect.js';
import type { JobKind } from '../db/schema/pipeline.js';
import { transaction } from '../db/tx.js';
import { serviceOn } from './services.js';

export type ProcessRow = Tables['processes']['$inferSelect'];

export interface EnqueueInput extends NextJob {
  stage: JobKind;
  createdById?: number | null;
}

/** Publishes a process change on the context's event bus. */
export function publishProcess(ctx: AppContext, row: Pick<ProcessRow, 'id' | 'fundRequestId' | 'stage' | 'status' | 'payload'>): void {
  ctx.events.publish('process', { id: row.id, fundRequestId: row.fundRequestId, stage: row.stage, status: row.status, payload: row.payload ?? undefined });
}

/** Advisory lock namespace of enqueues on PostgreSQL (the first key of the two-key form; claims use 7301). */
const ENQUEUE_LOCK_NAMESPACE = 7_302;

/** What a PostgreSQL transaction offers for raw SQL. */
interface PgExecutor {
  execute(query: ReturnType<typeof sql>): Promise<unknown>;
}

/** What tells two jobs of a stage apart besides their fund: the file, the export or the test run. */
const SUBJECTS = ['importFileId', 'exportId', 'testRunId'] as const;

/** Identity of a job for de-duplication: fund + stage + subject (see SUBJECTS). */
export function sameJob(a: { fundRequestId: number | null; stage: string; payload?: Record<string, unknown> | null }, b: typeof a): boolean {
  return a.fundRequestId === b.fundRequestId && a.stage === b.stage && SUBJECTS.every((k) => (a.payload?.[k] ?? null) === (b.payload?.[k] ?? null));
}

/**
 * Queues a job; a pending job for the same fund, stage and subject (file, export, test run) is
 * reused, and gets force run when asked. One transaction (joins the caller's): the job is written
 * with the caller's changes or not at all, and two callers queueing the same job at once (two
 * nodes on PostgreSQL) get one job. Publishes a `process` event for a new job once it is committed.
 * @returns the process row (the reused one, or the new one: `pending`, payload `{}` when none)
 */
export async function enqueue(ctx: AppContext, input: EnqueueInput): Promise<ProcessRow> {
  const { row, created } = await transaction(ctx, async (tx) => {
    const { dialect, tables: t } = storeOf(ctx);
    // PostgreSQL reads committed rows only: two nodes queueing the same job at once would both find
    // none pending. A lock on the fund and stage, held to commit, makes the second wait and find the
    // first's (SQLite's write transactions already go one at a time).
    if (dialect === 'postgres')
      await (tx as unknown as PgExecutor).execute(
        sql`select pg_advisory_xact_lock(${ENQUEUE_LOCK_NAMESPACE}, hashtext(${`${input.stage}:${input.fundRequestId}`}))`,
      );
    const pendings = await tx
      .select()
      .from(t.processes)
      .where(
        and(
          eq(t.processes.stage, input.stage),
          eq(t.processes.status, 'pending'),
          input.fundRequestId === null ? isNull(t.processes.fundRequestId) : eq(t.processes.fundRequestId, input.fundRequestId),
        ),
      );
    const pending = pendings.find((p) => sameJob(p, input));
    if (pending) {
      if (!input.forceRun || pending.forceRun) return { row: pending, created: false };
      const [forced] = await tx.update(t.processes).set({ forceRun: true }).where(eq(t.processes.id, pending.id)).returning();
      return { row: forced ?? pending, created: false };
    }
    const [inserted] = await tx
      .insert(t.processes)
      .values({
        fundRequestId: input.fundRequestId,
        stage: input.stage,
        status: 'pending',
        forceRun: !!input.forceRun,
        payload: input.payload ?? {},
        createdById: input.createdById ?? null,
      })
      .returning();
    return { row: inserted, created: true };
  });
  // inside a caller's transaction the bus holds it until that commits (server/events.ts)
  if (created) publishProcess(ctx, row);
  return row;
}

/** Whether the pipeline service is switched on (dev tools "services"). */
export const pipelineEnabled = (ctx: AppContext) => serviceOn(ctx, 'pipeline');
