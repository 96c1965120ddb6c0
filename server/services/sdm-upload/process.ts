/**
 * Processing a self-onboarding upload (auditor spec section 7, `POST /sdm-upload/process`): its
 * fund-request files are saved as a bulk upload (existing requests overwritten while editable,
 * marked self-onboarded), its SDM files imported into the pipeline for the TPA; each file ends
 * Uploaded or Error, and the TPA is marked self-onboarded.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, fundRequests as fundRequestsTable, sdmUploadFiles, sdmUploads } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { commitBulkSave, prepareBulkSave, type BulkSaveInput, type BulkSaveOptions, type PreparedBulkSave } from '../bulk-upload/bulk-upload.js';
import { readBulkCsv } from '../bulk-upload/read-csv.js';
import { importFile } from '../imports/imports.js';
import { publishFile, sdmUploadInfo } from './sdm-upload.js';

/** How self-onboarding saves fund requests: existing ones overwritten while still editable. */
const SDM_SAVE: BulkSaveOptions = { overwrite: true, action: 'self-onboarding' };

/** An upload being processed: its TPA and its validated files, fund-request files first. */
export interface SdmProcessing {
  uploadId: number;
  admin: { id: number; code: string };
  files: Array<typeof sdmUploadFiles.$inferSelect & { blobKey: string }>;
  warnings: string[];
}

/**
 * Processes an upload: saves the fund requests (existing ones overwritten while still editable)
 * and imports the SDM files for the TPA; each file ends Uploaded (or Error with its errors).
 * @throws ValidationError without at least one fund-request file and one SDM file
 */
export function processSdmUpload(ctx: AppContext, user: User, input: { id: number; forceRun?: boolean }) {
  const run = startSdmProcessing(ctx, input);
  for (const f of run.files)
    processSdmFile(ctx, user, run, f, f.type === 'FundRequest' ? prepareSdmFundRequests(ctx, run.admin.code, f.fileName, f.blobKey) : null);
  return finishSdmProcessing(ctx, run);
}

/**
 * The first step of `processSdmUpload`: checks the upload has what it needs and marks it Processing.
 * @throws NotFoundError for an unknown upload; ValidationError without a fund-request and an SDM file
 */
export function startSdmProcessing(ctx: AppContext, input: { id: number; forceRun?: boolean }): SdmProcessing {
  const upload = ctx.db.select().from(sdmUploads).where(eq(sdmUploads.id, input.id)).get();
  if (!upload) throw new NotFoundError(`No self-onboarding upload with id: ${input.id}`);
  const admin = ctx.db.select().from(administrators).where(eq(administrators.id, upload.administratorId!)).get()!;
  const files = ctx.db
    .select()
    .from(sdmUploadFiles)
    .where(and(eq(sdmUploadFiles.sdmUploadId, upload.id), eq(sdmUploadFiles.status, 'Validated')))
    .all();
  if (!files.some((f) => f.type === 'FundRequest') || !files.some((f) => f.type === 'SDM'))
    throw new ValidationError('Add at least one fund request file and one SDM file before processing');
  const blobs = (upload.validationResults ?? {}) as Record<string, unknown>;
  ctx.db
    .update(sdmUploads)
    .set({ status: 'Processing', forceRun: !!input.forceRun, updatedAt: new Date().toISOString() })
    .where(eq(sdmUploads.id, upload.id))
    .run();
  const ordered = [...files.filter((x) => x.type === 'FundRequest'), ...files.filter((x) => x.type === 'SDM')];
  return {
    uploadId: upload.id,
    admin: { id: admin.id, code: admin.code },
    files: ordered.map((f) => ({ ...f, blobKey: String(blobs[`blob:${f.id}`]) })),
    warnings: [],
  };
}

/**
 * Reads a fund-request file of an upload and validates its rows for saving (heavy for a large
 * file: the parse pool does it for requests); rows without a TPA get the upload's.
 * @throws ValidationError / TooLargeError for an unreadable file (see read-csv.ts)
 */
export function prepareSdmFundRequests(
  ctx: AppContext,
  adminCode: string,
  fileName: string,
  blobKey: string,
): { input: BulkSaveInput; prepared: PreparedBulkSave } {
  const csv = readBulkCsv(fileName, ctx.blobs.get(blobKey), ctx.config.maxUploadBytes);
  const input: BulkSaveInput = { funds: csv.rows.map((r) => ({ ...r.values, tpa: r.values.tpa ?? adminCode, columnName: r.line, isEditable: true })) };
  return { input, prepared: prepareBulkSave(ctx, input, SDM_SAVE) };
}

/** Saves one file of an upload being processed: its fund requests (as prepared) or its import; marks it Uploaded or Error. */
export function processSdmFile(
  ctx: AppContext,
  user: User,
  run: SdmProcessing,
  f: SdmProcessing['files'][number],
  fundRequests: { input: BulkSaveInput; prepared: PreparedBulkSave } | null,
): void {
  const errors: string[] = [];
  let importFileId: number | null = null;
  if (fundRequests) {
    const { saved, failed } = commitBulkSave(ctx, user, fundRequests.input, fundRequests.prepared, SDM_SAVE);
    // fund requests created or overwritten by self-onboarding are self-onboarded (Fund details, listing)
    const ids = saved.map((x) => x.id);
    for (let i = 0; i < ids.length; i += 500)
      ctx.db
        .update(fundRequestsTable)
        .set({ selfOnboarded: true })
        .where(inArray(fundRequestsTable.id, ids.slice(i, i + 500)))
        .run();
    for (const x of failed) errors.push(`row ${x.fund.columnName}: ${x.errors.faults.map((e) => e.message).join('; ')}`);
  } else {
    importFileId = importFile(ctx, {
      administratorCode: run.admin.code,
      fileName: f.fileName,
      bytes: ctx.blobs.get(f.blobKey),
      userId: user.id,
      source: 'sdm-upload',
    }).id;
  }
  if (errors.length) run.warnings.push(...errors.map((e) => `${f.fileName}: ${e}`));
  const row = ctx.db
    .update(sdmUploadFiles)
    .set({ status: errors.length ? 'Error' : 'Uploaded', errors, importFileId })
    .where(eq(sdmUploadFiles.id, f.id))
    .returning()
    .get();
  publishFile(ctx, row);
}

/** The last step of `processSdmUpload`: the upload Processed, its TPA self-onboarded; answers the upload with the warnings. */
export function finishSdmProcessing(ctx: AppContext, run: SdmProcessing) {
  ctx.db.update(sdmUploads).set({ status: 'Processed', updatedAt: new Date().toISOString() }).where(eq(sdmUploads.id, run.uploadId)).run();
  ctx.db.update(administrators).set({ selfOnboarded: true }).where(eq(administrators.id, run.admin.id)).run();
  return { ...sdmUploadInfo(ctx, run.uploadId), warnings: run.warnings };
}
