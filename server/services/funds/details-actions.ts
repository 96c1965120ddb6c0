/**
 * Fund details "More actions" and the aggregation switch (delivery spec section 2 "Fund details",
 * section 7 `POST /fund/reviewall`, `/fund/set-aggreg-force-run`, `/fund/triggerdbpush`).
 *
 * - Review all work papers: marks every produced, required and not yet reviewed work paper of a
 *   fund reviewed, through the file review rules (server/services/files/fund-files.ts).
 * - Forced aggregation rerun: the fund's `aggreg_force_run` flag; a trail entry before/after.
 * - Db push: writes the fund's standardized data (SDM rows of every standardization file) and its
 *   calculation results into a standalone SQLite database `<data dir>/db-push/fund_{id}.sqlite`,
 *   for reporting tools to read without touching the live database. Written to a temporary file
 *   and renamed, so a reader never sees half a push; needs `isDbPushEnabled` (else a 409
 *   'not enabled' answer: a 403 would send the user to /unauthorized, spec section 8). The rows
 *   are read from the SDM store (server/db/sdm-store.ts) a chunk at a time; all of it runs on
 *   either database.
 */
import Database from 'better-sqlite3';
import { and, eq, inArray } from 'drizzle-orm';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { readSdmChunks } from '../../db/sdm-store.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { PRODUCED_STATUSES } from '../files/display.js';
import { reviewFiles, type FileActionResult } from '../files/fund-files.js';
import { queueAggregationRerun } from '../aggregation/rules.js';
import { writeTrail } from '../trail/trail.js';
import { parseInput } from '../query/validate.js';

const fundId = z.coerce.number().int().positive();
export const reviewAllInputSchema = z
  .object({ id: fundId.optional(), ids: z.array(fundId).min(1).max(1000).optional(), reviewed: z.boolean().default(true) })
  .refine((v) => v.id !== undefined || v.ids !== undefined, { message: 'give the fund request id (id) or ids' });
export const aggregForceRunInputSchema = z.object({ id: fundId, value: z.boolean() });
export const dbPushInputSchema = z.object({ fundId });

async function requireFund(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!row) throw new NotFoundError(`No such fund request with id: ${id}`);
  return row;
}

/**
 * Sets the review status of the work papers of one fund (`id`) or of several (`ids`, the listing's
 * Work paper actions): every produced, required work paper not yet in the wanted state is marked
 * reviewed (`reviewed`, default true) or not reviewed.
 * @returns the file action result of the change (files now, nothing queued)
 * @throws NotFoundError for an unknown fund; ValidationError 'No work papers to review' (or 'to
 *   mark not reviewed') when no work paper of the funds qualifies
 */
export async function reviewAllWorkPapers(ctx: AppContext, user: User, input: z.input<typeof reviewAllInputSchema>): Promise<FileActionResult> {
  const { id, ids, reviewed } = parseInput(reviewAllInputSchema, input);
  const fundIds = [...new Set([...(id !== undefined ? [id] : []), ...(ids ?? [])])];
  for (const f of fundIds) await requireFund(ctx, f);
  const { db, tables: t } = storeOf(ctx);
  const papers = (
    await db
      .select()
      .from(t.fundFiles)
      .where(and(inArray(t.fundFiles.fundRequestId, fundIds), eq(t.fundFiles.kind, 'work_paper')))
      .orderBy(t.fundFiles.id)
  ).filter((f) => PRODUCED_STATUSES.includes(f.status) && !f.disabled && f.reviewed !== reviewed);
  if (!papers.length)
    throw new ValidationError(
      reviewed
        ? 'No work papers to review: every produced work paper is reviewed or not required'
        : 'No work papers to mark not reviewed: no produced, required work paper is reviewed',
    );
  return reviewFiles(ctx, user, { ids: papers.map((p) => p.id), reviewed, fundRequestId: fundIds.length === 1 ? fundIds[0] : null });
}

/**
 * Sets a fund's forced aggregation rerun flag (`aggreg_force_run`); turned on for an aggregate
 * parent, it queues the parent's aggregation (server/services/aggregation/rules.ts).
 * @returns `{id, aggreg_force_run, processId?}` (processId: the queued calculations)
 * @throws NotFoundError for an unknown fund
 */
