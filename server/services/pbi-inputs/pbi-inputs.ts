/**
 * PowerBI inputs (delivery spec "PowerBI inputs"; section 3 "PBI input file"; section 5: an input
 * type is needed and only .csv is taken; section 7 `POST /pbi-inputs/list`, `GET /pbi-inputs/types`,
 * `POST pbi-inputs/save`; section 9: 10 per page, newest first by created_at).
 *
 * A saved csv is kept unchanged in the blob store with a row naming its type, and gets a file
 * token (the spec's SAS token): a random token that downloads that one file until it expires
 * (`pbiTokenTtlHours`, default 7 days), through `GET /api/v2.0/pbi-inputs/file/{id}?token=`, the
 * address PowerBI reads it from. Like every token it is stored only as a hash: the raw token is in
 * the answer to the save, the list shows its last characters.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { parse } from 'csv-parse/sync';
import { ANY_LINE_ENDING } from '../../../pipeline/readers/delimited.js';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { hashToken, issueToken, verifyToken, type User } from '../auth/tokens.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type FieldRegistry } from '../query/query-filters.js';
import { parseInput } from '../query/validate.js';
import { heavyWork } from '../../lib/guard.js';
import { normalizeColumn, PBI_INPUT_TYPES, pbiInputType } from './types.js';
import { gridPageSchema } from '../query/grid-input.js';

/** PowerBI inputs per page (spec section 9). */
export const PBI_PAGE_SIZE = 10;

/** A PowerBI input file as the grid shows it (spec field names). */
export interface PbiInputView {
  id: number;
  pbi_input_type: string;
  pbi_input_type_name: string;
  file_name: string;
  /** The token masked: only its last characters. */
  sas_token: string | null;
  uploaded_by: string | null;
  token_expiry_date: string | null;
  token_expired: boolean;
  upload_date: string;
  created_at: string;
  size: number | null;
  row_count: number | null;
}

/** The answer to a save: the row, and once, the raw token and the download address. */
export interface SavedPbiInput extends PbiInputView {
  token: string;
  url: string;
}

/** @throws ConflictError when PowerBI inputs are off on this server */
export function assertPbiEnabled(ctx: AppContext): void {
  if (!ctx.config.pbiInputs) throw new ConflictError('PowerBI inputs are disabled on this server (setting pbiInputs)');
}

/** The uploader's name (first and last name, else user name) over the users table of the database in use. */
const uploaderOf = (t: Tables) =>
  sql<
    string | null
  >`case when ${t.users.id} is null then null else coalesce(nullif(trim(${t.users.firstName} || ' ' || ${t.users.lastName}), ''), ${t.users.username}) end`;

/** The filterable and sortable fields of the list over the tables of the database in use. */
const fieldsOf = (t: Tables): FieldRegistry => ({
  pbi_input_type: { expr: t.pbiInputFiles.pbiInputType, types: ['enum', 'text'] },
  file_name: { expr: t.pbiInputFiles.fileName, types: ['text'] },
  uploaded_by: { expr: uploaderOf(t), types: ['text', 'enum'] },
  token_expiry_date: { expr: t.pbiInputFiles.tokenExpiryDate, types: ['date'] },
  created_at: { expr: t.pbiInputFiles.uploadDate, types: ['date'] },
  upload_date: { expr: t.pbiInputFiles.uploadDate, types: ['date'] },
});

export const pbiListSchema = gridPageSchema;

const mask = (hint: string | null) => (hint ? `••••••••${hint}` : null);

function view(row: Tables['pbiInputFiles']['$inferSelect'], by: string | null): PbiInputView {
  return {
    id: row.id,
    pbi_input_type: row.pbiInputType,
    pbi_input_type_name: pbiInputType(row.pbiInputType)?.name ?? row.pbiInputType,
    file_name: row.fileName,
    sas_token: mask(row.tokenHint),
    uploaded_by: by,
    token_expiry_date: row.tokenExpiryDate,
    token_expired: !row.tokenExpiryDate || Date.parse(row.tokenExpiryDate) <= Date.now(),
    upload_date: row.uploadDate,
    created_at: row.uploadDate,
    size: row.size,
    row_count: row.rowCount,
  };
}

/** The input types with their required columns. */
export function listPbiInputTypes(ctx: AppContext) {
  assertPbiEnabled(ctx);
  return PBI_INPUT_TYPES.map((t) => ({ code: t.code, name: t.name, description: t.description, columns: [...t.columns] }));
}

