/**
 * Process actions of the Fund details Processes tab (delivery spec 2 "Logs: processes", 3
 * "Process", 4 "Processes": pending and running may be reset or cancelled; 7
 * `POST /fund/process/reset`, `/fund/process/cancel`, `POST /logs/processes`, `GET /processes`).
 * Which process may be reset or cancelled is the rules module's (pending or running); the queue
 * changes live in `server/queue/processes.ts`; this adds the trail entry each user action writes and
 * the fund check of the list.
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { canResetProcess } from '../../../rules/files.js';
import { cancelProcess, listFundProcesses, ongoingProcesses, type ProcessView, resetProcess } from '../../queue/processes.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { JOB_STATUSES } from '../../db/schema/pipeline.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { normalizeFilters, type FieldRegistry } from '../query/query-filters.js';
import { writeTrail } from '../trail/trail.js';
import { parseInput } from '../query/validate.js';
import { gridPageFields } from '../query/grid-input.js';

export type { ProcessView };

export const processActionSchema = z.object({ id: z.coerce.number().int().positive(), filters: z.unknown().optional() });
export const processListSchema = z.object({
  id: z.coerce.number().int().positive(),
  ...gridPageFields,
});

/** Runs a process action and writes its trail entry (before/after status). */
async function act(
  ctx: AppContext,
  user: User,
  id: number,
  action: 'process-reset' | 'process-cancel',
  run: (id: number) => Promise<ProcessView> | ProcessView,
): Promise<ProcessView> {
  const { db, tables: t } = storeOf(ctx);
  const [before] = await db.select().from(t.processes).where(eq(t.processes.id, id));
  if (!before) throw new NotFoundError(`No such process with id: ${id}`);
  const after = await run(id);
  await writeTrail(ctx, {
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
export function resetFundProcess(ctx: AppContext, user: User, input: z.input<typeof processActionSchema>): Promise<ProcessView> {
  const { id } = parseInput(processActionSchema, input);
  return act(ctx, user, id, 'process-reset', async (pid) => {
    const { db, tables: t } = storeOf(ctx);
    const [row] = await db.select({ status: t.processes.status }).from(t.processes).where(eq(t.processes.id, pid));
    if (!row || !canResetProcess(row.status)) throw new ValidationError(`Process ${pid} is ${row?.status}; only pending or running processes can be reset`);
    if (row.status === 'running') await cancelProcess(ctx, pid);
    return resetProcess(ctx, pid);
  });
}

/**
 * Cancels (suspends) a pending or running process.
 * @throws NotFoundError 'No such process with id: {id}'; ValidationError when it has finished
 */
export function cancelFundProcess(ctx: AppContext, user: User, input: z.input<typeof processActionSchema>): Promise<ProcessView> {
  const { id } = parseInput(processActionSchema, input);
  return act(ctx, user, id, 'process-cancel', (pid) => cancelProcess(ctx, pid));
}

const processFields = (ctx: AppContext): FieldRegistry => ({ status: { expr: storeOf(ctx).tables.processes.status, types: ['enum'] } });

/**
 * A fund's processes, newest first (process_at), 200 per page; `filters` may hold a status enum
 * filter `[{field: 'status', type: 'enum', value: ['pending', 'running']}]`; the order is always
 * newest first (`sorting` is accepted and ignored).
 * @throws NotFoundError 'No such fund request with id: {id}'; ValidationError for other filters
 */
export async function listProcessesOfFund(ctx: AppContext, input: z.input<typeof processListSchema>) {
  const { id, offset, limit, filters } = parseInput(processListSchema, input);
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ id: t.fundRequests.id }).from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${id}`);
  const status = normalizeFilters(filters, processFields(ctx)).flatMap((f) => (f.type === 'enum' ? f.value : []));
  const unknown = status.find((s) => !(JOB_STATUSES as readonly string[]).includes(s));
  if (unknown) throw new ValidationError(`Unknown process status: ${unknown}`, [`Unknown process status: ${unknown}; use ${JOB_STATUSES.join(', ')}`]);
  return listFundProcesses(ctx, { id, offset, limit, status });
}

/** Pending and running processes of every fund, with fund code, fund name and TPA name. */
export const listOngoingProcesses = (ctx: AppContext) => ongoingProcesses(ctx);
