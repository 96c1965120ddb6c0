/**
 * What may still change on a fund request (auditor spec 2.3, delivery "Fund details"): its rows are
 * editable only while it is Pending with no input file assigned; comments and recipients always.
 * The administrator is locked when parent or child funds exist or input files are attached.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, count, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { deriveFields, loadFundFacts, requiredInputTypes } from './derive.js';
import { normalizeStatus, STATUS_LABELS, type FundRow } from './fields.js';

export interface Editability {
  rowsEditable: boolean;
  /** Why the rows are read-only, when they are. */
  reason: string | null;
  assignedCount: number;
  /** The file names of the assigned input files `assignedCount` counts (the newest of each required type), oldest first. */
  assignedFiles: string[];
  /** 'Parent Fund Exist' | 'Child Funds Exist' | 'input files already attached' | null */
  administratorLock: string | null;
}

/** Works out what may change on a fund request (its row as read). */
export async function editability(ctx: AppContext, fund: FundRow): Promise<Editability> {
  const { db, tables: t } = storeOf(ctx);
  // the same count the listing shows (required input types whose newest file is assigned)
  const assignedCount = deriveFields(fund, (await loadFundFacts(ctx, [fund.id])).get(fund.id)!).dataStatusCounts.assignedCount;
  const inputs = await db
    .select({ id: t.fundFiles.id, fileType: t.fundFiles.fileType, fileName: t.fundFiles.fileName, status: t.fundFiles.status, disabled: t.fundFiles.disabled })
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fund.id), eq(t.fundFiles.kind, 'input')))
    .orderBy(t.fundFiles.id);
  const assignedFiles = assignedInputNames(requiredInputTypes(fund.jobType), inputs);
  const [children] = await db.select({ n: count() }).from(t.fundRequests).where(eq(t.fundRequests.parentId, fund.id));
  const status = normalizeStatus(fund.status);
  let reason: string | null = null;
  if (status !== 'Pending') reason = `the fund request is ${STATUS_LABELS[status] ?? status}`;
  // the message counts the files it names (the same newest-of-each-required-type rule as assignedCount)
  else if (assignedFiles.length > 0)
    reason = `${assignedFiles.length === 1 ? '1 input file is' : `${assignedFiles.length} input files are`} already assigned: ${assignedFiles.join(', ')}`;
  else if (assignedCount > 0) reason = `${assignedCount} input files are already assigned`;
  const administratorLock = fund.parentId
    ? 'Parent Fund Exist'
    : (children?.n ?? 0) > 0
      ? 'Child Funds Exist'
      : inputs.length > 0
        ? 'input files already attached'
        : null;
  return { rowsEditable: reason === null, reason, assignedCount, assignedFiles, administratorLock };
}

/**
 * The names of the assigned input files among `inputs` (in id order): for each required type, its
 * newest file when that is assigned and not disabled, as `computeDataStatusCounts` counts them.
 */
export function assignedInputNames(
  required: readonly string[],
  inputs: ReadonlyArray<{ id: number; fileType: string; fileName: string; status: string; disabled: boolean }>,
): string[] {
  const newest = new Map<string, (typeof inputs)[number]>();
  for (const f of inputs) if ((newest.get(f.fileType)?.id ?? -1) < f.id) newest.set(f.fileType, f);
  return Array.from(newest, ([, f]) => f)
    .filter((f) => required.includes(f.fileType) && f.status === 'assigned' && !f.disabled)
    .sort((a, b) => a.id - b.id)
    .map((f) => f.fileName);
}
