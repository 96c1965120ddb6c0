/**
 * Process actions of the Fund details Processes tab (delivery spec 2 "Logs: processes", 3
 * "Process", 4 "Processes": pending and running may be reset or cancelled; 7
 * `POST /fund/process/reset`, `/fund/process/cancel`, `POST /logs/processes`, `GET /processes`).
 * Which process may be reset or cancelled is the rules module's (pending or running); the queue
 * changes live in `server/jobs/processes.ts`; this adds the trail entry each user action writes and
 * the fund check of the list.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { canResetProcess } from '../../../rules/files.js';
import { cancelProcess, listFundProcesses, ongoingProcesses, processView, resetProcess } from '../../jobs/processes.js';
import type { AppContext } from '../../context.js';
import { fundRequests, JOB_STATUSES, processes } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { normalizeFilters, type FieldRegistry } from '../funds/query-filters.js';
import { writeTrail } from '../funds/trail.js';
import { parseInput } from '../funds/validate.js';

export type ProcessView = ReturnType<typeof processView>;

export const processActionSchema = z.object({ id: z.coerce.number().int().positive(), filters: z.unknown().optional() });
export const processListSchema = z.object({
  id: z.coerce.number().int().positive(),
  filters: z.unknown().optional(),
  sorting: z.unknown().optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** Runs a process action and writes its trail entry (before/after status). */
function act(ctx: AppContext, user: User, id: number, action: 'process-reset' | 'process-cancel', run: (id: number) => ProcessView): ProcessView {
  const before = ctx.db.select().from(processes).where(eq(processes.id, id)).get();
  if (!before) throw new NotFoundError(`No such process with id: ${id}`);
  const after = run(id);
  writeTrail(ctx.db, {
    fundRequestId: before.fundRequestId,
    userId: user.id,
    action,
    before: { id, stage: before.stage, status: before.status, force_run: before.forceRun },
    after: { id, stage: after.stage, status: after.status, force_run: after.force_run },
  });
  return after;
}

/**
 * Puts a pending or running process back in the queue with force run; a running one is cancelled
 * first (its worker stops at its next check), then queued again.
 * @throws NotFoundError 'No such process with id: {id}'; ValidationError when it is done, failed or suspended
 */
export function resetFundProcess(ctx: AppContext, user: User, input: z.input<typeof processActionSchema>): ProcessView {
  const { id } = parseInput(processActionSchema, input);
  return act(ctx, user, id, 'process-reset', (pid) => {
    const row = ctx.db.select({ status: processes.status }).from(processes).where(eq(processes.id, pid)).get();
    if (!row || !canResetProcess(row.status)) throw new ValidationError(`Process ${pid} is ${row?.status}; only pending or running processes can be reset`);
    if (row.status === 'running') cancelProcess(ctx, pid);
    return resetProcess(ctx, pid);
  });
}

/**
 * Cancels (suspends) a pending or running process.
 * @throws NotFoundError 'No such process with id: {id}'; ValidationError when it has finished
 */
export function cancelFundProcess(ctx: AppContext, user: User, input: z.input<typeof processActionSchema>): ProcessView {
  const { id } = parseInput(processActionSchema, input);
  return act(ctx, user, id, 'process-cancel', (pid) => cancelProcess(ctx, pid));
}

const PROCESS_FIELDS: FieldRegistry = { status: { expr: processes.status, types: ['enum'] } };

/**
 * A fund's processes, newest first (process_at), 200 per page; `filters` may hold a status enum
 * filter `[{field: 'status', type: 'enum', value: ['pending', 'running']}]`; the order is always
 * newest first (`sorting` is accepted and ignored).
 * @throws NotFoundError 'No such fund request with id: {id}'; ValidationError for other filters
 */
export function listProcessesOfFund(ctx: AppContext, input: z.input<typeof processListSchema>) {
  const { id, offset, limit, filters } = parseInput(processListSchema, input);
  if (!ctx.db.select({ id: fundRequests.id }).from(fundRequests).where(eq(fundRequests.id, id)).get())
    throw new NotFoundError(`No such fund request with id: ${id}`);
  const status = normalizeFilters(filters, PROCESS_FIELDS).flatMap((f) => (f.type === 'enum' ? f.value : []));
  const unknown = status.find((s) => !(JOB_STATUSES as readonly string[]).includes(s));
  if (unknown) throw new ValidationError(`Unknown process status: ${unknown}`, [`Unknown process status: ${unknown}; use ${JOB_STATUSES.join(', ')}`]);
  return listFundProcesses(ctx, { id, offset, limit, status });
}

/** Pending and running processes of every fund, with fund code, fund name and TPA name. */
export const listOngoingProcesses = (ctx: AppContext) => ongoingProcesses(ctx);
