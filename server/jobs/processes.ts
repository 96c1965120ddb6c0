/**
 * Process actions and lists (spec: Processes tab, `POST /fund/process/reset`, `/fund/process/cancel`,
 * `POST /logs/processes`, `GET /processes`): reset puts a process back to pending with force run;
 * cancel suspends a pending or running one (a running engine aborts it when it sees the event).
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { administrators, fundCodes, fundRequests, processes } from '../db/schema/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { ProcessRow } from './queue.js';

function load(ctx: AppContext, id: number): ProcessRow {
  const row = ctx.db.select().from(processes).where(eq(processes.id, id)).get();
  if (!row) throw new NotFoundError(`No such process with id: ${id}`);
  return row;
}

function publish(ctx: AppContext, row: ProcessRow): void {
  ctx.events.publish('process', { id: row.id, fundRequestId: row.fundRequestId, stage: row.stage, status: row.status, payload: row.payload ?? undefined });
}

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

/**
 * Suspends a pending or running process.
 * @throws ValidationError when it is already finished; NotFoundError when unknown
 */
export function cancelProcess(ctx: AppContext, id: number): ReturnType<typeof processView> {
  const row = load(ctx, id);
  if (row.status !== 'pending' && row.status !== 'running')
    throw new ValidationError(`Process ${id} is ${row.status}; only pending or running processes can be cancelled`);
  const updated = ctx.db
    .update(processes)
    .set({ status: 'suspended', finishedAt: new Date().toISOString(), payload: { ...(row.payload ?? {}), cancelled: true } })
    .where(eq(processes.id, id))
    .returning()
    .get();
  publish(ctx, updated);
  return processView(updated);
}

/**
 * Puts a process back in the queue with force run (it runs even if its inputs did not change).
 * A running process is left alone: reset it once it has finished.
 */
export function resetProcess(ctx: AppContext, id: number): ReturnType<typeof processView> {
  const row = load(ctx, id);
  if (row.status === 'running') throw new ValidationError(`Process ${id} is running; cancel it first or wait until it finishes`);
  const updated = ctx.db
    .update(processes)
    .set({ status: 'pending', forceRun: true, startedAt: null, finishedAt: null, workerId: null, processAt: new Date().toISOString() })
    .where(eq(processes.id, id))
    .returning()
    .get();
  publish(ctx, updated);
  return processView(updated);
}

/** A fund's processes, newest first (spec: newest first for process_at; logs page size 200). */
export function listFundProcesses(ctx: AppContext, input: { id: number; offset?: number; limit?: number; status?: string[] }) {
  const offset = input.offset ?? 0;
  const limit = Math.min(input.limit ?? 200, 1000);
  const where = input.status?.length
    ? and(eq(processes.fundRequestId, input.id), inArray(processes.status, input.status as ProcessRow['status'][]))
    : eq(processes.fundRequestId, input.id);
  const rows = ctx.db.select().from(processes).where(where).orderBy(desc(processes.processAt), desc(processes.id)).all();
  return { rows: rows.slice(offset, offset + limit).map(processView), pagination: { offset, limit, count: rows.length } };
}

/** Ongoing work: pending and running processes with their fund (dev info: top running funds). */
export function ongoingProcesses(ctx: AppContext) {
  const rows = ctx.db
    .select({ p: processes, f: fundRequests, a: administrators })
    .from(processes)
    .leftJoin(fundRequests, eq(processes.fundRequestId, fundRequests.id))
    .leftJoin(administrators, eq(fundRequests.administratorId, administrators.id))
    .where(inArray(processes.status, ['pending', 'running']))
    .orderBy(desc(processes.id))
    .all();
  const codes = rows.length
    ? ctx.db
        .select()
        .from(fundCodes)
        .where(
          and(
            eq(fundCodes.main, true),
            inArray(
              fundCodes.fundRequestId,
              rows.map((r) => r.p.fundRequestId ?? 0),
            ),
          ),
        )
        .all()
    : [];
  return rows.map(({ p, f, a }) => ({
    ...processView(p),
    fundCode: codes.find((c) => c.fundRequestId === p.fundRequestId)?.code ?? null,
    fundName: f?.name ?? null,
    tpaName: a?.name ?? null,
  }));
}
