/**
 * Self-onboarding of a TPA (auditor spec 2.4 "Self-Onboarding wizard", sections 3 "SDM upload", 5
 * and 7 `/sdm-upload/*`): choose or create the TPA, validate and save its master mappings (one csv
 * per mapping type, named after the type), add fund-request and SDM files (named after their SDM
 * type), then process: fund requests are saved as a bulk upload, SDM files are imported into the
 * pipeline. File states move Uploading -> Validated -> Uploaded, each change pushed as an
 * 'upload-file' event.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq } from 'drizzle-orm';
import { roleMayUse } from '../../../rules/access.js';
import { mappingTypeFromFileName, parseMappingCsv, type MappingParseResult } from '../../../pipeline/mappings/parse.js';
import { MAPPING_TYPES, SDM_TYPES, type MappingType } from '../../../pipeline/sdm/model.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { heavyWork } from '../../lib/guard.js';
import type { User } from '../auth/tokens.js';
import { checkSdmFile, type SdmFileCheck, type SdmFileToCheck } from './check-file.js';
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
export async function sdmAdministrators(ctx: AppContext) {
  const { db, tables: t } = storeOf(ctx);
  const admins = await db.select().from(t.administrators).orderBy(asc(t.administrators.name));
  const maps = await db
    .select({ id: t.mappings.id, type: t.mappings.type, administratorId: t.mappings.administratorId })
    .from(t.mappings)
    .where(and(eq(t.mappings.kind, 'master'), eq(t.mappings.active, true)))
    .orderBy(asc(t.mappings.id));
  return admins.map((a) => ({
    id: a.id,
    code: a.code,
    name: a.name,
    mappings: maps.filter((m) => m.administratorId === a.id).map((m) => ({ id: m.id, type: m.type })),
  }));
}

/** Checks a new TPA name: 'New' when valid and free, else the spec's message. */
export async function checkTpaName(ctx: AppContext, code: string): Promise<{ status: 'New' | 'Administrator already exist' | 'Invalid'; message: string }> {
  if (!NAME_RULE.test(code)) return { status: 'Invalid', message: NAME_MESSAGE };
  const { db, tables: t } = storeOf(ctx);
  if ((await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.code, code)).limit(1)).length)
    return { status: 'Administrator already exist', message: 'Administrator already exist' };
  return { status: 'New', message: 'New' };
}

/** Mapping files read: the result of each (by type; by file name for a file that is no mapping) and, in file order, the rows of each. */
export interface ReadMappingFiles {
  results: Record<string, MappingValidation>;
  rows: Array<{ type: MappingType; rows: MappingParseResult['rows'] }>;
}

/**
 * Reads and validates mapping files, one per type, each named after its type (heavy: the parse pool
 * does it for requests). An invalid file gives no rows.
 * @param maxRows most data rows of a file (setting `maxUploadRows`)
 */
export function readMappingFiles(files: UploadedCsv[], maxRows?: number): ReadMappingFiles {
  heavyWork('self-onboarding mapping file checks');
  const out: ReadMappingFiles = { results: {}, rows: [] };
  for (const f of files) {
    const type = /\.csv$/i.test(f.fileName) ? mappingTypeFromFileName(f.fileName) : null;
    if (!type) {
      out.results[f.fileName] = {
        valid: false,
        error: INVALID_MAPPING_FILE,
        errors: [INVALID_MAPPING_FILE],
        totalErrorsFound: 1,
        maxErrorsNo: 20,
        fileName: f.fileName,
      };
      continue;
    }
    const parsed = parseMappingCsv(type, f.fileName, f.bytes, { maxRows });
    out.results[type] = {
      valid: parsed.valid,
      error: parsed.valid ? null : `${f.fileName} has ${parsed.totalErrorsFound} error(s)`,
      errors: parsed.errors,
      totalErrorsFound: parsed.totalErrorsFound,
      maxErrorsNo: parsed.maxErrorsNo,
      fileName: f.fileName,
    };
    out.rows.push({ type, rows: parsed.rows });
  }
  return out;
}

/** The TPA of an upload (undefined for a new one, after checking its name). @throws ValidationError for an invalid name */
export async function checkSdmTpa(ctx: AppContext, code: string): Promise<Tables['administrators']['$inferSelect'] | undefined> {
  const { db, tables: t } = storeOf(ctx);
  const [admin] = await db.select().from(t.administrators).where(eq(t.administrators.code, code)).limit(1);
  if (!admin) {
    const name = await checkTpaName(ctx, code);
    if (name.status !== 'New') throw new ValidationError(name.message);
  }
  return admin;
}

/** What `createSdmUpload` takes. */
export interface CreateSdmUploadInput {
  code: string;
  name?: string;
  id?: number;
  files: UploadedCsv[];
  touchedMappings?: { deletedMappings?: string[]; newMappings?: string[]; updatedMappings?: string[] };
}

