/**
 * What an export zip holds for one fund (DOMAIN.md 2.6; spec section 9: file names
 * `fund_{code}_dd_{due date}_{kind}.{csv|xlsx}`), stage by stage:
 * - visualization: the work paper workbook -> `{prefix}_work_papers.xlsx`
 * - calculations: one row per QA_Rec item -> `{prefix}_calculations.csv`
 * - standardization: SDM rows per SDM type, streamed from `sdm_chunks` -> `{prefix}_standardization_{type}.csv`
 * - identification: the fund's identified rows per input file -> `{prefix}_identification_{type}.csv`
 * - import: the raw files, original bytes and names -> `{prefix}_input_files/{name}`
 * and always, when the fund has any: `{prefix}_logs.csv` (orchestration logs, processes, user
 * trail; newest first) and `{prefix}_errors.csv` (row errors, QA_Mapping, failed and warning QA_Rec).
 * Entries are opened one at a time, when their turn in the zip comes.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { asc, eq, inArray } from 'drizzle-orm';
import { readIdentifiedFile } from '../../../pipeline/readers/identified-file.js';
import { SDM_COLUMNS, SDM_TYPES } from '../../../pipeline/sdm/model.js';
import type { QaMapping, RowError } from '../../../pipeline/sdm/rows.js';
import type { CalculationValidation } from '../../../pipeline/checks/index.js';
import { itemSourceText, type SourceFiles } from '../../../pipeline/work-papers/lineage.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { readSdmChunks } from '../../db/sdm-store.js';
import { FUND_FIELD_COLUMNS, normalizeStatus, toFundFields } from '../funds/fields.js';
import { csvStream, csvText } from './csv.js';
import type { ExportInputs } from './store.js';

/** One file of the zip: its path inside the zip and how to read it. */
export interface ZipEntry {
  name: string;
  open: () => Readable | Buffer | string | Promise<Readable | Buffer | string>;
}

type FileRow = Tables['fundFiles']['$inferSelect'];

/** `fund_{code}_dd_{due date}`: code made safe for file names, due date ISO or 'none'. */
export function fundPrefix(code: string, dueDate: string | null): string {
  const safeCode = code.replace(/[^A-Za-z0-9._-]+/g, '_') || 'unknown';
  const due = dueDate && /^\d{4}-\d{2}-\d{2}/.test(dueDate) ? dueDate.slice(0, 10) : 'none';
  return `fund_${safeCode}_dd_${due}`;
}

/** A file name safe inside a zip folder (no folders, no control characters). */
const safeFileName = (name: string) => (name.split(/[\\/]/).pop() ?? '').replace(/[\x00-\x1f]/g, '_').trim() || 'file';

/** Extra column of the mapped standard code per SDM type. */
const STANDARD_COLUMN: Record<string, string> = {
  trial_balance: 'standard_account',
  holdings: 'standard_instrument',
  transactions: 'standard_transaction',
  share_capital: 'standard_activity',
};

const byTypeOrder = (a: string, b: string) => {
  const ia = SDM_TYPES.indexOf(a as never);
  const ib = SDM_TYPES.indexOf(b as never);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
};

function groupByType(files: FileRow[]): Array<[string, FileRow[]]> {
  const groups = new Map<string, FileRow[]>();
  for (const f of files) groups.set(f.fileType, [...(groups.get(f.fileType) ?? []), f]);
  return [...groups.entries()].sort(([a], [b]) => byTypeOrder(a, b));
}

/** The identified rows stored for an input file (read as they are written out): a blob key, or the table's JSON itself. */
function identifiedTable(ctx: AppContext, blobKey: string): { header: string[]; rows: Iterable<{ line: number; cells: unknown[] }> } | null {
  if (/^[a-f0-9]{64}$/.test(blobKey)) {
    if (!ctx.blobs.has(blobKey)) return null;
    const { meta, rows } = readIdentifiedFile(ctx.blobs, blobKey);
    return { header: meta.header, rows };
  }
  if (!blobKey.trim().startsWith('{')) return null;
  const table = JSON.parse(blobKey) as { header?: string[]; rows?: Array<{ line: number; cells: unknown[] }> };
  return { header: table.header ?? [], rows: table.rows ?? [] };
}

