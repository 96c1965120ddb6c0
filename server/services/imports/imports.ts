/**
 * Importing TPA files (DOMAIN.md 2.1; spec "Import files"): raw bytes are stored unchanged in the
 * content-addressed blob store, an import-file row records them (`Awaiting -> Processing ->
 * Success | Error`), and an identification job is queued. The same bytes imported again for the
 * same administrator are noticed and not processed twice.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * identification job is queued through the job queue (`enqueue`, `server/queue/enqueue.ts`).
 */
import { statSync } from 'node:fs';
import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import { enqueue } from '../../queue/queue.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import type { ImportStatus } from '../../db/schema/files.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { orderTerms, type FieldRegistry, type SortSpec } from '../query/query-filters.js';

export type ImportFileRow = Tables['importFiles']['$inferSelect'];

/** How a file arrived. */
export type ImportSource = 'upload' | 'sweeper' | 'sdm-upload' | 'cli' | 'demo';

/** An import file as the Import files grid shows it (spec delivery 3 "Imported file"). */
export function importView(row: ImportFileRow, admin?: { code: string; name: string } | null) {
  return {
    id: row.id,
    administrator: admin?.name ?? null,
    administratorCode: admin?.code ?? null,
    fileName: row.fileName,
    type: row.type,
    subType: row.subType,
    status: row.status,
    source: row.source,
    size: row.size,
    sha256: row.sha256,
    created_at: row.createdAt,
    payload: row.payload ?? {},
  };
}
export type ImportView = ReturnType<typeof importView>;

/** Finds an administrator by code. @throws ValidationError when missing, NotFoundError when unknown */
export async function administratorByCode(ctx: AppContext, code: string | null | undefined) {
  if (!code) throw new ValidationError('Choose an administrator before importing files');
  const { db, tables: t } = storeOf(ctx);
  const [admin] = await db.select().from(t.administrators).where(eq(t.administrators.code, code));
  if (!admin) throw new NotFoundError(`No administrator with code: ${code}`);
  return admin;
}

/**
 * A file's content: its bytes, a file to copy (`path`), or an upload already streamed to the blob
 * store's tmp folder and hashed on the way (`staged`: moved into the store, not read again).
 */
export type ImportContent =
  | { bytes: Uint8Array; path?: undefined; staged?: undefined }
  | { path: string; bytes?: undefined; staged?: undefined }
  | { staged: { path: string; sha256: string; size: number }; bytes?: undefined; path?: undefined };

/**
 * Stores one file and queues its identification. A file given by `path` is hashed and copied in
 * chunks, so its size does not matter to memory.
 * @param input.administratorCode the TPA the file comes from (required)
 * @returns the import row; `payload.duplicateOf` names an earlier import of identical bytes
 * @throws ValidationError for a missing administrator, a nameless or empty file
 */
export async function importFile(
  ctx: AppContext,
  input: { administratorCode: string; fileName: string; userId: number | null; source: ImportSource; fundRequestId?: number } & ImportContent,
): Promise<ImportView> {
  const admin = await administratorByCode(ctx, input.administratorCode);
  if (!input.fileName.trim()) throw new ValidationError('The file has no name');
  const size = input.bytes ? input.bytes.byteLength : input.staged ? input.staged.size : statSync(input.path).size;
  if (size === 0) throw new ValidationError(`${input.fileName}: the file is empty`);
  const blob = input.bytes
    ? ctx.blobs.put(input.bytes)
    : input.staged
      ? ctx.blobs.putStaged(input.staged.path, input.staged.sha256, input.staged.size)
      : ctx.blobs.putFile(input.path);
  const { db, tables: t } = storeOf(ctx);
  const [earlier] = await db
    .select()
    .from(t.importFiles)
    .where(and(eq(t.importFiles.sha256, blob.key), eq(t.importFiles.administratorId, admin.id), ne(t.importFiles.status, 'Error')))
    .orderBy(asc(t.importFiles.id))
    .limit(1);
  const [row] = await db
    .insert(t.importFiles)
    .values({
      administratorId: admin.id,
      fileName: input.fileName,
      sha256: blob.key,
      size: blob.size,
      source: input.source,
      status: earlier ? 'Finished' : 'Awaiting',
      userId: input.userId,
      payload: earlier
        ? {
            duplicateOf: earlier.id,
            warning: `The same file was already imported as ${earlier.fileName} (import ${earlier.id}); it was not processed again.`,
          }
        : { fundRequestId: input.fundRequestId ?? null },
    })
    .returning();
  if (!earlier) await enqueue(ctx, { stage: 'identification', fundRequestId: null, payload: { importFileId: row.id }, createdById: input.userId });
  ctx.events.publish('import-file', { id: row.id, fileName: row.fileName, status: row.status, administratorId: admin.id });
  ctx.log.info({ importFileId: row.id, fileName: row.fileName, administrator: admin.code, duplicateOf: earlier?.id }, 'file imported');
  return importView(row, admin);
}

