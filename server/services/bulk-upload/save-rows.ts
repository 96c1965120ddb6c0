/**
 * The writing half of a bulk save (delivery "Bulk upload", auditor "Bulk Upload tab"): in one
 * transaction, rows with faults fail; a row repeating an existing request overwrites it only when
 * accepted as editable and the request is still editable; the other rows become new fund requests.
 * New requests are written together after the loop, table by table (requests, codes, mapping
 * assignments, trail entries) in each database's fast form (`insertMany`): a file holds thousands.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, gt, inArray, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { insertMany } from '../../db/bulk-insert.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import type { User } from '../auth/tokens.js';
import { editability } from '../funds/editability.js';
import { fromFundFields, toFundFields, type FundInsert, type FundRow } from '../funds/fields.js';
import { changeFundRequest } from '../funds/fund-store.js';
import type { BulkUploadColumn } from './columns.js';
import { OVERWRITE_WARNING, type BulkIssue, type ValidatedRow } from './validate-row.js';

export type BulkRowValues = Partial<Record<BulkUploadColumn, string>>;

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

/** A save's rows validated against the data as read (`prepareBulkSave`), ready for `commitBulkSave`. */
export interface PreparedBulkSave {
  requestDate: string;
  validated: Array<ValidatedRow & { line: number; values: BulkRowValues }>;
  /** The highest fund request id when the rows were validated: requests saved since are checked again for duplicates. */
  lastFundId: number;
}

/** The funds of a save as sent: template values, with the file line and the overwrite choice of each. */
export type BulkSaveInput = { requestDate?: string; funds: Array<BulkRowValues & { columnName?: number; isEditable?: boolean }> };

/**
 * How a save treats existing requests and how many rows it takes; `action` is the trail action of
 * the requests it creates ('bulk-upload' by default), `actionByTpa` another one for the rows of
 * some TPAs (the demo data marks the demo TPA's request as the demo's: server/services/demo/cleanup.ts).
 */
export type BulkSaveOptions = { overwrite: boolean; maxRows?: number; action?: string; actionByTpa?: Record<string, string> };

const codesOf = (v: ValidatedRow) => [{ code: v.fund.fundCode, main: true }, ...v.fund.alternateCodes.map((code) => ({ code, main: false }))];

/**
 * Rows validated as new whose request was saved by someone else since (while the rows were being
 * validated in a pool thread) become duplicates of it, as validation would have found them.
 */
async function recheckDuplicates(ctx: AppContext, prepared: PreparedBulkSave, ownIds: ReadonlySet<number>): Promise<void> {
  const open = prepared.validated.filter((v) => v.uniqueKey && v.duplicateOfId === null);
  if (!open.length) return;
  const { db, tables: t } = storeOf(ctx);
  const since = await db
    .select({ id: t.fundRequests.id, administratorId: t.fundRequests.administratorId, periodEnd: t.fundRequests.periodEnd, code: t.fundCodes.code })
    .from(t.fundCodes)
    .innerJoin(t.fundRequests, eq(t.fundCodes.fundRequestId, t.fundRequests.id))
    .where(and(gt(t.fundRequests.id, prepared.lastFundId), ne(t.fundRequests.status, 'Deleted')));
  if (!since.length) return;
  const keys = new Map(since.filter((e) => !ownIds.has(e.id)).map((e) => [`${e.administratorId}|${e.code.toLowerCase()}|${e.periodEnd}`, e.id]));
  for (const v of open) {
    const id = keys.get(v.uniqueKey!);
    if (id === undefined) continue;
    v.duplicateOfId = id;
    v.warnings.push({ column: 'fundShortCode', message: OVERWRITE_WARNING });
  }
}

/** The existing requests the rows repeat, by id (one query per 500). */
async function existingRequests(ctx: AppContext, ids: number[]): Promise<Map<number, FundRow>> {
  const { db, tables: t } = storeOf(ctx);
  const out = new Map<number, FundRow>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500)
    for (const r of await db
      .select()
      .from(t.fundRequests)
      .where(inArray(t.fundRequests.id, unique.slice(i, i + 500))))
      out.set(r.id, r);
  return out;
}

/** A new request of the save: its row, codes and mapping assignments, and where its result goes. */
interface NewRequest {
  values: FundInsert;
  codes: Array<{ code: string; main: boolean }>;
  mappingIds: number[];
  trailAfter: Record<string, unknown>;
  /** the trail action of its creation */
  action: string;
  result: SavedFund;
}

