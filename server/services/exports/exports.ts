/**
 * Exports: bulk downloads of fund outputs (DOMAIN.md 2.6; auditor spec 2.3 "Downloads" and
 * "Downloads Queue", delivery spec "Export files", sections 3, 7, 8 and 9 of both).
 * A request (fund ids x download stages) becomes an export row `pending` plus an `export` job;
 * `exportStageHandler` (server/jobs/exports/job.ts) writes the zip. Auditors see and download only their own exports;
 * delivery roles see all. Export rows older than 90 days can be deleted.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * export job is queued through the job queue (`enqueue`, `server/queue/enqueue.ts`), in the
 * transaction of its export row; its zip is written by the export stage.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { and, count, desc, eq, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { enqueue } from '../../queue/queue.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import type { JobStatus } from '../../db/schema/pipeline.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type FieldRegistry } from '../query/query-filters.js';
import {
  EXPORT_STAGE_CODES,
  exportFileName,
  exportView,
  loadExport,
  removeBlobIfUnused,
  type ExportFund,
  type ExportInputs,
  type ExportPayload,
  type ExportView,
} from './store.js';
import { gridPageSchema } from '../query/grid-input.js';

export { EXPORT_STAGES, EXPORT_STAGE_CODES, type ExportStage, type ExportView, type ExportInputs } from './store.js';

/** Success message of a request (auditor spec 2.3). */
export const EXPORT_QUEUED_MESSAGE = 'Successfully added to Queue.';
/** Export files page size (spec section 9: export files 200). */
export const EXPORT_PAGE_SIZE = 200;
/** Most funds one export may hold. */
export const MAX_EXPORT_FUNDS = 1000;
/** Export files older than this many days can be deleted (spec section 9). */
export const EXPORT_RETENTION_DAYS = 90;

/** Body of `POST /export/files` (spec section 7). */
export const exportRequestSchema = z.object({
  fundRequests: z.array(z.coerce.number().int().positive()).max(MAX_EXPORT_FUNDS),
  fundRequestStages: z.array(z.string()),
  excludeDisabledVisualizations: z.boolean().nullish(),
  reviewedVisualizationsOnly: z.boolean().nullish(),
});
export type ExportRequest = z.input<typeof exportRequestSchema>;

/** Body of `POST /export/files/list`. */
export const exportListSchema = gridPageSchema;
export type ExportListInput = z.input<typeof exportListSchema>;

/** Auditors and clients see only their own exports. */
const ownOnly = (user: User) => user.role === 'Auditor' || user.role === 'Client';

const userNameOf = (u: Tables['users']) =>
  sql<string | null>`case when ${u.id} is null then null else coalesce(nullif(trim(${u.firstName} || ' ' || ${u.lastName}), ''), ${u.username}) end`;

/**
 * Queues an export.
 * @returns the export row view (status pending); the route adds EXPORT_QUEUED_MESSAGE
 * @throws ValidationError no fund or stage chosen, an unknown stage, 'No such fund request with id: {id}'
 */
