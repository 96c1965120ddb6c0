/**
 * The Input files screen's issue lists (delivery spec 2 "Input files (/file-list)", 3
 * "Unidentified file" and "Unmatched file", 7 `POST /files/not-identified/*` and
 * `/files/not-matched/*`; auditor spec 4 "Issue resolution states"): files whose type could not be
 * identified and identified files that match no fund request. Users assign them to a user, set an
 * action (resolution state) and remove them. Lists are newest first, 200 per page (section 9);
 * filters and sorting use the grid model of `query/query-filters.ts`.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { filterCondition, normalizeFilters, normalizeSorting, orderTerms, type FieldRegistry } from '../query/query-filters.js';
import { writeTrail } from '../trail/trail.js';
import { parseInput } from '../query/validate.js';
import { gridPageFields } from '../query/grid-input.js';

/** Input files page size (spec section 9). */
export const FILE_LIST_PAGE_SIZE = 200;

/** Issue resolution states (auditor spec section 4); a file nobody acted on is 'Unidentified'. */
export const ISSUE_ACTIONS = ['Unidentified', 'Re-requested', 'Ignored', 'Manually handled', 'Closed'] as const;
export type IssueAction = (typeof ISSUE_ACTIONS)[number];

/** The two issue lists. */
export type IssueKind = 'unidentified' | 'unmatched';

export const issueListSchema = z.object(gridPageFields);
export type IssueListInput = z.input<typeof issueListSchema>;

const ids = z.array(z.coerce.number().int().positive()).min(1, 'select at least one file').max(10_000);
export const assignInputSchema = z.object({ ids, userId: z.coerce.number().int().positive().nullable() });
export const actionInputSchema = z.object({ ids, action: z.enum(ISSUE_ACTIONS, { message: `must be one of ${ISSUE_ACTIONS.join(', ')}` }) });
export const removeIssueInputSchema = z.object({ ids });

/** One sheet's identification error (spec "Unidentified file" errors). */
export interface SheetError {
  sheet_name: string | null;
  error_code: string | null;
  error_message: string;
  columns_missing: string[];
  closest_match: string | null;
  column_match_percent: number | null;
}

type IssueTable = Tables['unidentifiedFiles'] | Tables['unmatchedFiles'];
type IssueRow = Tables['unidentifiedFiles']['$inferSelect'] | Tables['unmatchedFiles']['$inferSelect'];
const table = (t: Tables, kind: IssueKind) => (kind === 'unidentified' ? t.unidentifiedFiles : t.unmatchedFiles) as IssueTable;

/** The user a file is assigned to (the users table under another name). */
const assigneeOf = (t: Tables) => alias(t.users, 'assignee');
const nameOf = (u: ReturnType<typeof assigneeOf>) =>
  sql<string | null>`case when ${u.id} is null then null else trim(${u.firstName} || ' ' || ${u.lastName}) end`;

/** Filterable and sortable fields of a list (names as on the wire). */
function registry(t: Tables, kind: IssueKind, assignee: ReturnType<typeof assigneeOf>): FieldRegistry {
  const f = table(t, kind);
  const common: FieldRegistry = {
    id: { expr: f.id, types: ['number', 'enum'], enumValue: Number },
    file_name: { expr: f.fileName, types: ['text', 'enum'] },
    tpa_id: { expr: f.administratorId, types: ['number', 'enum'], enumValue: Number },
    tpa: { expr: t.administrators.name, types: ['text', 'enum'] },
    assignedToId: { expr: f.assignedToId, types: ['number', 'enum'], enumValue: Number },
    assignedTo: { expr: nameOf(assignee), types: ['text', 'enum'] },
    action: { expr: sql`coalesce(${f.action}, 'Unidentified')`, types: ['enum', 'text'] },
    user_auth_id: { expr: f.userId, types: ['number', 'enum'], enumValue: Number },
    timestamp: { expr: f.createdAt, types: ['date'] },
  };
  if (kind === 'unidentified') return common;
  return {
    ...common,
    file_type: { expr: t.unmatchedFiles.fileType, types: ['text', 'enum'] },
    fund_code: { expr: t.unmatchedFiles.fundCode, types: ['text', 'enum'] },
    fund_id: { expr: t.unmatchedFiles.fundId, types: ['number', 'enum'], enumValue: Number },
  };
}

