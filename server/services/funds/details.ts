/**
 * Fund details (`GET /fund/{id}`; spec section 3 "Fund details", both documents): every field,
 * the administrator, fund codes main first, recipients, children, the file groups (input,
 * standardization, calculation files and work papers), derived counts and what may be edited.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { NotFoundError } from '../../errors.js';
import { fileView, workPaperOutcome } from '../files/display.js';
import { deriveFields, loadFundFacts } from './derive.js';
import { editability } from './editability.js';
import { normalizeStatus, STATUS_LABELS, toFundFields } from './fields.js';

type FileRow = Tables['fundFiles']['$inferSelect'];

/**
 * Loads one fund request with everything the details screen shows.
 * @throws NotFoundError 'No such fund request with id: {id}'
 */
export async function getFundDetails(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const { administrators, fundCodes, fundFiles, fundMappings, fundRequests, recipients, users } = t;
  // an id outside the integer column's range is no fund (PostgreSQL would refuse to compare it)
  const [row] = Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? await db.select().from(fundRequests).where(eq(fundRequests.id, id)) : [];
  if (!row) throw new NotFoundError(`No such fund request with id: ${id}`);
  const [admin] = row.administratorId ? await db.select().from(administrators).where(eq(administrators.id, row.administratorId)) : [];
  // main code first: `main` descending (true before false on both databases)
  const codes = await db.select().from(fundCodes).where(eq(fundCodes.fundRequestId, id)).orderBy(desc(fundCodes.main), asc(fundCodes.id));
  const recips = await db.select().from(recipients).where(eq(recipients.fundRequestId, id)).orderBy(asc(recipients.id));
  const children = await db.select().from(fundRequests).where(eq(fundRequests.parentId, id)).orderBy(asc(fundRequests.id));
  const childCodes = children.length
    ? await db
        .select()
        .from(fundCodes)
        .where(
          inArray(
            fundCodes.fundRequestId,
            children.map((c) => c.id),
          ),
        )
        .orderBy(asc(fundCodes.id))
    : [];
  const files = await db.select().from(fundFiles).where(eq(fundFiles.fundRequestId, id)).orderBy(desc(fundFiles.createdAt), desc(fundFiles.id));
  const mappingIds = (
    await db.select({ id: fundMappings.mappingId }).from(fundMappings).where(eq(fundMappings.fundRequestId, id)).orderBy(asc(fundMappings.mappingId))
  ).map((m) => m.id);
  const [rerunBy] = row.rerunById ? await db.select().from(users).where(eq(users.id, row.rerunById)) : [];
  const edit = await editability(ctx, row);
  const derived = deriveFields(row, (await loadFundFacts(ctx, [id])).get(id)!);
  const status = normalizeStatus(row.status);
  const byKind = (kind: FileRow['kind']) => files.filter((f) => f.kind === kind);
  const view = (f: FileRow, qaSource?: FileRow | null) => fileView(f, { rerunCount: row.rerunCount ?? 0, qaSource });
  const calculation = byKind('calculation')[0] ?? null;
  // the delivery of each type the results are built from: the newest one (the pipeline's rule);
  // an older delivery of the same type says which one replaced it
  const newest = new Map<string, FileRow>();
  for (const f of byKind('input')) if (!newest.has(f.fileType) || newest.get(f.fileType)!.id < f.id) newest.set(f.fileType, f);
  const inputView = (f: FileRow) => {
    const latest = newest.get(f.fileType)!;
    const current = latest.id === f.id && !f.disabled;
    return {
      ...view(f),
      current,
      ...(latest.id === f.id ? {} : { supersededBy: { id: latest.id, filename: latest.fileName, timestamp: latest.updatedAt } }),
    };
  };
  // a standardization of a superseded delivery is not what the results are built from: it says which replaced it
  const standardizationView = (f: FileRow) => {
    const source = f.sourceFileId === null ? undefined : files.find((x) => x.id === f.sourceFileId && x.kind === 'input');
    const latest = source ? newest.get(source.fileType) : undefined;
    const superseded = source !== undefined && latest !== undefined && latest.id !== source.id;
    const replacement = superseded ? byKind('standardization').find((x) => x.sourceFileId === latest.id) : undefined;
    return {
      ...view(f),
      current: !superseded,
      ...(superseded
        ? {
            supersededBy: replacement
              ? { id: replacement.id, filename: replacement.fileName, timestamp: replacement.updatedAt }
              : { id: latest.id, filename: latest.fileName, timestamp: latest.updatedAt },
          }
        : {}),
    };
  };
  const inputFiles = byKind('input').map((f) => ({
    ...inputView(f),
    identifiedFiles: files
      .filter((x) => x.kind === 'input' && x.fileType === f.fileType && x.id !== f.id)
      .slice(0, 3)
      .map(inputView),
  }));

  return {
    id: row.id,
    ...toFundFields(row),
    // a fund with children is a parent, whether or not is_parent was set when they were linked
    is_parent: row.isParent || children.length > 0,
    fund_code: codes.find((c) => c.main)?.code ?? codes[0]?.code ?? null,
    fund_codes: codes.map((c) => ({ id: c.id, code: c.code, main: c.main })),
    administrator: admin ? { id: admin.id, code: admin.code, name: admin.name } : null,
    status,
    statusLabel: STATUS_LABELS[status] ?? status,
    dataRequestStatus: row.dataRequestStatus,
    selfOnboarded: row.selfOnboarded,
    rerun_count: row.rerunCount,
    rerun_by: rerunBy ? { id: rerunBy.id, full_name: `${rerunBy.firstName} ${rerunBy.lastName}`.trim() } : null,
    rerun_by_role: row.rerunByRole,
    rerun_date: row.rerunDate,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    administrator_recipients: recips.map((r) => ({ id: r.id, full_name: r.fullName, email: r.email, role: r.role })),
    children: children.map((c) => ({
      id: c.id,
      name: c.name,
      client: c.client,
      fund_code: childCodes.find((x) => x.fundRequestId === c.id && x.main)?.code ?? null,
    })),
    mappings: mappingIds,
    aggreg_force_run: row.aggregForceRun,
    needs_rerun: row.needsRerun,
    inputFiles,
    // `current` false: the standardization of a delivery a newer one of its type replaced (`supersededBy`: the newer one's standardization, or the newer delivery while it is standardized)
    standardizationFiles: byKind('standardization').map(standardizationView),
    calculationFiles: byKind('calculation').map((f) => ({
      ...view(f),
      aggDataOversized: Boolean((f.validation as { aggDataOversized?: boolean } | null)?.aggDataOversized),
    })),
    // each with the Summary's overall status it was written with ('Incomplete data', PASS, WARNING, FAIL; null when not recorded)
    workPapers: byKind('work_paper').map((f) => ({ ...view(f, calculation), outcome: workPaperOutcome(f)?.overallStatus ?? null })),
    // the work paper the last rerun replaced: downloadable (exports), counted in no status
    previousWorkPapers: byKind('work_paper_previous').map((f) => view(f)),
    hasCsvOutputs: files.some((f) => f.kind !== 'input' && /\.csv$/i.test(f.fileName)),
    dataStatusCounts: derived.dataStatusCounts,
    workPaperStatusCounts: derived.workPaperStatusCounts,
    isLate: derived.isLate,
    dataStatusUIField: derived.dataStatusUIField,
    workPaperStatusUIField: derived.workPaperStatusUIField,
    isParentUIField: derived.isParentUIField,
    processStatus: derived.processStatus,
    calculationStatus: derived.calculationStatus,
    editable: { rows: edit.rowsEditable, reason: edit.reason, comments: true, recipients: true, administratorLock: edit.administratorLock },
    assignedCount: edit.assignedCount,
    administratorLock: edit.administratorLock,
  };
}

export type FundDetails = Awaited<ReturnType<typeof getFundDetails>>;
