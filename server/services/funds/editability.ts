/**
 * What may still change on a fund request (auditor spec 2.3, delivery "Fund details"): its rows are
 * editable only while it is Pending with no input file assigned; comments and recipients always.
 * The administrator is locked when parent or child funds exist or input files are attached.
 */
import { and, count, eq } from 'drizzle-orm';
import { fundFiles, fundRequests } from '../../db/schema/index.js';
import { normalizeStatus, STATUS_LABELS, type FundRow } from './fields.js';
import type { AppContext } from '../../context.js';
import { deriveFields, loadFundFacts } from './derive.js';

export interface Editability {
  rowsEditable: boolean;
  /** Why the rows are read-only, when they are. */
  reason: string | null;
  assignedCount: number;
  /** 'Parent Fund Exist' | 'Child Funds Exist' | 'input files already attached' | null */
  administratorLock: string | null;
}

/** Works out what may change on a fund request. */
export function editability(ctx: AppContext, fund: FundRow): Editability {
  const tx = ctx.db;
  // the same count the listing shows (required input types whose newest file is assigned)
  const assignedCount = deriveFields(fund, loadFundFacts(ctx, [fund.id]).get(fund.id)!).dataStatusCounts.assignedCount;
  const inputCount =
    tx
      .select({ n: count() })
      .from(fundFiles)
      .where(and(eq(fundFiles.fundRequestId, fund.id), eq(fundFiles.kind, 'input')))
      .get()?.n ?? 0;
  const children = tx.select({ n: count() }).from(fundRequests).where(eq(fundRequests.parentId, fund.id)).get()?.n ?? 0;
  const status = normalizeStatus(fund.status);
  let reason: string | null = null;
  if (status !== 'Pending') reason = `the fund request is ${STATUS_LABELS[status] ?? status}`;
  else if (assignedCount > 0) reason = `${assignedCount} input file(s) are already assigned`;
  const administratorLock = fund.parentId ? 'Parent Fund Exist' : children > 0 ? 'Child Funds Exist' : inputCount > 0 ? 'input files already attached' : null;
  return { rowsEditable: reason === null, reason, assignedCount, administratorLock };
}
