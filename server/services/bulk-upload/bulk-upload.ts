/**
 * Bulk upload of fund requests (delivery "Bulk upload", auditor "Bulk Upload tab"): read the CSV,
 * validate every row, classify rows accepted / editable (warnings only) / declined (faults), and
 * save rows in one transaction per save. Overwriting an existing request (same administrator,
 * fund code and period end) needs the row to be accepted as editable and the request to still be
 * editable.
 */
import { and, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, fundCodes, fundRequests, mappings } from '../../db/schema/index.js';
import { ValidationError } from '../../errors.js';
import { rematchUnmatched } from '../../jobs/stages/identification.js';
import { heavyWork } from '../../threads/guard.js';
import { todayIso, parseUserDate } from '../../lib/dates.js';
import type { User } from '../auth/tokens.js';
import { editability } from '../funds/editability.js';
import { toFundFields } from '../funds/fields.js';
import { insertFundRequest, updateFundRequest } from '../funds/store.js';
import type { Tx } from '../funds/trail.js';
import { referenceIndex } from '../reference-data/reference-data.js';
import { BULK_UPLOAD_COLUMNS, type BulkUploadColumn } from './columns.js';

const TEMPLATE_COLUMNS = new Set<string>(BULK_UPLOAD_COLUMNS);
import { readBulkCsv } from './read-csv.js';
import { OVERWRITE_WARNING, validateBulkRow, type BulkIssue, type BulkLookups, type ValidatedRow } from './validate-row.js';

/** Most rows saved by one delivery save (spec section 9). */
export const MAX_BULK_SAVE = 100;

export type BulkRowValues = Partial<Record<BulkUploadColumn, string>>;

/** A row as the spec's bulk-upload result row. */
export type BulkResultRow = BulkRowValues & {
  id: number;
  columnName: number;
  frBulkuploadStatus: 'accepted' | 'declined' | 'editable';
  isEditable: boolean;
  selected: boolean;
  errors: { faults: BulkIssue[]; warnings: BulkIssue[] };
  duplicateOfId: number | null;
};

export interface BulkUploadResult {
  fileName: string;
  encoding: string;
  totalRows: number;
  accepted: BulkResultRow[];
  editable: BulkResultRow[];
  declined: BulkResultRow[];
}

/** Loads what row validation needs for these rows (one query per table). */
export function loadBulkLookups(ctx: AppContext, rows: BulkRowValues[]): BulkLookups {
  const admins = ctx.db.select().from(administrators).all();
  const byCode = new Map(admins.map((a) => [a.code.toLowerCase(), { id: a.id, code: a.code, name: a.name }]));
  const ids = [...new Set(rows.map((r) => byCode.get((r.tpa ?? '').toLowerCase())?.id).filter((x): x is number => x !== undefined))];
  const mapIndex: BulkLookups['mappings'] = new Map();
  const existingKeys = new Map<string, number>();
  if (ids.length) {
    for (const m of ctx.db
      .select()
      .from(mappings)
      .where(and(inArray(mappings.administratorId, ids), eq(mappings.active, true)))
      .all()) {
      const byType = mapIndex.get(m.administratorId) ?? new Map();
      const names = byType.get(m.type) ?? new Map();
      names.set(m.description.toLowerCase(), m.id);
      byType.set(m.type, names);
      mapIndex.set(m.administratorId, byType);
    }
    const existing = ctx.db
      .select({ id: fundRequests.id, administratorId: fundRequests.administratorId, periodEnd: fundRequests.periodEnd, code: fundCodes.code })
      .from(fundCodes)
      .innerJoin(fundRequests, eq(fundCodes.fundRequestId, fundRequests.id))
      .where(and(inArray(fundRequests.administratorId, ids), ne(fundRequests.status, 'Deleted')))
      .all();
    for (const e of existing) existingKeys.set(`${e.administratorId}|${e.code.toLowerCase()}|${e.periodEnd}`, e.id);
  }
  return { ref: referenceIndex(ctx), administrators: byCode, mappings: mapIndex, existingKeys };
}