/** `[line, ...cells]` of each row. */
function* lineAndCells(rows: Iterable<{ line: number; cells: unknown[] }>): Generator<unknown[]> {
  for (const r of rows) yield [r.line, ...r.cells];
}

/** Work papers (visualization), filtered by the export's options. */
function workPaperEntries(ctx: AppContext, files: FileRow[], prefix: string, inputs: ExportInputs, warn: (m: string) => void): ZipEntry[] {
  return files
    .filter((f) => f.kind === 'work_paper')
    .filter((f) => !(inputs.excludeDisabledVisualizations && f.disabled) && !(inputs.reviewedVisualizationsOnly && !f.reviewed))
    .flatMap((f) => {
      if (!f.blobKey || !ctx.blobs.has(f.blobKey)) {
        warn(`${prefix}: work paper ${f.fileName} has no stored workbook`);
        return [];
      }
      const key = f.blobKey;
      return [{ name: `${prefix}_work_papers.xlsx`, open: () => createReadStream(ctx.blobs.path(key)) }];
    });
}

const CALC_HEADER = ['check', 'name', 'status', 'diff', 'threshold', 'message', 'file', 'line', 'details'];

function calculationEntries(files: FileRow[], prefix: string): ZipEntry[] {
  return files
    .filter((f) => f.kind === 'calculation')
    .map((f) => ({
      name: `${prefix}_calculations.csv`,
      open: () => {
        const v = (f.validation ?? {}) as Partial<CalculationValidation>;
        // an item computed over many rows names the delivered files and line ranges its check read
        return csvText(
          CALC_HEADER,
          (v.QA_Rec ?? []).map((i) => [
            i.check,
            i.name,
            i.status,
            i.diff,
            i.threshold,
            i.message,
            ...itemSourceText(i, v.sources as SourceFiles | undefined),
            i.details ?? null,
          ]),
        );
      },
    }));
}

/** Streams one SDM type's rows of several standardization files (file by file, in line order), a chunk at a time. */
async function* sdmRowsOf(ctx: AppContext, files: FileRow[], columns: string[]): AsyncGenerator<unknown[][]> {
  for (const f of files) {
    for await (const chunk of readSdmChunks(ctx, [f.id])) yield chunk.map((d) => columns.map((c) => (c === 'file' ? (d.file ?? f.fileName) : d[c])));
  }
}

function standardizationEntries(ctx: AppContext, files: FileRow[], prefix: string): ZipEntry[] {
  return groupByType(files.filter((f) => f.kind === 'standardization')).map(([type, group]) => ({
    name: `${prefix}_standardization_${type.replace(/[^A-Za-z0-9_-]+/g, '_')}.csv`,
    open: async () => {
      const known = SDM_COLUMNS[type as keyof typeof SDM_COLUMNS]?.map((c) => c.name) ?? [];
      const columns = ['file', 'line', ...known, ...(STANDARD_COLUMN[type] ? [STANDARD_COLUMN[type]] : [])];
      // columns the standard model does not list (other types, extra fields) come from the first row
      const rows = readSdmChunks(
        ctx,
        group.map((g) => g.id),
      );
      const first = await rows.next();
      await rows.return(undefined);
      const [row] = first.done ? [] : first.value;
      if (row) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
      return csvStream(columns, sdmRowsOf(ctx, group, columns));
    },
  }));
}

function identificationEntries(ctx: AppContext, files: FileRow[], prefix: string, warn: (m: string) => void): ZipEntry[] {
  return files
    .filter((f) => f.kind === 'input' && f.blobKey)
    .sort((a, b) => byTypeOrder(a.fileType, b.fileType) || a.id - b.id)
    .map((f) => ({
      name: `${prefix}_identification_${f.fileType.replace(/[^A-Za-z0-9_-]+/g, '_')}.csv`,
      open: () => {
        const table = identifiedTable(ctx, f.blobKey!);
        if (!table) warn(`${prefix}: the identified rows of ${f.fileName} are missing`);
        // `line`: the row's line in the delivered file, as error messages cite it
        return csvStream(['line', ...(table?.header ?? [])], lineAndCells(table?.rows ?? []));
      },
    }));
}

