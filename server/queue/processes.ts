/**
 * Process actions and lists (spec: Processes tab, `POST /fund/process/reset`, `/fund/process/cancel`,
 * `POST /logs/processes`, `GET /processes`): reset puts a process back to pending with force run;
 * cancel suspends a pending or running one (a running engine aborts it when it sees the event).
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { storeOf } from '../db/dialect.js';
import { JOB_STATUSES } from '../db/schema/pipeline.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { type ProcessRow, publishProcess } from './enqueue.js';

/** The process as the Processes tab shows it. */
export const processView = (p: ProcessRow) => ({
  id: p.id,
  fund_request_id: p.fundRequestId,
  stage: p.stage,
  status: p.status,
  process_at: p.processAt,
  started_at: p.startedAt,
  finished_at: p.finishedAt,
  attempts: p.attempts,
  force_run: p.forceRun,
  payload: p.payload ?? {},
});

export type ProcessView = ReturnType<typeof processView>;

/**
 * Writes `changes` to process `id` only while its status is one of `from` (one statement, so a
 * worker finishing it meanwhile is not overwritten), then publishes it.
 * @throws NotFoundError when unknown; ValidationError `refused(status)` when its status is another
 */
async function change(
  ctx: AppContext,
  id: number,
  from: ProcessRow['status'][],
  changes: (row: ProcessRow) => Partial<ProcessRow>,
  refused: (status: string) => string,
): Promise<ProcessView> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.processes).where(eq(t.processes.id, id));
  if (!row) throw new NotFoundError(`No such process with id: ${id}`);
  if (!from.includes(row.status)) throw new ValidationError(refused(row.status));
  const [updated] = await db
    .update(t.processes)
    .set(changes(row))
    .where(and(eq(t.processes.id, id), inArray(t.processes.status, from)))
    .returning();
  if (!updated) {
    const [now] = await db.select({ status: t.processes.status }).from(t.processes).where(eq(t.processes.id, id));
    throw new ValidationError(refused(now?.status ?? 'gone'));
  }
  publishProcess(ctx, updated);
  return processView(updated);
}

/**
 * Suspends a pending or running process (`finished_at` now, `cancelled: true` in its payload).
 * @throws ValidationError when it is already finished; NotFoundError when unknown
 */
export function cancelProcess(ctx: AppContext, id: number): Promise<ProcessView> {
  return change(
    ctx,
    id,
    ['pending', 'running'],
    (row) => ({ status: 'suspended', finishedAt: new Date().toISOString(), payload: { ...(row.payload ?? {}), cancelled: true } }),
    (status) => `Process ${id} is ${status}; only pending or running processes can be cancelled`,
  );
}

/**
 * Puts a process back in the queue with force run (it runs even if its inputs did not change),
 * `process_at` now, started/finished times and owner cleared. A running process is left alone:
 * reset it once it has finished.
 * @throws ValidationError when it is running; NotFoundError when unknown
 */
export function resetProcess(ctx: AppContext, id: number): Promise<ProcessView> {
  return change(
    ctx,
    id,
    JOB_STATUSES.filter((s) => s !== 'running'),
    () => ({ status: 'pending', forceRun: true, startedAt: null, finishedAt: null, workerId: null, processAt: new Date().toISOString() }),
    (status) => `Process ${id} is ${status}; cancel it first or wait until it finishes`,
  );
}

/**
 * A fund's processes, newest first (spec: newest first for process_at; logs page size 200).
 * @param input.status only processes with one of these statuses (none: all)
 * @returns the page (`offset`, at most `limit` rows, 1000 at most) and the count of all matching
 */
export async function listFundProcesses(ctx: AppContext, input: { id: number; offset?: number; limit?: number; status?: string[] }) {
  const { db, tables: t } = storeOf(ctx);
  const offset = input.offset ?? 0;
  const limit = Math.min(input.limit ?? 200, 1000);
  const where: SQL | undefined = input.status?.length
    ? and(eq(t.processes.fundRequestId, input.id), inArray(t.processes.status, input.status as ProcessRow['status'][]))
    : eq(t.processes.fundRequestId, input.id);
  const rows = await db.select().from(t.processes).where(where).orderBy(desc(t.processes.processAt), desc(t.processes.id));
  return { rows: rows.slice(offset, offset + limit).map(processView), pagination: { offset, limit, count: rows.length } };
}

/** Ongoing work: pending and running processes with their fund (dev info: top running funds), newest first. */
export async function ongoingProcesses(ctx: AppContext) {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({ p: t.processes, f: t.fundRequests, a: t.administrators })
    .from(t.processes)
    .leftJoin(t.fundRequests, eq(t.processes.fundRequestId, t.fundRequests.id))
    .leftJoin(t.administrators, eq(t.fundRequests.administratorId, t.administrators.id))
    .where(inArray(t.processes.status, ['pending', 'running']))
    .orderBy(desc(t.processes.id));
  const fundIds = [...new Set(rows.flatMap((r) => (r.p.fundRequestId === null ? [] : [r.p.fundRequestId])))];
  const codes = fundIds.length
    ? await db
        .select()
        .from(t.fundCodes)
        .where(and(eq(t.fundCodes.main, true), inArray(t.fundCodes.fundRequestId, fundIds)))
    : [];
  return rows.map(({ p, f, a }) => ({
    ...processView(p),
    fundCode: codes.find((c) => c.fundRequestId === p.fundRequestId)?.code ?? null,
    fundName: f?.name ?? null,
    tpaName: a?.name ?? null,
  }));
}
