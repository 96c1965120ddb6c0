/**
 * Self-onboarding of a TPA (auditor spec 2.4 "Self-Onboarding wizard", sections 3 "SDM upload", 5
 * and 7 `/sdm-upload/*`): choose or create the TPA, validate and save its master mappings (one csv
 * per mapping type, named after the type), add fund-request and SDM files (named after their SDM
 * type), then process: fund requests are saved as a bulk upload, SDM files are imported into the
 * pipeline. File states move Uploading -> Validated -> Uploaded, each change pushed as an
 * 'upload-file' event.
 */
import { and, asc, eq } from 'drizzle-orm';
import { mappingTypeFromFileName, parseMappingCsv } from '../../../pipeline/mappings/parse.js';
import { MAPPING_TYPES, SDM_TYPES, type MappingType } from '../../../pipeline/sdm/model.js';
import type { AppContext } from '../../context.js';
import { administrators, mappings, sdmUploadFiles, sdmUploads } from '../../db/schema/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { saveBulkFunds } from '../bulk-upload/bulk-upload.js';
import { readBulkCsv } from '../bulk-upload/read-csv.js';
import { importFile } from '../imports/imports.js';
import { NAME_MESSAGE, NAME_RULE } from '../mappings/mappings.js';
import { upsertMasterMapping } from '../mappings/store.js';

export const INVALID_MAPPING_FILE = 'Invalid file - Please upload a .csv file that matches one of the mapping names.';
const SDM_FILE_TYPES = SDM_TYPES.filter((t) => t !== 'fund_request');

export interface UploadedCsv {
  fileName: string;
  bytes: Uint8Array;
}

export interface MappingValidation {
  valid: boolean;
  error: string | null;
  errors: string[];
  totalErrorsFound: number;
  maxErrorsNo: number;
  fileName: string;
}

/** TPAs with their mapping ids by type (wizard step "Select TPA"). */
export function sdmAdministrators(ctx: AppContext) {
  const admins = ctx.db.select().from(administrators).orderBy(asc(administrators.name)).all();
  const maps = ctx.db.select().from(mappings).where(and(eq(mappings.kind, 'master'), eq(mappings.active, true))).all();
  return admins.map((a) => ({ id: a.id, code: a.code, name: a.name, mappings: maps.filter((m) => m.administratorId === a.id).map((m) => ({ id: m.id, type: m.type })) }));
}

/** Checks a new TPA name: 'New' when valid and free, else the spec's message. */
export function checkTpaName(ctx: AppContext, code: string): { status: 'New' | 'Administrator already exist' | 'Invalid'; message: string } {
  if (!NAME_RULE.test(code)) return { status: 'Invalid', message: NAME_MESSAGE };
  if (ctx.db.select().from(administrators).where(eq(administrators.code, code)).get()) return { status: 'Administrator already exist', message: 'Administrator already exist' };
  return { status: 'New', message: 'New' };
}

/** Validates mapping files, one per type, each named after its type. */
export function validateMappingFiles(files: UploadedCsv[]): Record<string, MappingValidation> {
  const out: Record<string, MappingValidation> = {};
  for (const f of files) {
    const type = /\.csv$/i.test(f.fileName) ? mappingTypeFromFileName(f.fileName) : null;
    if (!type) {
      out[f.fileName] = { valid: false, error: INVALID_MAPPING_FILE, errors: [INVALID_MAPPING_FILE], totalErrorsFound: 1, maxErrorsNo: 20, fileName: f.fileName };
      continue;
    }
    const parsed = parseMappingCsv(type, f.fileName, f.bytes);
    out[type] = { valid: parsed.valid, error: parsed.valid ? null : `${f.fileName} has ${parsed.totalErrorsFound} error(s)`, errors: parsed.errors, totalErrorsFound: parsed.totalErrorsFound, maxErrorsNo: parsed.maxErrorsNo, fileName: f.fileName };
  }
  return out;
}

/**
 * Creates the TPA when new and saves its master mappings; opens an upload in status Created.
 * @param input.code TPA code (lowercase letters, digits, underscore; at most 50)
 * @param input.name display name of a new TPA (defaults to the code)
 * @throws ValidationError for an invalid name, invalid mapping files or missing mapping types of a new TPA
 */