/**
 * Inserts new requests in batches (`insertMany`: each database's fast form) with their codes,
 * mapping assignments and trail entries; sets the id of each result.
 */
async function insertRequests(ctx: AppContext, user: User, rows: NewRequest[]): Promise<void> {
  const store = storeOf(ctx);
  const t = store.tables;
  const ids = await insertMany(
    store,
    t.fundRequests,
    rows.map((r) => r.values),
  );
  if (ids.length !== rows.length) throw new Error(`${rows.length} fund requests were to be saved, ${ids.length} were`);
  rows.forEach((r, i) => {
    r.result.id = ids[i];
  });
  await insertMany(
    store,
    t.fundCodes,
    rows.flatMap((r) => r.codes.map((c) => ({ fundRequestId: r.result.id, code: c.code, main: c.main }))),
  );
  await insertMany(
    store,
    t.fundMappings,
    rows.flatMap((r) => r.mappingIds.map((mappingId) => ({ fundRequestId: r.result.id, mappingId }))),
  );
  await insertMany(
    store,
    t.trail,
    rows.map((r) => ({ fundRequestId: r.result.id, userId: user.id, action: r.action, before: null, after: r.trailAfter })),
  );
}

/**
 * Saves prepared rows in one transaction (see the module comment).
 * @param input the funds as sent, in the order `prepareBulkSave` validated them
 * @param ownIds requests this save made in its earlier transactions (not duplicates to check again)
 * @returns saved rows (in the order given) and failed rows with their faults
 */
export async function saveBulkRows(
  ctx: AppContext,
  user: User,
  input: BulkSaveInput,
  prepared: PreparedBulkSave,
  opts: BulkSaveOptions,
  ownIds: ReadonlySet<number> = new Set(),
): Promise<{ saved: SavedFund[]; failed: FailedFund[] }> {
  const { requestDate, validated } = prepared;
  return transaction(ctx, async () => {
    await recheckDuplicates(ctx, prepared, ownIds);
    const existing = await existingRequests(
      ctx,
      validated.flatMap((v) => (v.duplicateOfId !== null ? [v.duplicateOfId] : [])),
    );
    const saved: SavedFund[] = [];
    const failed: FailedFund[] = [];
    const created: NewRequest[] = [];
    for (const [i, v] of validated.entries()) {
      const faults = [...v.faults];
      const row = input.funds[i];
      const result = { ...v.values, columnName: v.line, fundName: row.fundName ?? '', fundShortCode: v.fund.fundCode, tpa: row.tpa ?? '' };
      const fields = { ...v.fund.fields, request_date: requestDate };
      if (v.duplicateOfId !== null) {
        const before = existing.get(v.duplicateOfId)!;
        if (!opts.overwrite || !row.isEditable)
          faults.push({
            column: 'fundShortCode',
            message: `fundShortCode: another request exists with same unique identifier (id ${before.id}) and it was not accepted for overwrite`,
            id: before.id,
            type: 'Duplicate Fund',
          });
        else {
          // an overwrite is one request at a time: its editability and its codes are its own
          const edit = await editability(ctx, before);
          if (!edit.rowsEditable)
            faults.push({ column: 'fundShortCode', message: `fundShortCode: the existing request (id ${before.id}) cannot be overwritten: ${edit.reason}` });
        }
        if (!faults.length) {
          await changeFundRequest(ctx, before.id, {
            fields,
            codes: codesOf(v),
            mappingIds: v.fund.mappingIds,
            userId: user.id,
            action: 'bulk-overwrite',
            before: toFundFields(before),
          });
          saved.push({ ...result, id: before.id, overwritten: true });
          continue;
        }
      }
      if (faults.length) {
        failed.push({ fund: { ...v.values, columnName: v.line }, errors: { faults, warnings: v.warnings } });
        continue;
      }
      const codes = codesOf(v);
      const next: NewRequest = {
        values: { ...fromFundFields(fields), administratorId: v.fund.administratorId, createdById: user.id } as FundInsert,
        codes,
        mappingIds: v.fund.mappingIds,
        trailAfter: { ...fields, fund_codes: codes },
        action: opts.actionByTpa?.[(row.tpa ?? '').toLowerCase()] ?? opts.action ?? 'bulk-upload',
        result: { ...result, id: 0, overwritten: false },
      };
      created.push(next);
      saved.push(next.result);
    }
    await insertRequests(ctx, user, created);
    return { saved, failed };
  });
}