function sheetError(raw: unknown): SheetError {
  const e = (raw && typeof raw === 'object' ? raw : { error_message: String(raw) }) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? null : String(v));
  return {
    sheet_name: text(e.sheet_name),
    error_code: text(e.error_code),
    error_message: text(e.error_message) ?? text(e.message) ?? 'The file could not be identified',
    columns_missing: Array.isArray(e.columns_missing) ? e.columns_missing.map(String) : [],
    closest_match: text(e.closest_match),
    column_match_percent: typeof e.column_match_percent === 'number' ? e.column_match_percent : null,
  };
}

/** Where each import file came from: the inbox path when swept, else the uploaded file name. */
async function sourcePaths(ctx: AppContext, importIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!importIds.length) return out;
  const { db, tables: t } = storeOf(ctx);
  const swept = await db
    .select({ id: t.sweptFiles.importFileId, path: t.sweptFiles.filePathOnMoveit })
    .from(t.sweptFiles)
    .where(inArray(t.sweptFiles.importFileId, importIds))
    .orderBy(t.sweptFiles.id);
  for (const s of swept) out.set(s.id!, [...(out.get(s.id!) ?? []), s.path]);
  for (const f of await db.select({ id: t.importFiles.id, name: t.importFiles.fileName }).from(t.importFiles).where(inArray(t.importFiles.id, importIds))) {
    if (!out.has(f.id)) out.set(f.id, [f.name]);
  }
  return out;
}

async function listIssues(ctx: AppContext, kind: IssueKind, input: IssueListInput) {
  const { offset = 0, limit = FILE_LIST_PAGE_SIZE } = parseInput(issueListSchema, input);
  const { db, dialect, tables } = storeOf(ctx);
  const t = table(tables, kind);
  const assignee = assigneeOf(tables);
  const fields = registry(tables, kind, assignee);
  const filters = normalizeFilters(input.filters, fields);
  const sorting = normalizeSorting(input.sorting, fields, { created_at: 'timestamp', fileName: 'file_name', tpaName: 'tpa' });
  const where = and(...filters.map((f) => filterCondition(f, fields, dialect)));
  const order = [...(sorting.length ? orderTerms(sorting, fields, dialect) : [desc(t.createdAt)]), desc(t.id)];
  const page = await db
    .select({ id: t.id, tpa: tables.administrators.name, assignedTo: nameOf(assignee) })
    .from(t)
    .leftJoin(tables.administrators, eq(tables.administrators.id, t.administratorId))
    .leftJoin(assignee, eq(assignee.id, t.assignedToId))
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [total] = await db
    .select({ n: count() })
    .from(t)
    .leftJoin(tables.administrators, eq(tables.administrators.id, t.administratorId))
    .leftJoin(assignee, eq(assignee.id, t.assignedToId))
    .where(where);
  const rows: IssueRow[] = page.length
    ? await db
        .select()
        .from(t)
        .where(
          inArray(
            t.id,
            page.map((p) => p.id),
          ),
        )
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const sources = await sourcePaths(ctx, [...new Set(rows.map((r) => r.importFileId).filter((x): x is number => x !== null))]);
  return {
    rows: page.map((p) => {
      const r = byId.get(p.id)!;
      const common = {
        id: r.id,
        file_name: r.fileName,
        tpa_id: r.administratorId,
        tpa: p.tpa,
        assignedToId: r.assignedToId,
        assignedTo: p.assignedTo,
        action: (r.action ?? 'Unidentified') as string,
        import_file_id: r.importFileId,
        source_file_paths: r.importFileId !== null ? (sources.get(r.importFileId) ?? []) : [],
        user_auth_id: r.userId,
        timestamp: r.createdAt,
      };
      if ('errors' in r) return { ...common, errors: (Array.isArray(r.errors) ? r.errors : []).map(sheetError) };
      return { ...common, file_type: r.fileType, fund_code: r.fundCode, fund_id: r.fundId, payload: r.payload ?? {} };
    }),
    pagination: { offset, limit, count: total?.n ?? 0 },
  };
}

export type UnidentifiedRow = {
  id: number;
  file_name: string;
  tpa_id: number | null;
  tpa: string | null;
  assignedToId: number | null;
  assignedTo: string | null;
  action: string;
  import_file_id: number | null;
  source_file_paths: string[];
  user_auth_id: number | null;
  timestamp: string;
  errors: SheetError[];
};
export type UnmatchedRow = Omit<UnidentifiedRow, 'errors'> & {
  file_type: string;
  fund_code: string | null;
  fund_id: number | null;
  payload: Record<string, unknown>;
};
export interface IssuePage<R> {
  rows: R[];
  pagination: { offset: number; limit: number; count: number };
}

