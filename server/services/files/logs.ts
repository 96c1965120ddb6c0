/**
 * A fund's orchestration logs and error log (delivery spec 2 "Fund details": Logs tab
 * "orchestration logs" and the Errors tab; 3 "Log entry"; 7 `POST /logs/orchestration`; 9: logs
 * page size 200, newest first). Entries whose action is View are dropped (spec 3 "Trail log").
 * The Errors tab lists entries with status error, or success with warnings, with the message taken
 * from the payload and the raw payload.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * payload's JSON is read with `json_extract`/`json_type` on SQLite and `->`/`jsonb_typeof` on
 * PostgreSQL (`payloadConditions`).
 */
import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf, type DataStore, type Dialect } from '../../db/dialect.js';
import { NotFoundError } from '../../errors.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type FieldRegistry } from '../query/query-filters.js';
import { parseInput } from '../query/validate.js';
import { gridPageFields } from '../query/grid-input.js';

/** Logs page size (spec section 9). */
export const LOGS_PAGE_SIZE = 200;

export const logsInputSchema = z.object({
  id: z.coerce.number().int().positive(),
  ...gridPageFields,
});
export type LogsInput = z.input<typeof logsInputSchema>;

/** One log entry on the wire (spec "Log entry"). */
export interface LogRow {
  id: number;
  /** ISO timestamp */
  created_at: string;
  stage: string;
  status: string;
  type: string | null;
  sub_type: string | null;
  payload: Record<string, unknown>;
}

/** An Errors tab entry: the log entry plus its message. */
export interface ErrorLogRow extends LogRow {
  message: string;
  warnings: string[];
}

export interface LogPage<R> {
  rows: R[];
  pagination: { offset: number; limit: number; count: number };
}

/** The columns of a log entry the grid filters and sorts on. */
function logFields(L: DataStore['tables']['orchestrationLogs']): FieldRegistry {
  return {
    id: { expr: L.id, types: ['number', 'enum'], enumValue: Number },
    created_at: { expr: L.createdAt, types: ['date'] },
    stage: { expr: L.stage, types: ['enum', 'text'] },
    status: { expr: L.status, types: ['enum', 'text'] },
    type: { expr: L.type, types: ['enum', 'text'] },
    sub_type: { expr: L.subType, types: ['enum', 'text'] },
  };
}

/**
 * Conditions on the payload's JSON, in each database's JSON functions: `notView`, not a View entry
 * (by type or payload action); `isErrorEntry`, status error, or success with a non-empty `warnings`
 * list or a `warning` text in the payload.
 */
function payloadConditions(dialect: Dialect, L: DataStore['tables']['orchestrationLogs']): { notView: SQL; isErrorEntry: SQL | undefined } {
  const p = L.payload;
  const [action, warningsList, warningText] =
    dialect === 'postgres'
      ? [
          sql`${p}->>'action'`,
          sql`(jsonb_typeof(${p}->'warnings') = 'array' and jsonb_array_length(${p}->'warnings') > 0)`,
          sql`jsonb_typeof(${p}->'warning') = 'string'`,
        ]
      : [
          sql`json_extract(${p}, '$.action')`,
          sql`(json_type(${p}, '$.warnings') = 'array' and json_array_length(${p}, '$.warnings') > 0)`,
          sql`json_type(${p}, '$.warning') = 'text'`,
        ];
  return {
    notView: sql`coalesce(${L.type}, '') <> 'View' and coalesce(${action}, '') <> 'View'`,
    isErrorEntry: or(eq(L.status, 'error'), and(eq(L.status, 'success'), sql`(${warningsList} or ${warningText})`)),
  };
}

const view = (r: DataStore['tables']['orchestrationLogs']['$inferSelect']): LogRow => ({
  id: r.id,
  created_at: r.createdAt,
  stage: r.stage,
  status: r.status,
  type: r.type,
  sub_type: r.subType,
  payload: r.payload ?? {},
});

async function requireFund(ctx: AppContext, id: number): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ id: t.fundRequests.id }).from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${id}`);
}

async function page(ctx: AppContext, input: LogsInput, errorsOnly = false): Promise<LogPage<LogRow>> {
  const { id, offset = 0, limit = LOGS_PAGE_SIZE } = parseInput(logsInputSchema, input);
  await requireFund(ctx, id);
  const { db, dialect, tables: t } = storeOf(ctx);
  const L = t.orchestrationLogs;
  const fields = logFields(L);
  const { notView, isErrorEntry } = payloadConditions(dialect, L);
  const filters = normalizeFilters(input.filters, fields);
  const sorting = normalizeSorting(input.sorting, fields, { timestamp: 'created_at', date: 'created_at', subType: 'sub_type' });
  const where = and(eq(L.fundRequestId, id), notView, errorsOnly ? isErrorEntry : undefined, ...filters.map((f) => filterCondition(f, fields, dialect)));
  const order = [...(sorting.length ? orderTerms(sorting, fields, dialect) : [desc(L.createdAt)]), desc(L.id)];
  const rows = await db
    .select()
    .from(L)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(L).where(where);
  return { rows: rows.map(view), pagination: { offset, limit, count: total?.n ?? 0 } };
}

/**
 * A fund's orchestration log entries, newest first, 200 per page.
 * @returns `{rows: [{id, created_at, stage, status, type, sub_type, payload}], pagination}`
 * @throws NotFoundError 'No such fund request with id: {id}'; ValidationError for bad filters or sorting
 */
export function listOrchestrationLogs(ctx: AppContext, input: LogsInput): Promise<LogPage<LogRow>> {
  return page(ctx, input);
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

function messageOf(v: unknown): string | null {
  if (typeof v === 'string') return text(v);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return text(o.error_message) ?? text(o.message) ?? text(o.error);
  }
  return null;
}

/** The messages of a payload's `warnings` list or `warning` text. */
export function warningsOf(payload: Record<string, unknown>): string[] {
  const list = Array.isArray(payload.warnings) ? payload.warnings.map(messageOf).filter((m): m is string => !!m) : [];
  const single = text(payload.warning);
  return single ? [...list, single] : list;
}

/**
 * The message of a log entry: the payload's `error`, `message`, first `errors` item, its warnings
 * joined by '; ', or '{stage} failed' / '{stage} finished with warnings'.
 */
export function logMessage(row: Pick<LogRow, 'stage' | 'status' | 'payload'>): string {
  const p = row.payload;
  const errors = Array.isArray(p.errors) ? p.errors.map(messageOf).filter((m): m is string => !!m) : [];
  const warnings = warningsOf(p);
  return (
    text(p.error) ??
    messageOf(p.error) ??
    text(p.message) ??
    errors[0] ??
    (warnings.length ? warnings.join('; ') : null) ??
    (row.status === 'error' ? `${row.stage} failed` : `${row.stage} finished with warnings`)
  );
}

/**
 * The Errors tab: a fund's log entries with status error, or success with warnings, newest first,
 * each with its message, warnings and raw payload.
 * @throws NotFoundError 'No such fund request with id: {id}'
 */
export async function listErrorLog(ctx: AppContext, input: LogsInput): Promise<LogPage<ErrorLogRow>> {
  const result = await page(ctx, input, true);
  return { ...result, rows: result.rows.map((r) => ({ ...r, message: logMessage(r), warnings: warningsOf(r.payload) })) };
}