export function createSdmUpload(ctx: AppContext, user: User, input: { code: string; name?: string; id?: number; files: UploadedCsv[]; touchedMappings?: { deletedMappings?: string[]; newMappings?: string[]; updatedMappings?: string[] } }) {
  let admin = ctx.db.select().from(administrators).where(eq(administrators.code, input.code)).get();
  if (!admin) {
    const name = checkTpaName(ctx, input.code);
    if (name.status !== 'New') throw new ValidationError(name.message);
  }
  const results = validateMappingFiles(input.files);
  const invalid = Object.values(results).filter((r) => !r.valid);
  if (invalid.length) throw new ValidationError(invalid[0].error ?? 'Invalid mapping file', invalid.flatMap((r) => r.errors.map((e) => `${r.fileName}: ${e}`)), invalid.reduce((n, r) => n + r.totalErrorsFound, 0), { validationResults: results });
  const provided = Object.keys(results) as MappingType[];
  const existingTypes = admin ? new Set(ctx.db.select().from(mappings).where(and(eq(mappings.administratorId, admin.id), eq(mappings.kind, 'master'), eq(mappings.active, true))).all().map((m) => m.type)) : new Set<string>();
  const missing = MAPPING_TYPES.filter((t) => t === 'file_layout' || t === 'account_mapping' || t === 'instrument_mapping').filter((t) => !provided.includes(t) && !existingTypes.has(t));
  if (missing.length) throw new ValidationError(`Upload the ${missing.join(', ')} mapping file(s) first`, missing.map((t) => `${t}.csv is needed`));
  const upload = ctx.db.transaction(() => {
    if (!admin) admin = ctx.db.insert(administrators).values({ code: input.code, name: input.name?.trim() || input.code, selfOnboarded: true }).returning().get();
    for (const f of input.files) {
      const type = mappingTypeFromFileName(f.fileName)!;
      upsertMasterMapping(ctx, { administratorId: admin.id, adminCode: admin.code, type, rows: parseMappingCsv(type, f.fileName, f.bytes).rows, userId: user.id });
    }
    return ctx.db.insert(sdmUploads).values({ administratorId: admin.id, status: 'Created', userId: user.id, validationResults: { ...results, touchedMappings: input.touchedMappings ?? null } }).returning().get();
  });
  return sdmUploadInfo(ctx, upload.id);
}

function fileView(f: typeof sdmUploadFiles.$inferSelect) {
  return { id: f.id, file_name: f.fileName, status: f.status, type: f.type, sub_type: f.subType, errors: f.errors, received_at: f.receivedAt, importFileId: f.importFileId };
}

function publishFile(ctx: AppContext, f: typeof sdmUploadFiles.$inferSelect) {
  ctx.events.publish('upload-file', { sdmUploadId: f.sdmUploadId, file: fileView(f) });
}

/**
 * Adds one file to an upload: `fund_request.csv` or `<sdm type>.csv`; fund-request files are
 * validated as a bulk upload, SDM files by their name and content being a readable CSV.
 * @throws ValidationError for a name that is not a valid type or a file that is not .csv
 */
export function addSdmFile(ctx: AppContext, input: { sdmUploadId: number; file: UploadedCsv }) {
  const upload = ctx.db.select().from(sdmUploads).where(eq(sdmUploads.id, input.sdmUploadId)).get();
  if (!upload) throw new NotFoundError(`No self-onboarding upload with id: ${input.sdmUploadId}`);
  const base = input.file.fileName.toLowerCase();
  if (!base.endsWith('.csv')) throw new ValidationError(`${input.file.fileName}: only .csv files can be added`);
  const subType = base.replace(/\.csv$/, '');
  const valid = [...SDM_FILE_TYPES, 'fund_request'];
  if (!valid.includes(subType as (typeof valid)[number])) throw new ValidationError(`${input.file.fileName}: the file name must be one of ${valid.map((t) => `${t}.csv`).join(', ')}`);
  const type = subType === 'fund_request' ? 'FundRequest' : 'SDM';
  const blob = ctx.blobs.put(input.file.bytes);
  let row = ctx.db.insert(sdmUploadFiles).values({ sdmUploadId: upload.id, fileName: input.file.fileName, status: 'Uploading', type, subType, errors: [], importFileId: null }).returning().get();
  publishFile(ctx, row);
  const errors: string[] = [];
  try {
    if (type === 'FundRequest') readBulkCsv(input.file.fileName, input.file.bytes, ctx.config.maxUploadBytes);
    else if (!input.file.bytes.byteLength) errors.push(`${input.file.fileName}: the file is empty`);
  } catch (err) {
    errors.push((err as Error).message);
  }
  row = ctx.db.update(sdmUploadFiles).set({ status: errors.length ? 'Error' : 'Validated', errors, importFileId: null }).where(eq(sdmUploadFiles.id, row.id)).returning().get();
  ctx.db.update(sdmUploads).set({ validationResults: { ...(upload.validationResults ?? {}), [`blob:${row.id}`]: blob.key } }).where(eq(sdmUploads.id, upload.id)).run();
  publishFile(ctx, row);
  return fileView(row);
}