export async function setAggregForceRun(
  ctx: AppContext,
  user: User,
  input: z.input<typeof aggregForceRunInputSchema>,
): Promise<{ id: number; aggreg_force_run: boolean; processId?: number }> {
  const { id, value } = parseInput(aggregForceRunInputSchema, input);
  const { tables: t } = storeOf(ctx);
  await transaction(ctx, async (tx) => {
    const [row] = await tx.select({ v: t.fundRequests.aggregForceRun }).from(t.fundRequests).where(eq(t.fundRequests.id, id));
    if (!row) throw new NotFoundError(`No such fund request with id: ${id}`);
    if (row.v === value) return;
    await tx.update(t.fundRequests).set({ aggregForceRun: value, updatedAt: new Date().toISOString() }).where(eq(t.fundRequests.id, id));
    await writeTrail(ctx, {
      fundRequestId: id,
      userId: user.id,
      action: 'set-aggreg-force-run',
      before: { aggreg_force_run: row.v },
      after: { aggreg_force_run: value },
    });
  });
  // turning the switch on reruns a parent's aggregation; the run turns the switch off again
  const processId = value ? await queueAggregationRerun(ctx, user.id, id) : null;
  return { id, aggreg_force_run: value, ...(processId ? { processId } : {}) };
}

/** Where a fund's Db push is written. */
export function dbPushPath(ctx: AppContext, id: number): string {
  return join(ctx.config.dataDir, 'db-push', `fund_${id}.sqlite`);
}

/**
 * Pushes a fund's standardized rows and calculation results to `<data dir>/db-push/fund_{id}.sqlite`
 * (tables `fund`, `sdm_rows (sdm_type, file, line, data JSON)`, `checks (data JSON)`).
 * @returns `{fundId, file, rows, checks}`
 * @throws ConflictError when Db push is not enabled; NotFoundError; ValidationError when the fund has no standardized data
 */
export async function triggerDbPush(
  ctx: AppContext,
  user: User,
  input: z.input<typeof dbPushInputSchema>,
): Promise<{ fundId: number; file: string; rows: number; checks: number }> {
  if (!ctx.config.isDbPushEnabled) throw new ConflictError('Db push is not enabled on this server (setting isDbPushEnabled)');
  const { fundId: id } = parseInput(dbPushInputSchema, input);
  const fund = await requireFund(ctx, id);
  const { db, tables: t } = storeOf(ctx);
  const files = await db
    .select()
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, id), inArray(t.fundFiles.kind, ['standardization', 'calculation'])))
    .orderBy(t.fundFiles.id);
  const std = files.filter((f) => f.kind === 'standardization');
  if (!std.length) throw new ValidationError(`Fund request ${id} has no standardized data to push yet`);
  const checks = files.filter((f) => f.kind === 'calculation').flatMap((f) => (f.validation as { QA_Rec?: unknown[] } | null)?.QA_Rec ?? []);

  const target = dbPushPath(ctx, id);
  mkdirSync(join(ctx.config.dataDir, 'db-push'), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  const out = new Database(tmp);
  let rows = 0;
  try {
    out.exec(`CREATE TABLE fund (id INTEGER PRIMARY KEY, name TEXT, client TEXT, period_end TEXT, currency TEXT, pushed_at TEXT, pushed_by TEXT);
      CREATE TABLE sdm_rows (sdm_type TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE TABLE checks (data TEXT NOT NULL);`);
    const insRow = out.prepare('INSERT INTO sdm_rows (sdm_type, file, line, data) VALUES (?, ?, ?, ?)');
    const insCheck = out.prepare('INSERT INTO checks (data) VALUES (?)');

    // the output is a private file: its transaction may stay open while the rows are read a chunk at a time
    out.exec('BEGIN');
    out
      .prepare('INSERT INTO fund VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(fund.id, fund.name, fund.client, fund.periodEnd, fund.currency, new Date().toISOString(), user.email);
    for (const f of std) {
      for await (const chunk of readSdmChunks(ctx, [f.id])) {
        for (const r of chunk) insRow.run(f.fileType, f.fileName, r.line, JSON.stringify(r));
        rows += chunk.length;
      }
    }
    for (const c of checks) insCheck.run(JSON.stringify(c));
    out.exec('COMMIT');
  } finally {
    out.close();
  }
  renameSync(tmp, target);
  await writeTrail(ctx, { fundRequestId: id, userId: user.id, action: 'db-push', before: null, after: { file: target, rows, checks: checks.length } });
  return { fundId: id, file: target, rows, checks: checks.length };
}
