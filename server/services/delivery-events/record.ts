/**
 * Writing delivery events (`delivery_events`, docs/scorecards.md): the dated facts the scorecards
 * are computed from, appended by the stage where each fact happens and in its transaction, so an
 * event exists exactly when its fact was committed:
 * - `received`: identification attached an input file to a fund request (a new delivery of one
 *   SDM type; a fund reset identifying the same file again, or the same rows delivered again in
 *   another file, attaches nothing new and records nothing);
 * - `checked`: the calculations stage judged a fund's current inputs: which inputs it judged,
 *   which checks failed, whether those inputs covered every input type the fund requires (the
 *   listing's rule: `requiredInputTypes` of its job type, less the types whose newest file is
 *   marked not required) and whether each was the first file received of its type.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf, type DataStore } from '../../db/dialect.js';
import type { DeliveryEventSource, JudgedInput } from '../../db/schema/deliveries.js';
import { requiredInputTypes } from '../funds/derive.js';

/** One input file attached to a fund request. */
export interface ReceivedFile {
  fundRequestId: number;
  fundFileId: number;
  /** SDM type of the file */
  fileType: string;
  fileName: string;
  importFileId: number | null;
}

/**
 * Records input files received (call it in the transaction that attaches them).
 * @param at ISO timestamp of the arrival (default now)
 */
export async function recordFilesReceived(ctx: AppContext, files: ReceivedFile[], opts: { at?: string; source?: DeliveryEventSource } = {}): Promise<void> {
  if (!files.length) return;
  const { db, tables: t } = storeOf(ctx);
  const at = opts.at ?? new Date().toISOString();
  await db.insert(t.deliveryEvents).values(
    files.map((f) => ({
      fundRequestId: f.fundRequestId,
      kind: 'received' as const,
      at,
      fileType: f.fileType,
      fileName: f.fileName,
      fundFileId: f.fundFileId,
      importFileId: f.importFileId,
      source: opts.source ?? 'pipeline',
    })),
  );
}

/** A check item as the calculations stage stores it (QA_Rec): only its check id and status matter here. */
export interface CheckItemOutcome {
  check: string;
  status: string;
}

/** What a `checked` event holds, as `judgeChecks` works it out. */
export interface ChecksJudgement {
  outcome: 'passed' | 'failed';
  failedChecks: string[];
  inputs: JudgedInput[];
  complete: boolean;
  firstDelivery: boolean;
}

/** How many entries the `QA_Mapping` list of a standardization file's validation has (without reading the document into the application). */
function unmappedCount(store: DataStore, validation: unknown) {
  return store.dialect === 'postgres'
    ? sql<number>`coalesce(jsonb_array_length(${validation} -> 'QA_Mapping'), 0)`
    : sql<number>`coalesce(json_array_length(${validation}, '$.QA_Mapping'), 0)`;
}

/** `rowErrorsTotal` of a standardization file's validation, as a number. */
function rowErrorCount(store: DataStore, validation: unknown) {
  return store.dialect === 'postgres'
    ? sql<number>`coalesce((${validation} ->> 'rowErrorsTotal')::int, 0)`
    : sql<number>`coalesce(json_extract(${validation}, '$.rowErrorsTotal'), 0)`;
}

/**
 * Judges a run of a fund's checks from what is stored when it completes: the inputs it judged (the
 * current input of each type, the newest one unless marked not required, that has a
 * standardization file), the failed checks (items with status fail, by check id; an Invalid
 * standardization adds `unmapped_codes` and/or `row_errors`), whether the inputs covered every
 * required type, and whether each was the first file received of its type.
 * @param items the run's check items (QA_Rec)
 */