/**
 * Processes an upload: saves the fund requests (existing ones overwritten while still editable)
 * and imports the SDM files for the TPA; each file ends Uploaded (or Error with its errors).
 * @throws ValidationError without at least one fund-request file and one SDM file
 */
export function processSdmUpload(ctx: AppContext, user: User, input: { id: number; forceRun?: boolean }) {
  const upload = ctx.db.select().from(sdmUploads).where(eq(sdmUploads.id, input.id)).get();
  if (!upload) throw new NotFoundError(`No self-onboarding upload with id: ${input.id}`);
  const admin = ctx.db.select().from(administrators).where(eq(administrators.id, upload.administratorId!)).get()!;
  const files = ctx.db.select().from(sdmUploadFiles).where(and(eq(sdmUploadFiles.sdmUploadId, upload.id), eq(sdmUploadFiles.status, 'Validated'))).all();
  if (!files.some((f) => f.type === 'FundRequest') || !files.some((f) => f.type === 'SDM')) throw new ValidationError('Add at least one fund request file and one SDM file before processing');
  const blobs = (upload.validationResults ?? {}) as Record<string, unknown>;
  const warnings: string[] = [];
  ctx.db.update(sdmUploads).set({ status: 'Processing', forceRun: !!input.forceRun, updatedAt: new Date().toISOString() }).where(eq(sdmUploads.id, upload.id)).run();
  for (const f of [...files.filter((x) => x.type === 'FundRequest'), ...files.filter((x) => x.type === 'SDM')]) {
    const bytes = ctx.blobs.get(String(blobs[`blob:${f.id}`]));
    const errors: string[] = [];
    let importFileId: number | null = null;
    if (f.type === 'FundRequest') {
      const csv = readBulkCsv(f.fileName, bytes, ctx.config.maxUploadBytes);
      const rows = csv.rows.map((r) => ({ ...r.values, tpa: r.values.tpa ?? admin.code, columnName: r.line, isEditable: true }));
      const { failed } = saveBulkFunds(ctx, user, { funds: rows }, { overwrite: true, action: 'self-onboarding' });
      for (const x of failed) errors.push(`row ${x.fund.columnName}: ${x.errors.faults.map((e) => e.message).join('; ')}`);
    } else {
      importFileId = importFile(ctx, { administratorCode: admin.code, fileName: f.fileName, bytes, userId: user.id, source: 'sdm-upload' }).id;
    }
    if (errors.length) warnings.push(...errors.map((e) => `${f.fileName}: ${e}`));
    const row = ctx.db.update(sdmUploadFiles).set({ status: errors.length ? 'Error' : 'Uploaded', errors, importFileId }).where(eq(sdmUploadFiles.id, f.id)).returning().get();
    publishFile(ctx, row);
  }
  ctx.db.update(sdmUploads).set({ status: 'Processed', updatedAt: new Date().toISOString() }).where(eq(sdmUploads.id, upload.id)).run();
  ctx.db.update(administrators).set({ selfOnboarded: true }).where(eq(administrators.id, admin.id)).run();
  return { ...sdmUploadInfo(ctx, upload.id), warnings };
}

/** An upload with its files, SDM and mapping types and validation results (spec "SDM upload"). */
export function sdmUploadInfo(ctx: AppContext, id: number) {
  const upload = ctx.db.select().from(sdmUploads).where(eq(sdmUploads.id, id)).get();
  if (!upload) throw new NotFoundError(`No self-onboarding upload with id: ${id}`);
  const admin = upload.administratorId ? ctx.db.select().from(administrators).where(eq(administrators.id, upload.administratorId)).get() : undefined;
  const files = ctx.db.select().from(sdmUploadFiles).where(eq(sdmUploadFiles.sdmUploadId, id)).orderBy(asc(sdmUploadFiles.id)).all();
  const results = Object.fromEntries(Object.entries(upload.validationResults ?? {}).filter(([k]) => !k.startsWith('blob:')));
  return {
    id: upload.id, status: upload.status, force_run: upload.forceRun, administrator: admin ? { id: admin.id, code: admin.code, name: admin.name } : null,
    uploaded_files: files.map(fileView), sdmTypes: [...SDM_FILE_TYPES, 'fund_request'], mappingTypes: [...MAPPING_TYPES], validationResults: results,
  };
}
