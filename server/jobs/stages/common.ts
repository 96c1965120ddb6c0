/**
 * Helpers shared by the pipeline's stage jobs: loading a fund, writing orchestration log lines,
 * and replacing a fund's output files atomically (old rows and new rows change in one transaction).
 */
import { and, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, fundCodes, fundFiles, fundRequests, orchestrationLogs } from '../../db/schema/index.js';
import { NotFoundError } from '../../errors.js';

export type FundFileRow = typeof fundFiles.$inferSelect;

/** A fund with its administrator and main code. @throws NotFoundError */
export function loadFund(ctx: AppContext, id: number) {
  const fund = ctx.db.select().from(fundRequests).where(eq(fundRequests.id, id)).get();
  if (!fund) throw new NotFoundError(`No such fund request with id: ${id}`);
  const admin = fund.administratorId ? ctx.db.select().from(administrators).where(eq(administrators.id, fund.administratorId)).get() : undefined;
  const code =
    ctx.db
      .select()
      .from(fundCodes)
      .where(and(eq(fundCodes.fundRequestId, id), eq(fundCodes.main, true)))
      .get()?.code ?? String(id);
  return { fund, admin, code };
}

/** Appends an orchestration log line for a fund (spec "Log entry"). */
export function logStage(
  ctx: AppContext,
  fundRequestId: number | null,
  stage: string,
  status: 'success' | 'error' | 'pending',
  payload: Record<string, unknown>,
  type?: string,
  subType?: string,
): void {
  ctx.db
    .insert(orchestrationLogs)
    .values({ fundRequestId, stage, status, type: type ?? null, subType: subType ?? null, payload })
    .run();
}

/**
 * The input file of each SDM type a fund's results are built from: the newest one of the type,
 * unless that one is disabled (the type is then "not required", as the listing counts it).
 */
export function currentInputs(ctx: AppContext, fundRequestId: number): FundFileRow[] {
  const rows = ctx.db
    .select()
    .from(fundFiles)
    .where(and(eq(fundFiles.fundRequestId, fundRequestId), eq(fundFiles.kind, 'input')))
    .orderBy(desc(fundFiles.id))
    .all();
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
