/**
 * Helpers shared by the pipeline's stage jobs: loading a fund, writing orchestration log lines,
 * and replacing a fund's output files atomically (old rows and new rows change in one transaction).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { JobCancelled } from '../../../pipeline/engine.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { NotFoundError } from '../../errors.js';

export type FundFileRow = Tables['fundFiles']['$inferSelect'];

/** A fund with its administrator and main code. @throws NotFoundError */
export async function loadFund(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select().from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${id}`);
  const [admin] = fund.administratorId ? await db.select().from(t.administrators).where(eq(t.administrators.id, fund.administratorId)) : [];
  const [main] = await db
    .select({ code: t.fundCodes.code })
    .from(t.fundCodes)
    .where(and(eq(t.fundCodes.fundRequestId, id), eq(t.fundCodes.main, true)))
    .limit(1);
  return { fund, admin, code: main?.code ?? String(id) };
}

/** Appends an orchestration log line for a fund (spec "Log entry"). */
export async function logStage(
  ctx: AppContext,
  fundRequestId: number | null,
  stage: string,
  status: 'success' | 'error' | 'pending',
  payload: Record<string, unknown>,
  type?: string,
  subType?: string,
): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  await db.insert(t.orchestrationLogs).values({ fundRequestId, stage, status, type: type ?? null, subType: subType ?? null, payload });
}

/**
 * The input file of each SDM type a fund's results are built from: the newest one of the type,
 * unless that one is disabled (the type is then "not required", as the listing counts it).
 */
export async function currentInputs(ctx: AppContext, fundRequestId: number): Promise<FundFileRow[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select()
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'input')))
    .orderBy(desc(t.fundFiles.id));
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.fileType) && seen.add(r.fileType)).filter((r) => !r.disabled);
}

/** Rows a long stage handles between two turns of the event loop (the server answers in between). */
export const ROWS_PER_TURN = 5000;

/** Lets the event loop run what is waiting (requests, timers) before the job goes on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Publishes a file change. */
export function publishFile(ctx: AppContext, f: FundFileRow): void {
  ctx.events.publish('file', { id: f.id, fundRequestId: f.fundRequestId, kind: f.kind, status: f.status, fileName: f.fileName });
}

/** Export-style output name: `fund_{code}_dd_{due date}_{kind}.{ext}` (spec constants). */
export function outputName(code: string, dueDate: string | null, kind: string, ext: string): string {
  return `fund_${code}_dd_${dueDate ?? 'none'}_${kind}.${ext}`;
}

/**
 * Fences a stage's write: checks, inside the write's transaction, that `job` is still running under
 * the worker that claimed it (`job.workerId`). A worker whose lease ended while it was busy, and
 * whose job another worker took over, so writes nothing more and does not undo the taker's work.
 * On PostgreSQL the check locks the job's row until the commit, so a takeover waits for the write
 * in flight; SQLite runs one write transaction at a time. A job run outside the queue (no
 * owner, as a stage called directly) has no lease to lose.
 * @throws JobCancelled when the job is no longer this worker's
 */
export async function assertLeaseHeld(ctx: AppContext, job: { id: number; workerId: string | null }): Promise<void> {
  if (job.workerId == null) return;
  const { db, tables: t } = storeOf(ctx);
  const p = t.processes;
  const held = await db
    .update(p)
    .set({ workerId: sql`${p.workerId}` })
    .where(and(eq(p.id, job.id), eq(p.workerId, job.workerId), eq(p.status, 'running')))
    .returning({ id: p.id });
  if (!held.length) throw new JobCancelled();
}