/** Validates rows, adding a fault to later rows that repeat an earlier row's unique identifier. */
function validateAll(ctx: AppContext, rows: Array<{ line: number; values: BulkRowValues }>): Array<ValidatedRow & { line: number; values: BulkRowValues }> {
  const lookups = loadBulkLookups(
    ctx,
    rows.map((r) => r.values),
  );
  const firstLine = new Map<string, number>();
  return rows.map((r) => {
    const v = validateBulkRow(r.values, lookups);
    if (v.uniqueKey) {
      const first = firstLine.get(v.uniqueKey);
      if (first !== undefined)
        v.faults.push({
          column: 'fundShortCode',
          message: `fundShortCode '${r.values.fundShortCode}' on row ${r.line} repeats the TPA, fund code and period end of row ${first}`,
        });
      else firstLine.set(v.uniqueKey, r.line);
    }
    return { ...v, line: r.line, values: r.values };
  });
}

function resultRow(v: ValidatedRow & { line: number; values: BulkRowValues }): BulkResultRow {
  const status = v.faults.length ? 'declined' : v.warnings.length ? 'editable' : 'accepted';
  return {
    id: v.line,
    columnName: v.line,
    ...v.values,
    frBulkuploadStatus: status,
    isEditable: false,
    selected: status === 'accepted',
    errors: { faults: v.faults, warnings: v.warnings },
    duplicateOfId: v.duplicateOfId,
  };
}

/**
 * Validates an uploaded CSV without saving (delivery `POST funds/upload`).
 * @throws ValidationError / TooLargeError for an unreadable file (see read-csv.ts)
 */
export function validateBulkUpload(ctx: AppContext, fileName: string, bytes: Uint8Array): BulkUploadResult {
  const csv = readBulkCsv(fileName, bytes, ctx.config.maxUploadBytes);
  const rows = validateAll(ctx, csv.rows).map(resultRow);
  return {
    fileName,
    encoding: csv.encoding,
    totalRows: rows.length,
    accepted: rows.filter((r) => r.frBulkuploadStatus === 'accepted'),
    editable: rows.filter((r) => r.frBulkuploadStatus === 'editable'),
    declined: rows.filter((r) => r.frBulkuploadStatus === 'declined'),
  };
}

export type SavedFund = BulkRowValues & {
  id: number;
  /** The row's line in the uploaded file. */
  columnName: number;
  fundName: string;
  fundShortCode: string;
  tpa: string;
  overwritten: boolean;
};
export interface FailedFund {
  fund: BulkRowValues & { columnName?: number };
  errors: { faults: BulkIssue[]; warnings: BulkIssue[] };
}

/**
 * Saves bulk rows in one transaction: rows with faults fail; a row repeating an existing request
 * overwrites it only when `isEditable` (accepted as editable) and the request is still editable.
 * @param opts.overwrite whether overwriting is possible at all (auditor uploads: no)
 * @param opts.maxRows most rows per call (delivery: 100)
 * @throws ValidationError for more rows than allowed or a bad request date
 */
export function saveBulkFunds(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  opts: BulkSaveOptions = { overwrite: true, maxRows: MAX_BULK_SAVE },
): { saved: SavedFund[]; failed: FailedFund[] } {
  return commitBulkSave(ctx, user, input, prepareBulkSave(ctx, input, opts), opts);
}

/** A save's rows validated against the data as read (`prepareBulkSave`), ready for `commitBulkSave`. */
export interface PreparedBulkSave {
  requestDate: string;
  validated: Array<ValidatedRow & { line: number; values: BulkRowValues }>;
  /** The highest fund request id when the rows were validated: requests saved since are checked again for duplicates. */
  lastFundId: number;
}

/** The funds of a save as sent: template values, with the file line and the overwrite choice of each. */
export type BulkSaveInput = { requestDate?: string; funds: Array<BulkRowValues & { columnName?: number; isEditable?: boolean }> };

/** How a save treats existing requests and how many rows it takes. */
export type BulkSaveOptions = { overwrite: boolean; maxRows?: number; action?: string };

/**
 * The read-only half of `saveBulkFunds`: checks the row count and request date and validates every
 * row (heavy for a large file: it runs in the parse pool for requests).
 * @throws ValidationError for more rows than allowed or a bad request date
 */
export function prepareBulkSave(ctx: AppContext, input: BulkSaveInput, opts: BulkSaveOptions): PreparedBulkSave {
  heavyWork('bulk-upload validation');
  if (opts.maxRows && input.funds.length > opts.maxRows)
    throw new ValidationError(`At most ${opts.maxRows} funds can be saved at once (got ${input.funds.length})`);
  const requestDate = input.requestDate ? parseUserDate(input.requestDate) : todayIso();
  if (!requestDate) throw new ValidationError(`requestDate '${input.requestDate}' is not a date`);
  const lastFundId =
    ctx.db
      .select({ id: sql<number | null>`max(${fundRequests.id})` })
      .from(fundRequests)
      .get()?.id ?? 0;
  const validated = validateAll(
    ctx,
    input.funds.map((f, i) => ({ line: f.columnName ?? i + 1, values: pickValues(f) })),
  );
  return { requestDate, validated, lastFundId };
}

