/**
 * A fund's orchestration logs and error log (delivery spec 2 "Fund details": Logs tab
 * "orchestration logs" and the Errors tab; 3 "Log entry"; 7 `POST /logs/orchestration`; 9: logs
 * page size 200, newest first). Entries whose action is View are dropped (spec 3 "Trail log").
 * The Errors tab lists entries with status error, or success with warnings, with the message taken
 * from the payload and the raw payload.
 */
import { and, desc, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { fundRequests, orchestrationLogs } from '../../db/schema/index.js';
import { NotFoundError } from '../../errors.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type FieldRegistry } from '../funds/query-filters.js';
import { parseInput } from '../funds/validate.js';

/** Logs page size (spec section 9). */
export const LOGS_PAGE_SIZE = 200;

export const logsInputSchema = z.object({
  id: z.coerce.number().int().positive(),
  filters: z.unknown().optional(),
  sorting: z.unknown().optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
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

const L = orchestrationLogs;
const LOG_FIELDS: FieldRegistry = {
  id: { expr: L.id, types: ['number', 'enum'], enumValue: Number },
  created_at: { expr: L.createdAt, types: ['date'] },
  stage: { expr: L.stage, types: ['enum', 'text'] },
  status: { expr: L.status, types: ['enum', 'text'] },
  type: { expr: L.type, types: ['enum', 'text'] },
  sub_type: { expr: L.subType, types: ['enum', 'text'] },
};

/** Not a View entry (by type or payload action). */
const notView = sql`coalesce(${L.type}, '') <> 'View' and coalesce(json_extract(${L.payload}, '$.action'), '') <> 'View'`;
/** Status error, or success with a non-empty `warnings` list or a `warning` text in the payload. */
const isErrorEntry = or(
  eq(L.status, 'error'),
  and(
    eq(L.status, 'success'),
    sql`(json_type(${L.payload}, '$.warnings') = 'array' and json_array_length(${L.payload}, '$.warnings') > 0 or json_type(${L.payload}, '$.warning') = 'text')`,
  ),
);

const view = (r: typeof L.$inferSelect): LogRow => ({
  id: r.id,
  created_at: r.createdAt,
  stage: r.stage,
  status: r.status,
  type: r.type,
  sub_type: r.subType,
  payload: r.payload ?? {},
});

function requireFund(ctx: AppContext, id: number): void {
  if (!ctx.db.select({ id: fundRequests.id }).from(fundRequests).where(eq(fundRequests.id, id)).get())
    throw new NotFoundError(`No such fund request with id: ${id}`);
}

function page(ctx: AppContext, input: LogsInput, extra?: ReturnType<typeof or>): LogPage<LogRow> {
  const { id, offset = 0, limit = LOGS_PAGE_SIZE } = parseInput(logsInputSchema, input);
  requireFund(ctx, id);
  const filters = normalizeFilters(input.filters, LOG_FIELDS);
  const sorting = normalizeSorting(input.sorting, LOG_FIELDS, { timestamp: 'created_at', date: 'created_at', subType: 'sub_type' });
  const where = and(eq(L.fundRequestId, id), notView, extra, ...filters.map((f) => filterCondition(f, LOG_FIELDS)));
  const order = [...(sorting.length ? orderTerms(sorting, LOG_FIELDS) : [desc(L.createdAt)]), desc(L.id)];
  const rows = ctx.db
    .select()
    .from(L)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)
    .all();
  const count = ctx.db.select({ n: sql<number>`count(*)` }).from(L).where(where).get()!.n;
  return { rows: rows.map(view), pagination: { offset, limit, count } };
}

/**
 * A fund's orchestration log entries, newest first, 200 per page.
 * @returns `{rows: [{id, created_at, stage, status, type, sub_type, payload}], pagination}`
 * @throws NotFoundError 'No such fund request with id: {id}'; ValidationError for bad filters or sorting
 */
export function listOrchestrationLogs(ctx: AppContext, input: LogsInput): LogPage<LogRow> {
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
export function listErrorLog(ctx: AppContext, input: LogsInput): LogPage<ErrorLogRow> {
  const result = page(ctx, input, isErrorEntry);
  return { ...result, rows: result.rows.map((r) => ({ ...r, message: logMessage(r), warnings: warningsOf(r.payload) })) };
}