/**
 * One page of PowerBI input files, newest first unless sorted otherwise.
 * @param input filters/sorting over pbi_input_type, file_name, uploaded_by, token_expiry_date, created_at; offset; limit (10)
 * @throws ConflictError when disabled; ValidationError for unknown filter or sort fields
 */
export async function listPbiInputs(
  ctx: AppContext,
  input: z.input<typeof pbiListSchema> = {},
): Promise<{ rows: PbiInputView[]; pagination: { offset: number; limit: number; count: number } }> {
  assertPbiEnabled(ctx);
  const { dialect, db, tables: t } = storeOf(ctx);
  const fields = fieldsOf(t);
  const p = parseInput(pbiListSchema, input);
  const offset = p.offset ?? p.pagination?.offset ?? 0;
  const limit = p.limit ?? p.pagination?.limit ?? PBI_PAGE_SIZE;
  const conditions: Array<SQL | undefined> = normalizeFilters(p.filters, fields).map((f) => filterCondition(f, fields, dialect));
  const where = and(...conditions);
  const order = [...orderTerms(normalizeSorting(p.sorting, fields), fields, dialect), desc(t.pbiInputFiles.uploadDate), desc(t.pbiInputFiles.id)];
  const rows = await db
    .select({ row: t.pbiInputFiles, by: uploaderOf(t) })
    .from(t.pbiInputFiles)
    .leftJoin(t.users, eq(t.users.id, t.pbiInputFiles.uploadedById))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(t.pbiInputFiles).leftJoin(t.users, eq(t.users.id, t.pbiInputFiles.uploadedById)).where(where);
  return { rows: rows.map((r) => view(r.row, r.by)), pagination: { offset, limit, count: total?.n ?? 0 } };
}

/** The delimiter of a header line: the most frequent of `,` `;` tab `|` (comma when none). */
function delimiterOf(firstLine: string): string {
  const counts = [',', ';', '\t', '|'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/**
 * Checks a csv against its input type: readable, a header with the type's columns, at least one
 * and at most `maxRows` data rows. Heavy for a large file: requests run it in the parse pool
 * (`server/threads/pbi-inputs/off-thread.ts`); reading stops one row past the limit.
 * @param maxRows most data rows (setting `maxUploadRows`)
 * @returns the number of data rows
 * @throws ValidationError naming the missing columns, the reading problem or the row limit
 */
export function countPbiRows(typeCode: string, fileName: string, bytes: Uint8Array, maxRows: number): number {
  heavyWork('PowerBI input csv check');
  const type = pbiInputType(typeCode);
  if (!type) throw new ValidationError(`Unknown input type '${typeCode}'`);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text.slice(0, 64 * 1024).split(/\r?\n/, 1)[0] ?? ''),
      // each line keeps its own ending: a file pieced together on Windows and elsewhere mixes CRLF and LF
      record_delimiter: ANY_LINE_ENDING,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      // the header and one row past the limit are enough to refuse a longer file
      to: maxRows + 2,
    }) as string[][];
  } catch (err) {
    throw new ValidationError(`${fileName} is not a readable csv file`, [(err as Error).message]);
  }
  if (!records.length)
    throw new ValidationError(`${fileName} is empty`, [`A ${type.name} file needs a header row with ${type.columns.join(', ')} and at least one row`]);
  const header = new Set(records[0].map(normalizeColumn));
  const missing = type.columns.filter((c) => !header.has(normalizeColumn(c)));
  if (missing.length)
    throw new ValidationError(
      `${fileName} does not fit the input type ${type.name}`,
      missing.map((c) => `Column ${c} is missing`),
    );
  if (records.length < 2) throw new ValidationError(`${fileName} has no rows`, [`A ${type.name} file needs at least one row below its header`]);
  if (records.length > maxRows + 1)
    throw new ValidationError(`${fileName} has more than ${maxRows} rows, the most a PowerBI input may have (setting maxUploadRows)`);
  return records.length - 1;
}

/**
 * The checks of a save that need no reading of the file: the setting, the type and the name.
 * @returns the input type code
 * @throws ConflictError when disabled; ValidationError without a type, for an unknown type or a file that is not .csv
 */