/**
 * Rows validated as new whose request was saved by someone else since (while the rows were being
 * validated in a pool thread) become duplicates of it, as validation would have found them.
 */
function recheckDuplicates(tx: Tx, prepared: PreparedBulkSave, ownIds: ReadonlySet<number>): void {
  const open = prepared.validated.filter((v) => v.uniqueKey && v.duplicateOfId === null);
  if (!open.length) return;
  const since = tx
    .select({ id: fundRequests.id, administratorId: fundRequests.administratorId, periodEnd: fundRequests.periodEnd, code: fundCodes.code })
    .from(fundCodes)
    .innerJoin(fundRequests, eq(fundCodes.fundRequestId, fundRequests.id))
    .where(and(gt(fundRequests.id, prepared.lastFundId), ne(fundRequests.status, 'Deleted')))
    .all();
  if (!since.length) return;
  const keys = new Map(since.filter((e) => !ownIds.has(e.id)).map((e) => [`${e.administratorId}|${e.code.toLowerCase()}|${e.periodEnd}`, e.id]));
  for (const v of open) {
    const id = keys.get(v.uniqueKey!);
    if (id === undefined) continue;
    v.duplicateOfId = id;
    v.warnings.push({ column: 'fundShortCode', message: OVERWRITE_WARNING });
  }
}

/**
 * The writing half of `saveBulkFunds`: saves prepared rows in one transaction (see there), then
 * tells watchers and re-matches files delivered before their fund requests existed.
 * @param input the funds as sent, in the order `prepareBulkSave` validated them
 */
export function commitBulkSave(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  prepared: PreparedBulkSave,
  opts: BulkSaveOptions,
): { saved: SavedFund[]; failed: FailedFund[] } {
  const result = commitBulkRows(ctx, user, input, prepared, opts);
  afterBulkSave(ctx, prepared, result.saved);
  return result;
}

/** Rows a bulk save writes in one transaction before letting other work run (`commitBulkSaveInTurns`). */
export const BULK_ROWS_PER_TURN = 500;

/**
 * `commitBulkSave` for large files on a thread that serves other requests: the rows are written
 * `rowsPerTurn` to a transaction, with a turn of the event loop between transactions (10,000 rows
 * in one transaction held the thread ~1.6 s). Each transaction checks again for requests saved
 * since validation, so the outcome per row is the one a single transaction gives.
 */
export async function commitBulkSaveInTurns(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  prepared: PreparedBulkSave,
  opts: BulkSaveOptions,
  rowsPerTurn = BULK_ROWS_PER_TURN,
): Promise<{ saved: SavedFund[]; failed: FailedFund[] }> {
  const saved: SavedFund[] = [];
  const failed: FailedFund[] = [];
  // requests this save made in its earlier transactions are not duplicates to check again
  const ownIds = new Set<number>();
  for (let i = 0; i < prepared.validated.length; i += rowsPerTurn) {
    if (i) await new Promise((resolve) => setImmediate(resolve));
    const part = commitBulkRows(
      ctx,
      user,
      { ...input, funds: input.funds.slice(i, i + rowsPerTurn) },
      { ...prepared, validated: prepared.validated.slice(i, i + rowsPerTurn) },
      opts,
      ownIds,
    );
    for (const x of part.saved) ownIds.add(x.id);
    saved.push(...part.saved);
    failed.push(...part.failed);
  }
  afterBulkSave(ctx, prepared, saved);
  return { saved, failed };
}