/**
 * Creates the TPA when new and saves its master mappings; opens an upload in status Created.
 * @param input.code TPA code (lowercase letters, digits, underscore; at most 50)
 * @param input.name display name of a new TPA (defaults to the code)
 * @throws ValidationError for an invalid name, invalid mapping files or missing mapping types of a new TPA;
 *   also when someone outside the delivery team would replace a master mapping of a TPA that was not
 *   onboarded through the wizard
 */
export async function createSdmUpload(ctx: AppContext, user: User, input: CreateSdmUploadInput) {
  await checkSdmTpa(ctx, input.code);
  return saveSdmUpload(ctx, user, input, readMappingFiles(input.files, ctx.config.maxUploadRows));
}

/**
 * The writing half of `createSdmUpload`, from its mapping files as read by `readMappingFiles`.
 * @throws ValidationError as `createSdmUpload`
 */
export async function saveSdmUpload(ctx: AppContext, user: User, input: CreateSdmUploadInput, read: ReadMappingFiles) {
  const { db, tables: t } = storeOf(ctx);
  let admin = await checkSdmTpa(ctx, input.code);
  const results = read.results;
  const invalid = Object.values(results).filter((r) => !r.valid);
  if (invalid.length)
    throw new ValidationError(
      invalid[0].error ?? 'Invalid mapping file',
      invalid.flatMap((r) => r.errors.map((e) => `${r.fileName}: ${e}`)),
      invalid.reduce((n, r) => n + r.totalErrorsFound, 0),
      { validationResults: results },
    );
  const provided = Object.keys(results) as MappingType[];
  const existingTypes = admin
    ? new Set(
        (
          await db
            .select({ type: t.mappings.type })
            .from(t.mappings)
            .where(and(eq(t.mappings.administratorId, admin.id), eq(t.mappings.kind, 'master'), eq(t.mappings.active, true)))
        ).map((m) => m.type),
      )
    : new Set<string>();
  // an established TPA's master mappings feed its funds: replacing one is the delivery team's; a TPA
  // onboarded through this wizard is the onboarding user's to correct ("existing and replaced")
  const replaced = read.rows.map((m) => m.type).filter((type) => existingTypes.has(type));
  if (admin && !admin.selfOnboarded && replaced.length && !roleMayUse('delivery', user.role))
    // a refusal the wizard shows in place (a 403 would send the browser to /unauthorized)
    throw new ValidationError(
      `Only the delivery team can replace the master ${replaced.join(', ')} of ${admin.code}, a TPA not onboarded through this wizard; upload only the mapping types it does not have yet`,
    );
  const missing = MAPPING_TYPES.filter((t) => t === 'file_layout' || t === 'account_mapping' || t === 'instrument_mapping').filter(
    (t) => !provided.includes(t) && !existingTypes.has(t),
  );
  if (missing.length)
    throw new ValidationError(
      `Upload the ${missing.join(', ')} mapping file(s) first`,
      missing.map((t) => `${t}.csv is needed`),
    );
  const upload = await transaction(ctx, async (tx) => {
    if (!admin)
      [admin] = await tx
        .insert(t.administrators)
        .values({ code: input.code, name: input.name?.trim() || input.code, selfOnboarded: true })
        .returning();
    const tpa = admin;
    for (const m of read.rows)
      await upsertMasterMapping(ctx, { administratorId: tpa.id, adminCode: tpa.code, type: m.type, rows: m.rows, userId: user.id, reason: 'self-onboarding' });
    const [row] = await tx
      .insert(t.sdmUploads)
      .values({
        administratorId: tpa.id,
        status: 'Created',
        userId: user.id,
        validationResults: { ...results, touchedMappings: input.touchedMappings ?? null },
      })
      .returning();
    return row;
  });
  return sdmUploadInfo(ctx, upload.id);
}

type SdmUploadFileRow = Tables['sdmUploadFiles']['$inferSelect'];

function fileView(f: SdmUploadFileRow) {
  return {
    id: f.id,
    file_name: f.fileName,
    status: f.status,
    type: f.type,
    sub_type: f.subType,
    errors: f.errors,
    received_at: f.receivedAt,
    importFileId: f.importFileId,
  };
}

/** Publishes a file's new state to watchers ('upload-file'). */
export function publishFile(ctx: AppContext, f: SdmUploadFileRow) {
  ctx.events.publish('upload-file', { sdmUploadId: f.sdmUploadId, file: fileView(f) });
}

/** A file added to an upload, recorded as Uploading, before its check. */
export interface StartedSdmFile {
  row: SdmUploadFileRow;
  type: 'FundRequest' | 'SDM';
  blobKey: string;
  /** what `checkSdmFile` needs besides the file */
  check: Omit<SdmFileToCheck, 'fileName' | 'bytes'>;
}