async function importEntries(ctx: AppContext, files: FileRow[], prefix: string, warn: (m: string) => void): Promise<ZipEntry[]> {
  const ids = [...new Set(files.filter((f) => f.kind === 'input' && f.importFileId !== null).map((f) => f.importFileId!))];
  if (!ids.length) return [];
  const { db, tables: t } = storeOf(ctx);
  const raws = await db.select().from(t.importFiles).where(inArray(t.importFiles.id, ids)).orderBy(asc(t.importFiles.id));
  return raws.flatMap((r) => {
    if (!ctx.blobs.has(r.sha256)) {
      warn(`${prefix}: raw file ${r.fileName} is missing from the blob store`);
      return [];
    }
    return [{ name: `${prefix}_input_files/${safeFileName(r.fileName)}`, open: () => createReadStream(ctx.blobs.path(r.sha256)) }];
  });
}

const LOG_HEADER = ['source', 'id', 'date', 'stage', 'status', 'type', 'sub_type', 'user', 'message', 'payload'];

/** The fund's log lines: orchestration logs, processes and the user trail, newest first. */
async function logRows(ctx: AppContext, fundId: number): Promise<unknown[][]> {
  const message = (p: Record<string, unknown> | null) => (p ? (p.message ?? p.error ?? null) : null);
  const { db, tables: t } = storeOf(ctx);
  const { orchestrationLogs, processes, trail, users } = t;
  const logs = (await db.select().from(orchestrationLogs).where(eq(orchestrationLogs.fundRequestId, fundId)).orderBy(asc(orchestrationLogs.id))).map((l) => [
    'orchestration_log',
    l.id,
    l.createdAt,
    l.stage,
    l.status,
    l.type,
    l.subType,
    null,
    message(l.payload),
    l.payload,
  ]);
  const procs = (await db.select().from(processes).where(eq(processes.fundRequestId, fundId)).orderBy(asc(processes.id))).map((p) => [
    'process',
    p.id,
    p.processAt,
    p.stage,
    p.status,
    null,
    null,
    null,
    message(p.payload),
    p.payload,
  ]);
  const trails = (
    await db
      .select({ t: trail, first: users.firstName, last: users.lastName })
      .from(trail)
      .leftJoin(users, eq(users.id, trail.userId))
      .where(eq(trail.fundRequestId, fundId))
      .orderBy(asc(trail.id))
  ).map(({ t, first, last }) => [
    'user_trail',
    t.id,
    t.createdAt,
    null,
    null,
    t.action,
    null,
    `${first ?? ''} ${last ?? ''}`.trim() || null,
    null,
    { before: t.before, after: t.after },
  ]);
  return [...logs, ...procs, ...trails].sort((a, b) => String(b[2]).localeCompare(String(a[2])));
}

const ERROR_HEADER = ['source', 'file_type', 'file', 'line', 'column', 'name', 'status', 'diff', 'threshold', 'error'];

/** Row errors and QA_Mapping entries of standardization files, failed and warning QA_Rec items. */
function errorRows(files: FileRow[]): unknown[][] {
  const out: unknown[][] = [];
  for (const f of files.filter((x) => x.kind === 'standardization')) {
    const v = (f.validation ?? {}) as { rowErrors?: RowError[]; QA_Mapping?: QaMapping[] };
    for (const e of v.rowErrors ?? []) out.push(['row_error', f.fileType, e.file, e.line, e.column, null, 'error', null, null, e.error]);
    for (const m of v.QA_Mapping ?? []) {
      const lines = m.lines ?? [];
      out.push(['QA_Mapping', f.fileType, m.file, lines.length === 1 ? lines[0] : lines.join(' ') || null, m.column, m.name, 'error', null, null, m.error]);
    }
  }
  for (const f of files.filter((x) => x.kind === 'calculation')) {
    const v = (f.validation ?? {}) as Partial<CalculationValidation>;
    for (const i of (v.QA_Rec ?? []).filter((x) => x.status !== 'pass')) {
      out.push(['QA_Rec', i.check, ...itemSourceText(i, v.sources as SourceFiles | undefined), null, i.name, i.status, i.diff, i.threshold, i.message]);
    }
  }
  return out;
}