/**
 * Unidentified files, newest first (Input files, Unidentified tab).
 * @throws ValidationError for bad filters, sorting or paging
 */
export async function listUnidentified(ctx: AppContext, input: IssueListInput = {}): Promise<IssuePage<UnidentifiedRow>> {
  return (await listIssues(ctx, 'unidentified', input)) as IssuePage<UnidentifiedRow>;
}

/**
 * Identified files without a matching fund request, newest first (Identified without match tab);
 * `payload` has the reason, the as-of date and the row count.
 */
export async function listUnmatched(ctx: AppContext, input: IssueListInput = {}): Promise<IssuePage<UnmatchedRow>> {
  return (await listIssues(ctx, 'unmatched', input)) as IssuePage<UnmatchedRow>;
}

/**
 * Loads issue rows, changes them in one transaction (one statement for all of them) with a trail
 * entry each, then publishes.
 */
async function changeIssues(
  ctx: AppContext,
  user: User,
  kind: IssueKind,
  idList: number[],
  action: string,
  set: { assignedToId?: number | null; action?: string } | null,
) {
  const t = table(storeOf(ctx).tables, kind);
  const unique = [...new Set(idList)];
  const rows = await transaction(ctx, async (tx) => {
    const found: IssueRow[] = await tx.select().from(t).where(inArray(t.id, unique)).orderBy(t.id);
    const missing = unique.find((id) => !found.some((r) => r.id === id));
    if (missing !== undefined) throw new NotFoundError(`No such file with id: ${missing}`);
    if (set) await tx.update(t).set(set).where(inArray(t.id, unique));
    else await tx.delete(t).where(inArray(t.id, unique));
    await writeTrail(
      ctx,
      found.map((r) => {
        const identity = { kind, id: r.id, file_name: r.fileName };
        return {
          fundRequestId: 'fundId' in r ? r.fundId : null,
          userId: user.id,
          action,
          before: set
            ? { ...identity, ...Object.fromEntries(Object.keys(set).map((k) => [k, r[k as keyof typeof set] ?? null])) }
            : { ...identity, assignedToId: r.assignedToId, action: r.action },
          after: set ? { ...identity, ...set } : null,
        };
      }),
    );
    return found;
  });
  for (const r of rows) {
    const status = set ? (set.action ?? r.action ?? 'Unidentified') : 'removed';
    ctx.events.publish('file', { id: r.id, fundRequestId: 'fundId' in r ? r.fundId : null, kind, status, fileName: r.fileName });
  }
  return rows.map((r) => r.id);
}

/**
 * Assigns files to a user (`userId: null` clears the assignment).
 * @returns `{ids, userId}`
 * @throws NotFoundError 'No such user with id: {id}' or 'No such file with id: {id}'; ValidationError for a disabled user
 */
export async function assignFiles(ctx: AppContext, user: User, kind: IssueKind, input: z.input<typeof assignInputSchema>) {
  const { ids: list, userId } = parseInput(assignInputSchema, input);
  if (userId !== null) {
    const { db, tables: t } = storeOf(ctx);
    const [target] = await db.select().from(t.users).where(eq(t.users.id, userId));
    if (!target) throw new NotFoundError(`No such user with id: ${userId}`);
    if (target.disabled) throw new ValidationError(`User ${target.email} is disabled and cannot be assigned files`);
  }
  return { ids: await changeIssues(ctx, user, kind, list, `${kind}-file-assign`, { assignedToId: userId }), userId };
}

/**
 * Sets the resolution state of files: Unidentified, Re-requested, Ignored, Manually handled, Closed.
 * @throws ValidationError for another action; NotFoundError 'No such file with id: {id}'
 */
export async function setFileAction(ctx: AppContext, user: User, kind: IssueKind, input: z.input<typeof actionInputSchema>) {
  const { ids: list, action } = parseInput(actionInputSchema, input);
  return { ids: await changeIssues(ctx, user, kind, list, `${kind}-file-action`, { action }), action };
}

/**
 * Removes files from an issue list (the imported file itself is kept).
 * @throws NotFoundError 'No such file with id: {id}'
 */
export async function removeIssueFiles(ctx: AppContext, user: User, kind: IssueKind, input: z.input<typeof removeIssueInputSchema>) {
  const { ids: list } = parseInput(removeIssueInputSchema, input);
  return { removed: await changeIssues(ctx, user, kind, list, `${kind}-file-remove`, null) };
}
