/**
 * Export rows (table `export_files`): the stages a download may ask for, the row's payload shape,
 * its wire view (auditor spec 2.3 "Downloads Queue", section 3 "Export file"; delivery spec
 * "Export files", section 3) and status changes, each published as an `export` event.
 */
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { exportFiles, type JobStatus } from '../../db/schema/index.js';

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

export type ExportRow = typeof exportFiles.$inferSelect;

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
export function loadExport(ctx: AppContext, id: number): ExportRow | undefined {
  return ctx.db.select().from(exportFiles).where(eq(exportFiles.id, id)).get();
}

/**
 * Sets an export's status (and payload fields, blob key, finish time), publishing an `export` event.
 * @returns the updated row, or undefined when the row no longer exists
 */
export function setExportStatus(
  ctx: AppContext,
  id: number,
  status: JobStatus,
  change: { payload?: Partial<ExportPayload>; blobKey?: string | null; finished?: boolean } = {},
): ExportRow | undefined {
  const row = loadExport(ctx, id);
  if (!row) return undefined;
  const updated = ctx.db
    .update(exportFiles)
    .set({
      status,
      payload: { ...(row.payload ?? {}), ...(change.payload ?? {}) },
      ...(change.blobKey !== undefined ? { blobKey: change.blobKey } : {}),
      finishedAt: change.finished ? new Date().toISOString() : row.finishedAt,
    })
    .where(eq(exportFiles.id, id))
    .returning()
    .get();
  ctx.events.publish('export', { id, status, userId: updated.userId });
  return updated;
}

/**
 * Removes an export zip from the blob store unless another export, a fund file or an import file
 * still uses the same content (blobs are shared by content).
 * @returns whether the blob was removed
 */
export function removeBlobIfUnused(ctx: AppContext, key: string | null): boolean {
  if (!key || !/^[a-f0-9]{64}$/.test(key)) return false;
  const used = ctx.sqlite
    .prepare(`SELECT 1 FROM export_files WHERE blob_key = @key
    UNION ALL SELECT 1 FROM fund_files WHERE blob_key = @key UNION ALL SELECT 1 FROM import_files WHERE sha256 = @key LIMIT 1`)
    .get({ key });
  if (used) return false;
  rmSync(ctx.blobs.path(key), { force: true });
  return true;
}