/**
 * The zip entries of one fund for the asked stages (fund_list.csv is added once, by the caller).
 * Standardized rows are read a chunk at a time, no statement left open between chunks.
 * @param warn records files that cannot be added (kept in the export's payload.warnings)
 */
export async function fundEntries(ctx: AppContext, fund: { id: number; prefix: string }, inputs: ExportInputs, warn: (m: string) => void): Promise<ZipEntry[]> {
  const { db, tables: t } = storeOf(ctx);
  const files = await db.select().from(t.fundFiles).where(eq(t.fundFiles.fundRequestId, fund.id)).orderBy(asc(t.fundFiles.id));
  const { prefix } = fund;
  const stages = new Set(inputs.fundRequestStages);
  const entries: ZipEntry[] = [
    ...(stages.has('visualization') ? workPaperEntries(ctx, files, prefix, inputs, warn) : []),
    ...(stages.has('calculations') ? calculationEntries(files, prefix) : []),
    ...(stages.has('standardization') ? standardizationEntries(ctx, files, prefix) : []),
    ...(stages.has('identification') ? identificationEntries(ctx, files, prefix, warn) : []),
    ...(stages.has('import') ? await importEntries(ctx, files, prefix, warn) : []),
  ];
  const logs = await logRows(ctx, fund.id);
  if (logs.length) entries.push({ name: `${prefix}_logs.csv`, open: () => csvText(LOG_HEADER, logs) });
  const errors = errorRows(files);
  if (errors.length) entries.push({ name: `${prefix}_errors.csv`, open: () => csvText(ERROR_HEADER, errors) });
  return entries;
}

const FUND_FIELDS = Object.keys(FUND_FIELD_COLUMNS) as Array<keyof typeof FUND_FIELD_COLUMNS>;
const FUND_LIST_HEADER = ['id', 'fund_code', 'alternate_codes', 'administrator', 'administrator_name', 'status', ...FUND_FIELDS, 'created_at', 'updated_at'];

/** `fund_list.csv` (spec section 9 "other names"): the fund request details, one row per fund. */
export function fundListEntry(ctx: AppContext, fundIds: number[]): ZipEntry {
  return {
    name: 'fund_list.csv',
    open: async () => {
      const rows: unknown[][] = [];
      const { db, tables: t } = storeOf(ctx);
      const { administrators, fundCodes, fundRequests } = t;
      for (let i = 0; i < fundIds.length; i += 500) {
        const ids = fundIds.slice(i, i + 500);
        const funds = await db
          .select({ f: fundRequests, code: administrators.code, adminName: administrators.name })
          .from(fundRequests)
          .leftJoin(administrators, eq(administrators.id, fundRequests.administratorId))
          .where(inArray(fundRequests.id, ids));
        const codes = await db.select().from(fundCodes).where(inArray(fundCodes.fundRequestId, ids)).orderBy(asc(fundCodes.id));
        for (const id of ids) {
          const row = funds.find((x) => x.f.id === id);
          if (!row) continue;
          const own = codes.filter((c) => c.fundRequestId === id);
          const fields = toFundFields(row.f) as Record<string, unknown>;
          rows.push([
            id,
            own.find((c) => c.main)?.code ?? own[0]?.code ?? null,
            own
              .filter((c) => !c.main)
              .map((c) => c.code)
              .join(';') || null,
            row.code,
            row.adminName,
            normalizeStatus(row.f.status),
            ...FUND_FIELDS.map((k) => fields[k]),
            row.f.createdAt,
            row.f.updatedAt,
          ]);
        }
      }
      return csvText(FUND_LIST_HEADER, rows);
    },
  };
}
