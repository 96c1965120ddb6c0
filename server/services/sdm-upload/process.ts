/**
 * Processing a self-onboarding upload (auditor spec section 7, `POST /sdm-upload/process`): its
 * fund-request files are saved as a bulk upload (existing requests overwritten while editable,
 * marked self-onboarded), its SDM files imported into the pipeline for the TPA; each file ends
 * Uploaded or Error, and the TPA is marked self-onboarded.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * imports it makes queue their identification on the job queue (`server/queue/enqueue.ts`).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
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
  files: Array<Tables['sdmUploadFiles']['$inferSelect'] & { blobKey: string }>;
  warnings: string[];
}

/**
 * Processes an upload: saves the fund requests (existing ones overwritten while still editable)
 * and imports the SDM files for the TPA; each file ends Uploaded (or Error with its errors).
 * @throws ValidationError without at least one fund-request file and one SDM file
 */
export async function processSdmUpload(ctx: AppContext, user: User, input: { id: number; forceRun?: boolean }) {
  const run = await startSdmProcessing(ctx, input);
  for (const f of run.files)
    await processSdmFile(ctx, user, run, f, f.type === 'FundRequest' ? await prepareSdmFundRequests(ctx, run.admin.code, f.fileName, f.blobKey) : null);
  return finishSdmProcessing(ctx, run);
}

/**
 * The first step of `processSdmUpload`: checks the upload has what it needs and marks it Processing.
 * @throws NotFoundError for an unknown upload; ValidationError without a fund-request and an SDM file
 */
export async function startSdmProcessing(ctx: AppContext, input: { id: number; forceRun?: boolean }): Promise<SdmProcessing> {
  const { db, tables: t } = storeOf(ctx);
  const [upload] = await db.select().from(t.sdmUploads).where(eq(t.sdmUploads.id, input.id));
  if (!upload) throw new NotFoundError(`No self-onboarding upload with id: ${input.id}`);
  const [admin] = await db.select().from(t.administrators).where(eq(t.administrators.id, upload.administratorId!));
  const files = await db
    .select()
    .from(t.sdmUploadFiles)
    .where(and(eq(t.sdmUploadFiles.sdmUploadId, upload.id), eq(t.sdmUploadFiles.status, 'Validated')))
    .orderBy(asc(t.sdmUploadFiles.id));
  if (!files.some((f) => f.type === 'FundRequest') || !files.some((f) => f.type === 'SDM'))
    throw new ValidationError('Add at least one fund request file and one SDM file before processing');
  const blobs = (upload.validationResults ?? {}) as Record<string, unknown>;
  await db
    .update(t.sdmUploads)
    .set({ status: 'Processing', forceRun: !!input.forceRun, updatedAt: new Date().toISOString() })
    .where(eq(t.sdmUploads.id, upload.id));
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
export async function prepareSdmFundRequests(
  ctx: AppContext,
  adminCode: string,
  fileName: string,
  blobKey: string,
): Promise<{ input: BulkSaveInput; prepared: PreparedBulkSave }> {
  const csv = readBulkCsv(fileName, ctx.blobs.get(blobKey), ctx.config.maxUploadBytes, ctx.config.maxBulkUploadRows);
  const input: BulkSaveInput = { funds: csv.rows.map((r) => ({ ...r.values, tpa: r.values.tpa ?? adminCode, columnName: r.line, isEditable: true })) };
  return { input, prepared: await prepareBulkSave(ctx, input, SDM_SAVE) };
}

/** Saves one file of an upload being processed: its fund requests (as prepared) or its import; marks it Uploaded or Error. */
export async function processSdmFile(
  ctx: AppContext,
  user: User,
  run: SdmProcessing,
  f: SdmProcessing['files'][number],
  fundRequests: { input: BulkSaveInput; prepared: PreparedBulkSave } | null,
): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const errors: string[] = [];
  let importFileId: number | null = null;
  if (fundRequests) {
    const { saved, failed } = await commitBulkSave(ctx, user, fundRequests.input, fundRequests.prepared, SDM_SAVE);
    // fund requests created or overwritten by self-onboarding are self-onboarded (Fund details, listing)
    const ids = saved.map((x) => x.id);
    for (let i = 0; i < ids.length; i += 500)
      await db
        .update(t.fundRequests)
        .set({ selfOnboarded: true })
        .where(inArray(t.fundRequests.id, ids.slice(i, i + 500)));
    for (const x of failed) errors.push(`row ${x.fund.columnName}: ${x.errors.faults.map((e) => e.message).join('; ')}`);
  } else {
    importFileId = (
      await importFile(ctx, {
        administratorCode: run.admin.code,
        fileName: f.fileName,
        bytes: ctx.blobs.get(f.blobKey),
        userId: user.id,
        source: 'sdm-upload',
      })
    ).id;
  }
  if (errors.length) run.warnings.push(...errors.map((e) => `${f.fileName}: ${e}`));
  const [row] = await db
    .update(t.sdmUploadFiles)
    .set({ status: errors.length ? 'Error' : 'Uploaded', errors, importFileId })
    .where(eq(t.sdmUploadFiles.id, f.id))
    .returning();
  publishFile(ctx, row);
}

/** The last step of `processSdmUpload`: the upload Processed, its TPA self-onboarded; answers the upload with the warnings. */
export async function finishSdmProcessing(ctx: AppContext, run: SdmProcessing) {
  const { db, tables: t } = storeOf(ctx);
  await db.update(t.sdmUploads).set({ status: 'Processed', updatedAt: new Date().toISOString() }).where(eq(t.sdmUploads.id, run.uploadId));
  await db.update(t.administrators).set({ selfOnboarded: true }).where(eq(t.administrators.id, run.admin.id));
  return { ...(await sdmUploadInfo(ctx, run.uploadId)), warnings: run.warnings };
}
