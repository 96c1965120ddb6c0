/**
 * Bulk upload of fund requests (delivery "Bulk upload", auditor "Bulk Upload tab"): read the CSV,
 * validate every row, classify rows accepted / editable (warnings only) / declined (faults), and
 * save rows in one transaction per save. Overwriting an existing request (same administrator,
 * fund code and period end) needs the row to be accepted as editable and the request to still be
 * editable. The rows are written by save-rows.ts.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). Files
 * delivered before their fund requests are matched again after a save (`rematchUnmatched`,
 * `server/services/imports/rematch.ts`: their identification is queued again).
 */
import { and, eq, inArray, max, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { ValidationError } from '../../errors.js';
import { rematchUnmatched } from '../imports/rematch.js';
import { heavyWork } from '../../lib/guard.js';
import { todayIso, parseUserDate } from '../../lib/dates.js';
import type { User } from '../auth/tokens.js';
import { referenceIndex } from '../reference-data/reference-data.js';
import { BULK_UPLOAD_COLUMNS, type BulkUploadColumn } from './columns.js';
import { readBulkCsv } from './read-csv.js';
import { importBulkContacts } from '../chasing/contacts.js';
import {
  saveBulkRows,
  type BulkRowValues,
  type BulkSaveInput,
  type BulkSaveOptions,
  type FailedFund,
  type PreparedBulkSave,
  type SavedFund,
} from './save-rows.js';
import { validateBulkRow, type BulkIssue, type BulkLookups, type ValidatedRow } from './validate-row.js';

export type { BulkRowValues, BulkSaveInput, BulkSaveOptions, FailedFund, PreparedBulkSave, SavedFund } from './save-rows.js';

const TEMPLATE_COLUMNS = new Set<string>(BULK_UPLOAD_COLUMNS);

/** Most rows saved by one delivery save (spec section 9). */
export const MAX_BULK_SAVE = 100;

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
export async function loadBulkLookups(ctx: AppContext, rows: BulkRowValues[]): Promise<BulkLookups> {
  const { db, tables: t } = storeOf(ctx);
  const admins = await db.select().from(t.administrators);
  const byCode = new Map(admins.map((a) => [a.code.toLowerCase(), { id: a.id, code: a.code, name: a.name }]));
  const ids = [...new Set(rows.map((r) => byCode.get((r.tpa ?? '').toLowerCase())?.id).filter((x): x is number => x !== undefined))];
  const mapIndex: BulkLookups['mappings'] = new Map();
  const existingKeys = new Map<string, number>();
  if (ids.length) {
    for (const m of await db
      .select()
      .from(t.mappings)
      .where(and(inArray(t.mappings.administratorId, ids), eq(t.mappings.active, true)))) {
      const byType = mapIndex.get(m.administratorId) ?? new Map();
      const names = byType.get(m.type) ?? new Map();
      names.set(m.description.toLowerCase(), m.id);
      byType.set(m.type, names);
      mapIndex.set(m.administratorId, byType);
    }
    const existing = await db
      .select({ id: t.fundRequests.id, administratorId: t.fundRequests.administratorId, periodEnd: t.fundRequests.periodEnd, code: t.fundCodes.code })
      .from(t.fundCodes)
      .innerJoin(t.fundRequests, eq(t.fundCodes.fundRequestId, t.fundRequests.id))
      .where(and(inArray(t.fundRequests.administratorId, ids), ne(t.fundRequests.status, 'Deleted')));
    for (const e of existing) existingKeys.set(`${e.administratorId}|${e.code.toLowerCase()}|${e.periodEnd}`, e.id);
  }
  return { ref: await referenceIndex(ctx), administrators: byCode, mappings: mapIndex, existingKeys };
}

/** Validates rows, adding a fault to later rows that repeat an earlier row's unique identifier. */
async function validateAll(
  ctx: AppContext,
  rows: Array<{ line: number; values: BulkRowValues }>,
): Promise<Array<ValidatedRow & { line: number; values: BulkRowValues }>> {
  const lookups = await loadBulkLookups(
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
export async function validateBulkUpload(ctx: AppContext, fileName: string, bytes: Uint8Array): Promise<BulkUploadResult> {
  const csv = readBulkCsv(fileName, bytes, ctx.config.maxUploadBytes, ctx.config.maxBulkUploadRows);
  const rows = (await validateAll(ctx, csv.rows)).map(resultRow);
  return {
    fileName,
    encoding: csv.encoding,
    totalRows: rows.length,
    accepted: rows.filter((r) => r.frBulkuploadStatus === 'accepted'),
    editable: rows.filter((r) => r.frBulkuploadStatus === 'editable'),
    declined: rows.filter((r) => r.frBulkuploadStatus === 'declined'),
  };
}

/**
 * Saves bulk rows in one transaction: rows with faults fail; a row repeating an existing request
 * overwrites it only when `isEditable` (accepted as editable) and the request is still editable.
 * @param opts.overwrite whether overwriting is possible at all (auditor uploads: no)
 * @param opts.maxRows most rows per call (delivery: 100)
 * @throws ValidationError for more rows than allowed or a bad request date
 */
export async function saveBulkFunds(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  opts: BulkSaveOptions = { overwrite: true, maxRows: MAX_BULK_SAVE },
): Promise<{ saved: SavedFund[]; failed: FailedFund[] }> {
  return commitBulkSave(ctx, user, input, await prepareBulkSave(ctx, input, opts), opts);
}

/**
 * The read-only half of `saveBulkFunds`: checks the row count and request date and validates every
 * row (heavy for a large file: it runs in the parse pool for requests).
 * @throws ValidationError for more rows than allowed or a bad request date
 */
export async function prepareBulkSave(ctx: AppContext, input: BulkSaveInput, opts: BulkSaveOptions): Promise<PreparedBulkSave> {
  heavyWork('bulk-upload validation');
  if (opts.maxRows && input.funds.length > opts.maxRows)
    throw new ValidationError(`At most ${opts.maxRows} funds can be saved at once (got ${input.funds.length})`);
  const requestDate = input.requestDate ? parseUserDate(input.requestDate) : todayIso();
  if (!requestDate) throw new ValidationError(`requestDate '${input.requestDate}' is not a date`);
  const { db, tables: t } = storeOf(ctx);
  const [last] = await db.select({ id: max(t.fundRequests.id) }).from(t.fundRequests);
  const lastFundId = last?.id ?? 0;
  const validated = await validateAll(
    ctx,
    input.funds.map((f, i) => ({ line: f.columnName ?? i + 1, values: pickValues(f) })),
  );
  return { requestDate, validated, lastFundId };
}

/**
 * The writing half of `saveBulkFunds`: saves prepared rows in one transaction (see there), then
 * tells watchers and re-matches files delivered before their fund requests existed.
 * @param input the funds as sent, in the order `prepareBulkSave` validated them
 */
export async function commitBulkSave(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  prepared: PreparedBulkSave,
  opts: BulkSaveOptions,
): Promise<{ saved: SavedFund[]; failed: FailedFund[] }> {
  const result = await saveBulkRows(ctx, user, input, prepared, opts);
  await afterBulkSave(ctx, user, prepared, result.saved);
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
    const part = await saveBulkRows(
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
  await afterBulkSave(ctx, user, prepared, saved);
  return { saved, failed };
}

async function afterBulkSave(ctx: AppContext, user: User, prepared: PreparedBulkSave, saved: SavedFund[]): Promise<void> {
  if (!saved.length) return;
  ctx.events.publish('fund-request', { ids: saved.map((s) => s.id), action: 'bulk-upload' });
  // the rows' TPA mailboxes become data contacts of their TPA (chasing)
  await importBulkContacts(ctx, user && { id: user.id, email: user.email }, saved);
  const admins = new Set(prepared.validated.map((v) => v.fund.administratorId).filter((x): x is number => x !== null));
  // files that matched no fund request may match one of these now
  for (const adminId of admins) await rematchUnmatched(ctx, adminId);
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
export async function prepareBulkUpload(
  ctx: AppContext,
  fileName: string,
  bytes: Uint8Array,
): Promise<{ input: BulkSaveInput; prepared: PreparedBulkSave; totalRows: number }> {
  const csv = readBulkCsv(fileName, bytes, ctx.config.maxUploadBytes, ctx.config.maxBulkUploadRows);
  const input: BulkSaveInput = { funds: csv.rows.map((r) => ({ ...r.values, columnName: r.line })) };
  return { input, prepared: await prepareBulkSave(ctx, input, AUDITOR_UPLOAD), totalRows: csv.rows.length };
}

/**
 * Auditor bulk upload (`POST /fund-request/bulk`): validates the CSV and saves every valid row at
 * once; existing requests are never overwritten.
 * @param opts how to save (the auditor upload's by default; the demo data names its own trail actions)
 */
export async function uploadAndSaveBulk(
  ctx: AppContext,
  user: User,
  fileName: string,
  bytes: Uint8Array,
  opts: BulkSaveOptions = AUDITOR_UPLOAD,
): Promise<{ saved: SavedFund[]; failed: FailedFund[]; totalRows: number }> {
  const { input, prepared, totalRows } = await prepareBulkUpload(ctx, fileName, bytes);
  return { ...(await commitBulkSave(ctx, user, input, prepared, opts)), totalRows };
}
