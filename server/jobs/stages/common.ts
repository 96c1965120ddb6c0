/**
 * Helpers shared by the pipeline's stage jobs: loading a fund, writing orchestration log lines,
 * and replacing a fund's output files atomically (old rows and new rows change in one transaction).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, desc, eq } from 'drizzle-orm';
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