export function checkPbiInput(ctx: AppContext, input: { pbiInputsTypes?: string | null; fileName: string }): string {
  assertPbiEnabled(ctx);
  const code = input.pbiInputsTypes?.trim();
  if (!code) throw new ValidationError('Choose an input type before uploading a file');
  if (!pbiInputType(code)) throw new ValidationError(`Unknown input type '${code}'`, [`Input types are ${PBI_INPUT_TYPES.map((t) => t.code).join(', ')}`]);
  if (!/\.csv$/i.test(input.fileName)) throw new ValidationError(`${input.fileName} is not a .csv file`, ['PowerBI inputs take .csv files only']);
  return code;
}

/**
 * Saves a PowerBI input csv: stores it, records it and issues its file token (in this thread;
 * requests use `savePbiInputOffThread`).
 * @param input.pbiInputsTypes the input type code (spec field name)
 * @param baseUrl where the server is reached, for the download address
 * @throws ConflictError when disabled; ValidationError without a type, for an unknown type, a file that is not .csv or does not fit the type
 */
export async function savePbiInput(
  ctx: AppContext,
  user: User,
  input: { pbiInputsTypes?: string | null; fileName: string; bytes: Uint8Array },
  baseUrl = '',
): Promise<SavedPbiInput> {
  const code = checkPbiInput(ctx, input);
  return storePbiInput(ctx, user, { ...input, code, rowCount: countPbiRows(code, input.fileName, input.bytes, ctx.config.maxUploadRows) }, baseUrl);
}

/**
 * The writing half of a save, for a file already checked (`checkPbiInput`, `countPbiRows`).
 * @param input.code the input type code; `rowCount` its data rows
 */
export async function storePbiInput(
  ctx: AppContext,
  user: User,
  input: { code: string; fileName: string; bytes: Uint8Array; rowCount: number },
  baseUrl = '',
): Promise<SavedPbiInput> {
  const { code, rowCount } = input;
  const blob = ctx.blobs.put(input.bytes);
  const ttl = ctx.config.pbiTokenTtlHours * 3_600_000;
  const { tables: t } = storeOf(ctx);
  const saved = await transaction(ctx, async (tx) => {
    const [row] = await tx
      .insert(t.pbiInputFiles)
      .values({ pbiInputType: code, fileName: input.fileName, blobKey: blob.key, size: blob.size, rowCount, uploadedById: user.id })
      .returning();
    // the token is written in this transaction (issueToken writes through the open transaction)
    const issued = await issueToken(ctx, user.id, 'file', ttl, `pbi_input_files:${row.id}`);
    const [token] = await tx
      .select({ id: t.tokens.id })
      .from(t.tokens)
      .where(eq(t.tokens.tokenHash, hashToken(issued.token)));
    const [updated] = await tx
      .update(t.pbiInputFiles)
      .set({ tokenId: token.id, tokenHint: issued.token.slice(-4), tokenExpiryDate: issued.expiresAt })
      .where(eq(t.pbiInputFiles.id, row.id))
      .returning();
    return { token: issued.token, row: updated };
  });
  const { token } = saved;
  ctx.log.info({ userId: user.id, id: saved.row.id, type: code, rows: rowCount }, 'PowerBI input saved');
  const by = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return { ...view(saved.row, by), token, url: `${baseUrl.replace(/\/$/, '')}/api/v2.0/pbi-inputs/file/${saved.row.id}?token=${token}` };
}

/**
 * Opens a PowerBI input file for its file token.
 * @throws UnauthorizedError for a missing, unknown, expired or revoked token; NotFoundError for an unknown file or a token of another file
 */
export async function openPbiInput(ctx: AppContext, id: number, token: string | null | undefined): Promise<{ fileName: string; bytes: Buffer }> {
  assertPbiEnabled(ctx);
  const { tokenId } = await verifyToken(ctx, token, ['file']);
  const { db, tables: t } = storeOf(ctx);
  const [row] = Number.isInteger(id) ? await db.select().from(t.pbiInputFiles).where(eq(t.pbiInputFiles.id, id)) : [];
  if (!row || row.tokenId !== tokenId) throw new NotFoundError(`No such PowerBI input file with id: ${id}`);
  if (!ctx.blobs.has(row.blobKey)) throw new NotFoundError(`The file of PowerBI input ${id} is missing; upload it again`);
  return { fileName: row.fileName, bytes: ctx.blobs.get(row.blobKey) };
}