function commitBulkRows(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  prepared: PreparedBulkSave,
  opts: BulkSaveOptions,
  ownIds: ReadonlySet<number> = new Set(),
): { saved: SavedFund[]; failed: FailedFund[] } {
  const { requestDate, validated } = prepared;
  const saved: SavedFund[] = [];
  const failed: FailedFund[] = [];
  ctx.db.transaction((tx) => {
    recheckDuplicates(tx, prepared, ownIds);
    validated.forEach((v, i) => {
      const faults = [...v.faults];
      const row = input.funds[i];
      if (v.duplicateOfId !== null) {
        const existing = tx.select().from(fundRequests).where(eq(fundRequests.id, v.duplicateOfId)).get()!;
        const edit = editability(ctx, existing);
        if (!opts.overwrite || !row.isEditable)
          faults.push({
            column: 'fundShortCode',
            message: `fundShortCode: another request exists with same unique identifier (id ${existing.id}) and it was not accepted for overwrite`,
            id: existing.id,
            type: 'Duplicate Fund',
          });
        else if (!edit.rowsEditable)
          faults.push({ column: 'fundShortCode', message: `fundShortCode: the existing request (id ${existing.id}) cannot be overwritten: ${edit.reason}` });
        if (!faults.length) {
          updateFundRequest(tx, existing.id, {
            fields: { ...v.fund.fields, request_date: requestDate },
            codes: codesOf(v),
            mappingIds: v.fund.mappingIds,
            userId: user.id,
            action: 'bulk-overwrite',
            before: toFundFields(existing),
          });
          saved.push({
            ...v.values,
            id: existing.id,
            columnName: v.line,
            fundName: row.fundName ?? '',
            fundShortCode: v.fund.fundCode,
            tpa: row.tpa ?? '',
            overwritten: true,
          });
          return;
        }
      }
      if (faults.length) {
        failed.push({ fund: { ...v.values, columnName: v.line }, errors: { faults, warnings: v.warnings } });
        return;
      }
      const id = insertFundRequest(ctx.sqlite, {
        administratorId: v.fund.administratorId,
        fields: { ...v.fund.fields, request_date: requestDate },
        codes: codesOf(v),
        mappingIds: v.fund.mappingIds,
        userId: user.id,
        action: opts.action ?? 'bulk-upload',
      });
      saved.push({ ...v.values, id, columnName: v.line, fundName: row.fundName ?? '', fundShortCode: v.fund.fundCode, tpa: row.tpa ?? '', overwritten: false });
    });
  });
  return { saved, failed };
}

function afterBulkSave(ctx: AppContext, prepared: PreparedBulkSave, saved: SavedFund[]): void {
  if (!saved.length) return;
  ctx.events.publish('fund-request', { ids: saved.map((s) => s.id), action: 'bulk-upload' });
  // files that matched no fund request may match one of these now
  for (const adminId of new Set(prepared.validated.map((v) => v.fund.administratorId).filter((x): x is number => x !== null))) rematchUnmatched(ctx, adminId);
}

function codesOf(v: ValidatedRow) {
  return [{ code: v.fund.fundCode, main: true }, ...v.fund.alternateCodes.map((code) => ({ code, main: false }))];
}

/** Keeps only template columns of a client-sent row (never trusting other fields). */
function pickValues(f: Record<string, unknown>): BulkRowValues {
  const out: BulkRowValues = {};
  for (const [k, v] of Object.entries(f)) {
    if (!TEMPLATE_COLUMNS.has(k)) continue;
    if (typeof v === 'string' && v.trim() !== '') out[k as BulkUploadColumn] = v.trim();
    else if (typeof v === 'number') out[k as BulkUploadColumn] = String(v);
  }
  return out;
}

/** How an auditor upload saves: every valid row at once, existing requests never overwritten. */
export const AUDITOR_UPLOAD: BulkSaveOptions = { overwrite: false, action: 'bulk-upload' };

/**
 * The read-only half of `uploadAndSaveBulk`: reads the CSV and validates its rows for saving.
 * @throws ValidationError / TooLargeError for an unreadable file (see read-csv.ts)
 */
export function prepareBulkUpload(
  ctx: AppContext,
  fileName: string,
  bytes: Uint8Array,
): { input: BulkSaveInput; prepared: PreparedBulkSave; totalRows: number } {
  const csv = readBulkCsv(fileName, bytes, ctx.config.maxUploadBytes);
  const input: BulkSaveInput = { funds: csv.rows.map((r) => ({ ...r.values, columnName: r.line })) };
  return { input, prepared: prepareBulkSave(ctx, input, AUDITOR_UPLOAD), totalRows: csv.rows.length };
}

/**
 * Auditor bulk upload (`POST /fund-request/bulk`): validates the CSV and saves every valid row at
 * once; existing requests are never overwritten.
 */
export function uploadAndSaveBulk(
  ctx: AppContext,
  user: User,
  fileName: string,
  bytes: Uint8Array,
): { saved: SavedFund[]; failed: FailedFund[]; totalRows: number } {
  const { input, prepared, totalRows } = prepareBulkUpload(ctx, fileName, bytes);
  return { ...commitBulkSave(ctx, user, input, prepared, AUDITOR_UPLOAD), totalRows };
}