/**
 * Adds one file to an upload: `fund_request.csv`, `<sdm type>.csv`, or a csv under the TPA's own
 * name, typed by its header; fund-request files are validated as a bulk upload, SDM files by their
 * header matching the TPA's file layout for their type (`checkSdmFile`).
 * @throws ValidationError for a file that is not .csv
 */
export async function addSdmFile(ctx: AppContext, input: { sdmUploadId: number; file: UploadedCsv }) {
  const started = await startSdmFile(ctx, input);
  return finishSdmFile(ctx, started, await checkSdmFile(ctx, { ...started.check, ...input.file }));
}

/**
 * The first step of `addSdmFile`: types the file by its name when it is named after its type,
 * stores the bytes and records the file as Uploading.
 * @throws NotFoundError for an unknown upload; ValidationError for a file that is not .csv
 */
export async function startSdmFile(ctx: AppContext, input: { sdmUploadId: number; file: UploadedCsv }): Promise<StartedSdmFile> {
  const { db, tables: t } = storeOf(ctx);
  const [upload] = await db.select().from(t.sdmUploads).where(eq(t.sdmUploads.id, input.sdmUploadId));
  if (!upload) throw new NotFoundError(`No self-onboarding upload with id: ${input.sdmUploadId}`);
  const base = input.file.fileName.toLowerCase();
  if (!base.endsWith('.csv')) throw new ValidationError(`${input.file.fileName}: only .csv files can be added`);
  // a file named after its type (holdings.csv) is that type; one under the TPA's own name is typed by its header (`checkSdmFile`)
  const named = base.replace(/\.csv$/, '');
  const subType = [...SDM_FILE_TYPES, 'fund_request'].includes(named as never) ? named : null;
  const type = subType === 'fund_request' ? 'FundRequest' : 'SDM';
  const blob = ctx.blobs.put(input.file.bytes);
  const [row] = await db
    .insert(t.sdmUploadFiles)
    .values({ sdmUploadId: upload.id, fileName: input.file.fileName, status: 'Uploading', type, subType, errors: [], importFileId: null })
    .returning();
  publishFile(ctx, row);
  return { row, type, blobKey: blob.key, check: { type, subType, administratorId: upload.administratorId } };
}

/** The last step of `addSdmFile`: records the check's outcome (Validated or Error) and where the bytes are. */
export async function finishSdmFile(ctx: AppContext, started: StartedSdmFile, check: SdmFileCheck) {
  const { errors } = check;
  const { tables: t } = storeOf(ctx);
  const row = await transaction(ctx, async (tx) => {
    const [saved] = await tx
      .update(t.sdmUploadFiles)
      .set({ status: errors.length ? 'Error' : 'Validated', errors, importFileId: null, type: check.type, subType: check.subType })
      .where(eq(t.sdmUploadFiles.id, started.row.id))
      .returning();
    // lock the upload row by writing it, then read it again: another file of the upload may have
    // been added meanwhile (PostgreSQL: a concurrent add waits here until this one commits)
    await tx.update(t.sdmUploads).set({ updatedAt: new Date().toISOString() }).where(eq(t.sdmUploads.id, started.row.sdmUploadId));
    const [upload] = await tx.select().from(t.sdmUploads).where(eq(t.sdmUploads.id, started.row.sdmUploadId));
    await tx
      .update(t.sdmUploads)
      .set({ validationResults: { ...(upload.validationResults ?? {}), [`blob:${saved.id}`]: started.blobKey } })
      .where(eq(t.sdmUploads.id, upload.id));
    return saved;
  });
  publishFile(ctx, row);
  return fileView(row);
}

/** An upload with its files, SDM and mapping types and validation results (spec "SDM upload"). */
export async function sdmUploadInfo(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const [upload] = await db.select().from(t.sdmUploads).where(eq(t.sdmUploads.id, id));
  if (!upload) throw new NotFoundError(`No self-onboarding upload with id: ${id}`);
  const [admin] = upload.administratorId ? await db.select().from(t.administrators).where(eq(t.administrators.id, upload.administratorId)) : [];
  const files = await db.select().from(t.sdmUploadFiles).where(eq(t.sdmUploadFiles.sdmUploadId, id)).orderBy(asc(t.sdmUploadFiles.id));
  const results = Object.fromEntries(Object.entries(upload.validationResults ?? {}).filter(([k]) => !k.startsWith('blob:')));
  return {
    id: upload.id,
    status: upload.status,
    force_run: upload.forceRun,
    administrator: admin ? { id: admin.id, code: admin.code, name: admin.name } : null,
    uploaded_files: files.map(fileView),
    sdmTypes: [...SDM_FILE_TYPES, 'fund_request'],
    mappingTypes: [...MAPPING_TYPES],
    validationResults: results,
  };
}