/** Sets an import file's status (and merges its payload); publishes the change. */
export async function setImportStatus(
  ctx: AppContext,
  id: number,
  status: ImportStatus,
  payload: Record<string, unknown> = {},
  type?: { type?: string | null; subType?: string | null },
): Promise<void> {
  const { tables: t } = storeOf(ctx);
  // read-modify-write of the payload in one transaction, so two changes of one file keep both
  const updated = await transaction(ctx, async (tx) => {
    const [row] = await tx.select().from(t.importFiles).where(eq(t.importFiles.id, id));
    if (!row) return undefined;
    const [after] = await tx
      .update(t.importFiles)
      .set({ status, payload: { ...(row.payload ?? {}), ...payload }, updatedAt: new Date().toISOString(), ...(type ?? {}) })
      .where(eq(t.importFiles.id, id))
      .returning();
    return after;
  });
  if (!updated) return;
  ctx.events.publish('import-file', {
    id,
    fileName: updated.fileName,
    status,
    administratorId: updated.administratorId,
    error: typeof payload.error === 'string' ? payload.error : undefined,
  });
}

/** Sortable columns of the Import files grid (field names of `importView`), to their column. */
export const importSortFields = (t: Tables) =>
  ({
    administrator: t.administrators.name,
    fileName: t.importFiles.fileName,
    type: t.importFiles.type,
    subType: t.importFiles.subType,
    status: t.importFiles.status,
    created_at: t.importFiles.createdAt,
  }) as const;

/** Field names the Import files grid sorts on. */
export const IMPORT_SORT_FIELDS = ['administrator', 'fileName', 'type', 'subType', 'status', 'created_at'] as const;

/** A sort term of the Import files grid. */
export interface ImportSort {
  field: string;
  order?: 'asc' | 'desc';
}

/**
 * Lists import files (delivery spec "Import files"; default newest first; page size 200, at most 1000).
 * @param input.filters optional `{administrator?: code, status?: ImportStatus[]}`
 * @param input.sorting optional `[{field, order}]` over `IMPORT_SORT_FIELDS` (ties broken by newest id)
 * @returns `{rows, pagination: {offset, limit, count}}`
 * @throws ValidationError naming an unknown sort field or order
 */
export async function listImports(
  ctx: AppContext,
  input: { offset?: number; limit?: number; filters?: { administrator?: string; status?: string[] }; sorting?: ImportSort[] | null } = {},
) {
  const { db, dialect, tables: t } = storeOf(ctx);
  const fields = importSortFields(t);
  const limit = Math.min(input.limit ?? 200, 1000);
  const offset = input.offset ?? 0;
  const where = and(
    input.filters?.administrator ? eq(t.administrators.code, input.filters.administrator) : undefined,
    input.filters?.status?.length ? inArray(t.importFiles.status, input.filters.status as ImportStatus[]) : undefined,
  );
  const sorting = (input.sorting ?? []).map((s): SortSpec => {
    if (!(IMPORT_SORT_FIELDS as readonly string[]).includes(s.field))
      throw new ValidationError(`Cannot sort import files by '${s.field}': use one of ${IMPORT_SORT_FIELDS.join(', ')}`);
    if (s.order !== undefined && s.order !== 'asc' && s.order !== 'desc') throw new ValidationError(`Sort order of '${s.field}' must be asc or desc`);
    return { field: s.field, order: s.order ?? 'asc' };
  });
  const registry: FieldRegistry = Object.fromEntries(Object.entries(fields).map(([k, expr]) => [k, { expr, types: [] }]));
  // empty values sort first ascending and last descending on both databases
  const order = sorting.length ? orderTerms(sorting, registry, dialect) : [desc(t.importFiles.createdAt)];
  const rows = await db
    .select({ f: t.importFiles, a: t.administrators })
    .from(t.importFiles)
    .leftJoin(t.administrators, eq(t.importFiles.administratorId, t.administrators.id))
    .where(where)
    .orderBy(...order, desc(t.importFiles.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db
    .select({ n: count() })
    .from(t.importFiles)
    .leftJoin(t.administrators, eq(t.importFiles.administratorId, t.administrators.id))
    .where(where);
  return { rows: rows.map((r) => importView(r.f, r.a)), pagination: { offset, limit, count: total?.n ?? 0 } };
}