export async function requestExport(ctx: AppContext, user: User, input: ExportRequest): Promise<ExportView> {
  const parsed = exportRequestSchema.safeParse(input);
  if (!parsed.success)
    throw new ValidationError(
      'The request is not valid',
      parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`),
    );
  const ids = [...new Set(parsed.data.fundRequests)];
  const stages = [...new Set(parsed.data.fundRequestStages)];
  if (!ids.length) throw new ValidationError('Choose at least one fund request to download');
  if (!stages.length) throw new ValidationError('Choose at least one stage to download');
  const unknown = stages.filter((s) => !EXPORT_STAGE_CODES.includes(s as never));
  if (unknown.length)
    throw new ValidationError(
      `Unknown stage: ${unknown[0]}`,
      unknown.map((s) => `Unknown stage: ${s}; stages are ${EXPORT_STAGE_CODES.join(', ')}`),
    );
  const { db, tables: t } = storeOf(ctx);
  const funds = await db
    .select({ id: t.fundRequests.id, name: t.fundRequests.name, client: t.fundRequests.client, administrator: t.administrators.name })
    .from(t.fundRequests)
    .leftJoin(t.administrators, eq(t.administrators.id, t.fundRequests.administratorId))
    .where(inArray(t.fundRequests.id, ids));
  const missing = ids.filter((id) => !funds.some((f) => f.id === id));
  if (missing.length)
    throw new ValidationError(
      `No such fund request with id: ${missing[0]}`,
      missing.map((id) => `No such fund request with id: ${id}`),
    );
  const codes = await db
    .select()
    .from(t.fundCodes)
    .where(and(inArray(t.fundCodes.fundRequestId, ids), eq(t.fundCodes.main, true)));
  const fundMap: Record<string, ExportFund> = {};
  for (const id of ids) {
    const f = funds.find((x) => x.id === id)!;
    fundMap[id] = { name: f.name, fundCode: codes.find((c) => c.fundRequestId === id)?.code ?? null, client: f.client, administrator: f.administrator };
  }
  const inputs: ExportInputs = {
    fundRequests: ids,
    fundRequestStages: EXPORT_STAGE_CODES.filter((s) => stages.includes(s)),
    excludeDisabledVisualizations: !!parsed.data.excludeDisabledVisualizations,
    reviewedVisualizationsOnly: !!parsed.data.reviewedVisualizationsOnly,
  };
  const payload: ExportPayload = { inputs, fund_requests: fundMap };
  const row = await transaction(ctx, async (tx) => {
    const [inserted] = await tx
      .insert(t.exportFiles)
      .values({ userId: user.id, status: 'pending', payload: payload as unknown as Record<string, unknown> })
      .returning();
    await enqueue(ctx, { stage: 'export', fundRequestId: null, payload: { exportId: inserted.id }, createdById: user.id });
    return inserted;
  });
  ctx.events.publish('export', { id: row.id, status: row.status, userId: row.userId });
  return exportView(row, `${user.firstName} ${user.lastName}`.trim() || user.username);
}

/** Filterable and sortable fields of the export grid. */
const exportFields = (t: Tables): FieldRegistry => ({
  id: { expr: t.exportFiles.id, types: ['number', 'enum'], enumValue: Number },
  status: { expr: t.exportFiles.status, types: ['enum'] },
  created_at: { expr: t.exportFiles.createdAt, types: ['date'] },
  finished_at: { expr: t.exportFiles.finishedAt, types: ['date'] },
  user: { expr: userNameOf(t.users), types: ['text', 'enum'] },
  user_auth_id: { expr: t.exportFiles.userId, types: ['number', 'enum'], enumValue: Number },
});

/**
 * One page of exports, newest first unless sorted otherwise (spec: sorted by created_at descending).
 * @param input filters `[{field, type, value}]` over id, status, created_at, finished_at, user, user_auth_id
 * @returns `{rows: ExportView[], pagination: {offset, limit, count}}`
 * @throws ValidationError for unknown filter or sort fields
 */
export async function listExports(
  ctx: AppContext,
  user: User,
  input: ExportListInput = {},
): Promise<{ rows: ExportView[]; pagination: { offset: number; limit: number; count: number } }> {
  const parsed = exportListSchema.safeParse(input);
  if (!parsed.success)
    throw new ValidationError(
      'The request is not valid',
      parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`),
    );
  const offset = parsed.data.offset ?? parsed.data.pagination?.offset ?? 0;
  const limit = parsed.data.limit ?? parsed.data.pagination?.limit ?? EXPORT_PAGE_SIZE;
  const { db, dialect, tables: t } = storeOf(ctx);
  const fields = exportFields(t);
  const conditions: Array<SQL | undefined> = normalizeFilters(parsed.data.filters, fields).map((f) => filterCondition(f, fields, dialect));
  if (ownOnly(user)) conditions.push(eq(t.exportFiles.userId, user.id));
  const where = and(...conditions);
  const order = [...orderTerms(normalizeSorting(parsed.data.sorting, fields), fields, dialect), desc(t.exportFiles.createdAt), desc(t.exportFiles.id)];
  const rows = await db
    .select({ row: t.exportFiles, name: userNameOf(t.users) })
    .from(t.exportFiles)
    .leftJoin(t.users, eq(t.users.id, t.exportFiles.userId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(t.exportFiles).leftJoin(t.users, eq(t.users.id, t.exportFiles.userId)).where(where);
  return { rows: rows.map((r) => exportView(r.row, r.name)), pagination: { offset, limit, count: total?.n ?? 0 } };
}

/** A finished export's zip. */
export interface ExportDownload {
  fileName: string;
  /** bytes */
  size: number;
  /** Opens the zip for reading (stream it; zips can be large). */
  open(): Readable;
}

/**
 * The zip of a done export.
 * @throws NotFoundError 'No such export with id: {id}' (also for another user's export seen by an
 *   auditor); ValidationError 'The export is not ready yet (status: running)' unless done
 */
export async function exportDownload(ctx: AppContext, user: User, id: number): Promise<ExportDownload> {
  const row = Number.isInteger(id) ? await loadExport(ctx, id) : undefined;
  if (!row || (ownOnly(user) && row.userId !== user.id)) throw new NotFoundError(`No such export with id: ${id}`);
  if (row.status !== 'done') {
    const error = (row.payload as Partial<ExportPayload> | null)?.error;
    throw new ValidationError(`The export is not ready yet (status: ${row.status})`, [
      error ? `The export failed: ${error}` : `The export is not ready yet (status: ${row.status})`,
    ]);
  }
  if (!row.blobKey || !ctx.blobs.has(row.blobKey)) throw new NotFoundError(`The zip of export ${id} is missing; request the download again`);
  const path = ctx.blobs.path(row.blobKey);
  return { fileName: exportFileName(row), size: ctx.blobs.size(row.blobKey), open: () => createReadStream(path) };
}

/**
 * Deletes exports created more than `olderThanDays` days ago (never running ones), and their zips
 * when nothing else uses them. Auditors delete only their own.
 * @returns how many export rows were deleted
 * @throws ValidationError when olderThanDays is below 90
 */
export async function deleteOldExports(ctx: AppContext, user: User, input: { olderThanDays?: number } = {}): Promise<number> {
  const days = input.olderThanDays ?? EXPORT_RETENTION_DAYS;
  if (!Number.isFinite(days) || days < EXPORT_RETENTION_DAYS)
    throw new ValidationError(`Only export files older than ${EXPORT_RETENTION_DAYS} days can be deleted`);
  const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
  const { db, tables: t } = storeOf(ctx);
  const where = and(
    lt(t.exportFiles.createdAt, cutoff),
    ne(t.exportFiles.status, 'running' as JobStatus),
    ownOnly(user) ? eq(t.exportFiles.userId, user.id) : undefined,
  );
  const removed = await db.delete(t.exportFiles).where(where).returning({ id: t.exportFiles.id, blobKey: t.exportFiles.blobKey, userId: t.exportFiles.userId });
  for (const key of new Set(removed.map((r) => r.blobKey))) await removeBlobIfUnused(ctx, key);
  for (const r of removed) ctx.events.publish('export', { id: r.id, status: 'deleted', userId: r.userId });
  if (removed.length) ctx.log.info({ count: removed.length, days, userId: user.id }, 'old export files deleted');
  return removed.length;
}