export async function judgeChecks(ctx: AppContext, fundRequestId: number, items: readonly CheckItemOutcome[]): Promise<ChecksJudgement> {
  const store = storeOf(ctx);
  const { db, tables: t } = store;
  const [fund] = await db.select({ jobType: t.fundRequests.jobType }).from(t.fundRequests).where(eq(t.fundRequests.id, fundRequestId));
  const inputs = await db
    .select({ id: t.fundFiles.id, fileType: t.fundFiles.fileType, disabled: t.fundFiles.disabled })
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'input')))
    .orderBy(desc(t.fundFiles.id));
  // the newest input of each type; a disabled newest one makes its type not required
  const newest = new Map<string, { id: number; disabled: boolean }>();
  for (const i of inputs) if (!newest.has(i.fileType)) newest.set(i.fileType, { id: i.id, disabled: !!i.disabled });
  const current = [...newest].filter(([, f]) => !f.disabled).map(([fileType, f]) => ({ fundFileId: f.id, fileType }));
  const standardized = current.length
    ? await db
        .select({
          sourceFileId: t.fundFiles.sourceFileId,
          validationStatus: t.fundFiles.validationStatus,
          unmapped: unmappedCount(store, t.fundFiles.validation),
          rowErrors: rowErrorCount(store, t.fundFiles.validation),
        })
        .from(t.fundFiles)
        .where(
          and(
            eq(t.fundFiles.kind, 'standardization'),
            inArray(
              t.fundFiles.sourceFileId,
              current.map((c) => c.fundFileId),
            ),
          ),
        )
    : [];
  const bySource = new Map(standardized.map((s) => [s.sourceFileId, s]));
  const judged = current.filter((c) => bySource.has(c.fundFileId)).sort((a, b) => a.fileType.localeCompare(b.fileType));
  const failed = new Set(items.filter((i) => i.status === 'fail').map((i) => i.check));
  for (const s of standardized) {
    if (s.validationStatus !== 'Invalid') continue;
    const unmapped = Number(s.unmapped) > 0;
    if (unmapped) failed.add('unmapped_codes');
    if (Number(s.rowErrors) > 0 || !unmapped) failed.add('row_errors');
  }
  const judgedTypes = new Set(judged.map((j) => j.fileType));
  const complete = requiredInputTypes(fund?.jobType).every((type) => newest.get(type)?.disabled || judgedTypes.has(type));
  // the first file received of each type: the oldest `received` event of the type
  const firsts = await db
    .select({ fileType: t.deliveryEvents.fileType, fundFileId: t.deliveryEvents.fundFileId })
    .from(t.deliveryEvents)
    .where(and(eq(t.deliveryEvents.fundRequestId, fundRequestId), eq(t.deliveryEvents.kind, 'received')))
    .orderBy(asc(t.deliveryEvents.at), asc(t.deliveryEvents.id));
  const firstOfType = new Map<string, number | null>();
  for (const f of firsts) if (f.fileType && !firstOfType.has(f.fileType)) firstOfType.set(f.fileType, f.fundFileId);
  return {
    outcome: failed.size ? 'failed' : 'passed',
    failedChecks: [...failed].sort(),
    inputs: judged,
    complete,
    firstDelivery: judged.length > 0 && judged.every((j) => firstOfType.get(j.fileType) === j.fundFileId),
  };
}

/**
 * Records a run of a fund's checks (call it in the transaction that stores its calculation file).
 * @param calculationFileId the calculation file the run wrote
 * @param items the run's check items (QA_Rec)
 * @returns what was recorded
 */
export async function recordChecksRun(
  ctx: AppContext,
  fundRequestId: number,
  calculationFileId: number | null,
  items: readonly CheckItemOutcome[],
  opts: { at?: string; source?: DeliveryEventSource } = {},
): Promise<ChecksJudgement> {
  const judgement = await judgeChecks(ctx, fundRequestId, items);
  const { db, tables: t } = storeOf(ctx);
  await db.insert(t.deliveryEvents).values({
    fundRequestId,
    kind: 'checked',
    at: opts.at ?? new Date().toISOString(),
    fundFileId: calculationFileId,
    ...judgement,
    source: opts.source ?? 'pipeline',
  });
  return judgement;
}
