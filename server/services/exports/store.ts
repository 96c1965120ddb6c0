/**
 * Export rows (table `export_files`): the stages a download may ask for, the row's payload shape,
 * its wire view (auditor spec 2.3 "Downloads Queue", section 3 "Export file"; delivery spec
 * "Export files", section 3) and status changes, each published as an `export` event.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import type { JobStatus } from '../../db/schema/pipeline.js';
import { transaction } from '../../db/tx.js';

/** Download stages (auditor spec 2.3 "Downloads"), with the dialog's labels. */
export const EXPORT_STAGES = {
  visualization: 'Work papers',
  calculations: 'Calculations',
  standardization: 'Standardization',
  identification: 'Identification',
  import: 'Raw import',
  fundRequest: 'Fund request',
} as const;
export type ExportStage = keyof typeof EXPORT_STAGES;
export const EXPORT_STAGE_CODES = Object.keys(EXPORT_STAGES) as ExportStage[];

/** What was asked for (kept as `payload.inputs`). */
export interface ExportInputs {
  fundRequests: number[];
  fundRequestStages: ExportStage[];
  excludeDisabledVisualizations: boolean;
  reviewedVisualizationsOnly: boolean;
}

/** A fund of the export as the grids show it (`payload.fund_requests[id]`). */
export interface ExportFund {
  name: string;
  fundCode: string | null;
  client: string;
  administrator: string | null;
}

export interface ExportPayload {
  inputs: ExportInputs;
  fund_requests: Record<string, ExportFund>;
  /** Set when the job failed. */
  error?: string;
  /** Set when done: entries in the zip, zip size in bytes, files that could not be added. */
  files?: number;
  size?: number;
  warnings?: string[];
}

export type ExportRow = Tables['exportFiles']['$inferSelect'];

/** The download name: `fund_export_<id>_<yyyymmdd of creation>.zip`. */
export function exportFileName(row: Pick<ExportRow, 'id' | 'createdAt'>): string {
  return `fund_export_${row.id}_${row.createdAt.slice(0, 10).replace(/-/g, '')}.zip`;
}

/** The export row on the wire. */
export interface ExportView {
  id: number;
  /** full name of the requester */
  user: string | null;
  user_auth_id: number | null;
  /** names of the funds' administrators (TPAs), distinct */
  administrators: string[];
  status: JobStatus;
  created_at: string;
  finished_at: string | null;
  payload: { fund_requests: Record<string, ExportFund>; inputs: ExportInputs; error?: string; files?: number; size?: number; warnings?: string[] };
  fileName: string;
}

/** Builds the wire view of a row. */
export function exportView(row: ExportRow, userName: string | null): ExportView {
  const payload = (row.payload ?? {}) as Partial<ExportPayload>;
  const funds = payload.fund_requests ?? {};
  const administrators = [
    ...new Set(
      Object.values(funds)
        .map((f) => f.administrator)
        .filter((a): a is string => !!a),
    ),
  ].sort();
  const { inputs, fund_requests: _f, ...rest } = payload;
  return {
    id: row.id,
    user: userName,
    user_auth_id: row.userId,
    administrators,
    status: row.status,
    created_at: row.createdAt,
    finished_at: row.finishedAt,
    payload: { fund_requests: funds, inputs: inputs as ExportInputs, ...rest },
    fileName: exportFileName(row),
  };
}

/** Loads an export row (undefined when unknown). */
export async function loadExport(ctx: AppContext, id: number): Promise<ExportRow | undefined> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.exportFiles).where(eq(t.exportFiles.id, id));
  return row;
}

/**
 * Sets an export's status (and payload fields, blob key, finish time), publishing an `export` event.
 * @returns the updated row, or undefined when the row no longer exists
 */
export async function setExportStatus(
  ctx: AppContext,
  id: number,
  status: JobStatus,
  change: { payload?: Partial<ExportPayload>; blobKey?: string | null; finished?: boolean } = {},
): Promise<ExportRow | undefined> {
  const { tables: t } = storeOf(ctx);
  // read-modify-write of the payload in one transaction
  const updated = await transaction(ctx, async (tx) => {
    const row = await loadExport(ctx, id);
    if (!row) return undefined;
    const [after] = await tx
      .update(t.exportFiles)
      .set({
        status,
        payload: { ...(row.payload ?? {}), ...(change.payload ?? {}) },
        ...(change.blobKey !== undefined ? { blobKey: change.blobKey } : {}),
        finishedAt: change.finished ? new Date().toISOString() : row.finishedAt,
      })
      .where(eq(t.exportFiles.id, id))
      .returning();
    return after;
  });
  if (updated) ctx.events.publish('export', { id, status, userId: updated.userId });
  return updated;
}

/**
 * Removes an export zip from the blob store unless another export, a fund file or an import file
 * still uses the same content (blobs are shared by content).
 * @returns whether the blob was removed
 */
export async function removeBlobIfUnused(ctx: AppContext, key: string | null): Promise<boolean> {
  if (!key || !/^[a-f0-9]{64}$/.test(key)) return false;
  const { db, tables: t } = storeOf(ctx);
  const uses = [
    db.select({ id: t.exportFiles.id }).from(t.exportFiles).where(eq(t.exportFiles.blobKey, key)).limit(1),
    db.select({ id: t.fundFiles.id }).from(t.fundFiles).where(eq(t.fundFiles.blobKey, key)).limit(1),
    db.select({ id: t.importFiles.id }).from(t.importFiles).where(eq(t.importFiles.sha256, key)).limit(1),
  ];
  for (const use of uses) if ((await use).length) return false;
  rmSync(ctx.blobs.path(key), { force: true });
  return true;
}
