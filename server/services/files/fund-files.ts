/**
 * Actions on a fund's files (delivery spec section 4 "Files", section 7 `POST /file/review`,
 * `/file/disable`, `/file/remove`, `/fund/file/reset`; Fund details "Release all / Unrelease all").
 *
 * Rules: neither review nor disable while a file is pending (or processing); a reviewed file cannot
 * be disabled; a disabled file cannot be reviewed; only input files and work papers can be disabled
 * (not required); only input files can be removed or reset. Each call is all-or-nothing: every
 * refusal is gathered into one ValidationError naming the files, and nothing changes. Each change
 * writes a trail entry (before/after) and publishes a `file` event. Changing, removing or resetting
 * an input file queues the fund's standardization again with force run (DOMAIN.md 2).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011). The
 * standardization is queued through the job queue (`enqueue`, `server/queue/enqueue.ts`).
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { enqueue } from '../../queue/queue.js';
import type { AppContext } from '../../context.js';
import { storeOf, type Tables } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { User } from '../auth/tokens.js';
import { fileView } from './display.js';
import { writeTrail } from '../trail/trail.js';
import { parseInput } from '../query/validate.js';
import { reviewRefusal, requiredRefusal } from '../../../rules/files.js';
import { isPendingStatus, PRODUCED_STATUSES } from './display.js';

export { fileStatusLabel, qaValidations, validationCell, type QaItem, type QaValidations, type ValidationCell } from './display.js';

export type FundFileRow = Tables['fundFiles']['$inferSelect'];
export type FileView = ReturnType<typeof fileView>;

const fileIds = z.array(z.coerce.number().int().positive()).min(1, 'select at least one file').max(10_000);
const fundId = z.coerce.number().int().positive();

export const reviewInputSchema = z.object({ ids: fileIds, reviewed: z.boolean(), fundRequestId: fundId.nullish() });
export const disableInputSchema = z.object({ ids: fileIds, disabled: z.boolean() });
export const removeInputSchema = z.object({ ids: fileIds });
export const resetFileInputSchema = z.object({ id: fundId, fileType: z.string().trim().min(1).max(100), forceReset: z.boolean().optional() });
export const releaseInputSchema = z.object({ fundRequestId: fundId, released: z.boolean() });

/** Result of a file action: the files as they are now and the standardization jobs queued. */
export interface FileActionResult {
  files: FileView[];
  /** process ids queued per fund (standardization, force run) */
  queued: Array<{ fundRequestId: number; processId: number }>;
}

/** One file's change: the columns to set (null: unchanged). */
type Plan = { set: Partial<Pick<FundFileRow, 'reviewed' | 'disabled' | 'released' | 'status'>>; requeue: boolean } | null;

interface ChangeSpec {
  /** trail action name */
  action: string;
  /** refusal messages for a file (empty when allowed) */
  check: (f: FundFileRow) => Array<string | null | false>;
  plan: (f: FundFileRow) => Plan;
}

/** Refuses with every problem at once; the message is the first problem. */
function refuse(problems: string[]): void {
  if (!problems.length) return;
  const message = problems.length === 1 ? problems[0] : `${problems[0]} (and ${problems.length - 1} more)`;
  throw new ValidationError(message, problems);
}

/** Ids a statement takes at once (`in (...)` lists). */
const CHUNK = 500;

/** Loads files by id in order. @throws NotFoundError 'No such file with id: {id}' */
async function loadFiles(ctx: AppContext, ids: number[]): Promise<FundFileRow[]> {
  const { db, tables: t } = storeOf(ctx);
  const unique = [...new Set(ids)];
  const rows = new Map<number, FundFileRow>();
  for (let i = 0; i < unique.length; i += CHUNK) {
    for (const r of await db
      .select()
      .from(t.fundFiles)
      .where(inArray(t.fundFiles.id, unique.slice(i, i + CHUNK))))
      rows.set(r.id, r);
  }
  const missing = unique.find((id) => !rows.has(id));
  if (missing !== undefined) throw new NotFoundError(`No such file with id: ${missing}`);
  return unique.map((id) => rows.get(id)!);
}

/** @throws NotFoundError 'No such fund request with id: {id}' */
async function requireFund(ctx: AppContext, id: number): Promise<void> {
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select({ id: t.fundRequests.id }).from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${id}`);
}

const identity = (f: FundFileRow) => ({ id: f.id, fileName: f.fileName, fileType: f.fileType, kind: f.kind });
const publish = (ctx: AppContext, f: Pick<FundFileRow, 'id' | 'fundRequestId' | 'kind' | 'status' | 'fileName'>) =>
  ctx.events.publish('file', { id: f.id, fundRequestId: f.fundRequestId, kind: f.kind, status: f.status, fileName: f.fileName });

/** Queues standardization (force run) for each fund, after the change is committed. */
async function requeue(ctx: AppContext, user: User, fundIds: Iterable<number>): Promise<FileActionResult['queued']> {
  const queued: FileActionResult['queued'] = [];
  for (const fundRequestId of new Set(fundIds))
    queued.push({ fundRequestId, processId: (await enqueue(ctx, { stage: 'standardization', fundRequestId, forceRun: true, createdById: user.id })).id });
  return queued;
}

/**
 * Applies a flag change to files in one transaction (all or nothing): the files with the same
 * change are updated by one statement per 500, their trail entries written by one; then publishes
 * and queues.
 */
async function applyChange(ctx: AppContext, user: User, ids: number[], spec: ChangeSpec): Promise<FileActionResult> {
  const { tables: t } = storeOf(ctx);
  const changed: FundFileRow[] = [];
  const requeueFunds: number[] = [];
  const files = await transaction(ctx, async (tx) => {
    const rows = await loadFiles(ctx, ids);
    refuse(rows.flatMap((f) => spec.check(f).filter((p): p is string => typeof p === 'string')));
    const plans = rows.map((f) => ({ f, plan: spec.plan(f) }));
    // files with the same change, by the change
    const groups = new Map<string, { set: NonNullable<Plan>['set']; ids: number[] }>();
    for (const { f, plan } of plans) {
      if (!plan) continue;
      const key = JSON.stringify(plan.set);
      const group = groups.get(key) ?? { set: plan.set, ids: [] };
      group.ids.push(f.id);
      groups.set(key, group);
    }
    const after = new Map<number, FundFileRow>();
    for (const [, { set, ids: groupIds }] of groups)
      for (let i = 0; i < groupIds.length; i += CHUNK)
        for (const r of await tx
          .update(t.fundFiles)
          .set(set)
          .where(inArray(t.fundFiles.id, groupIds.slice(i, i + CHUNK)))
          .returning())
          after.set(r.id, r);
    const entries = plans.flatMap(({ f, plan }) => {
      if (!plan) return [];
      const keys = Object.keys(plan.set) as Array<keyof typeof plan.set>;
      changed.push(after.get(f.id)!);
      if (plan.requeue) requeueFunds.push(f.fundRequestId);
      return [
        {
          fundRequestId: f.fundRequestId,
          userId: user.id,
          action: spec.action,
          before: { ...identity(f), ...Object.fromEntries(keys.map((k) => [k, f[k]])) },
          after: { ...identity(f), ...plan.set },
        },
      ];
    });
    await writeTrail(ctx, entries);
    return plans.map(({ f }) => after.get(f.id) ?? f);
  });
  for (const f of changed) publish(ctx, f);
  return { files: files.map((f) => fileView(f)), queued: await requeue(ctx, user, requeueFunds) };
}

/**
 * Marks files reviewed or unreviewed. With `fundRequestId`, every file must belong to that fund.
 * @throws ValidationError (pending file, disabled file reviewed, file of another fund); NotFoundError 'No such file with id: {id}'
 */
export async function reviewFiles(ctx: AppContext, user: User, input: z.input<typeof reviewInputSchema>): Promise<FileActionResult> {
  const { ids, reviewed, fundRequestId } = parseInput(reviewInputSchema, input);
  if (fundRequestId) await requireFund(ctx, fundRequestId);
  return applyChange(ctx, user, ids, {
    action: reviewed ? 'file-review' : 'file-unreview',
    check: (f) => [
      !!fundRequestId && f.fundRequestId !== fundRequestId && `File ${f.fileName} does not belong to fund request ${fundRequestId}`,
      reviewRefusal(f, reviewed),
    ],
    plan: (f) => (f.reviewed === reviewed ? null : { set: { reviewed }, requeue: false }),
  });
}

/**
 * Marks input files or work papers not required (`disabled: true`) or required again. An input
 * file's change queues its fund's standardization (the file becomes "Not required").
 * @throws ValidationError (pending file, reviewed file disabled, other kinds); NotFoundError
 */
export async function disableFiles(ctx: AppContext, user: User, input: z.input<typeof disableInputSchema>): Promise<FileActionResult> {
  const { ids, disabled } = parseInput(disableInputSchema, input);
  return applyChange(ctx, user, ids, {
    action: disabled ? 'file-disable' : 'file-enable',
    check: (f) => [
      f.kind !== 'input' && f.kind !== 'work_paper' && `File ${f.fileName} is a ${f.kind} file; only input files and work papers can be marked not required`,
      requiredRefusal(f, disabled),
    ],
    plan: (f) => (f.disabled === disabled ? null : { set: { disabled }, requeue: f.kind === 'input' }),
  });
}

/**
 * Removes input files: each with its standardization file(s) and their SDM rows; then queues each
 * fund's standardization again (force run), so the outputs follow.
 * @throws ValidationError (not an input file, or being processed); NotFoundError 'No such file with id: {id}'
 */
export async function removeFiles(ctx: AppContext, user: User, input: z.input<typeof removeInputSchema>): Promise<FileActionResult & { removed: number[] }> {
  const { ids } = parseInput(removeInputSchema, input);
  const { tables: t } = storeOf(ctx);
  const removed = await transaction(ctx, async (tx) => {
    const rows = await loadFiles(ctx, ids);
    refuse(
      rows.flatMap((f) =>
        [
          f.kind !== 'input' ? `File ${f.fileName} is a ${f.kind} file; only input files can be removed` : null,
          f.status === 'processing' ? `File ${f.fileName} is being processed; remove it when processing has finished` : null,
        ].filter((p): p is string => !!p),
      ),
    );
    const inputIds = rows.map((f) => f.id);
    const derived: number[] = [];
    for (let i = 0; i < inputIds.length; i += CHUNK)
      for (const r of await tx
        .select({ id: t.fundFiles.id })
        .from(t.fundFiles)
        .where(and(eq(t.fundFiles.kind, 'standardization'), inArray(t.fundFiles.sourceFileId, inputIds.slice(i, i + CHUNK)))))
        derived.push(r.id);
    const all = [...derived, ...inputIds];
    for (let i = 0; i < all.length; i += CHUNK) {
      await tx.delete(t.sdmChunks).where(inArray(t.sdmChunks.fundFileId, all.slice(i, i + CHUNK)));
      await tx.delete(t.fundFiles).where(inArray(t.fundFiles.id, all.slice(i, i + CHUNK)));
    }
    await writeTrail(
      ctx,
      rows.map((f) => ({
        fundRequestId: f.fundRequestId,
        userId: user.id,
        action: 'file-remove',
        before: { ...fileView(f), standardizationFileIds: derived },
        after: null,
      })),
    );
    return rows;
  });
  for (const f of removed) publish(ctx, { ...f, status: 'removed' });
  return {
    files: [],
    removed: removed.map((f) => f.id),
    queued: await requeue(
      ctx,
      user,
      removed.map((f) => f.fundRequestId),
    ),
  };
}

/**
 * Resets a fund's current (newest enabled) input file of one SDM type: back to pending and
 * unreviewed, and queues standardization with force run.
 * @param input.id fund request id
 * @param input.forceReset also reset a file that is being processed
 * @throws NotFoundError for an unknown fund or no file of that type; ValidationError when the file is
 *   disabled, or being processed without `forceReset`
 */
export async function resetFundFile(ctx: AppContext, user: User, input: z.input<typeof resetFileInputSchema>): Promise<FileActionResult> {
  const { id, fileType, forceReset } = parseInput(resetFileInputSchema, input);
  const { tables: t } = storeOf(ctx);
  const current = await transaction(ctx, async (tx) => {
    await requireFund(ctx, id);
    const rows = await tx
      .select()
      .from(t.fundFiles)
      .where(and(eq(t.fundFiles.fundRequestId, id), eq(t.fundFiles.kind, 'input'), eq(t.fundFiles.fileType, fileType)))
      .orderBy(desc(t.fundFiles.id));
    if (!rows.length) throw new NotFoundError(`Fund request ${id} has no ${fileType} input file`);
    const file = rows.find((r) => !r.disabled);
    if (!file) throw new ValidationError(`File ${rows[0].fileName} is not required (disabled); mark it required before resetting it`);
    if (file.status === 'processing' && !forceReset) throw new ValidationError(`File ${file.fileName} is being processed; use force reset to reset it anyway`);
    const [after] = await tx.update(t.fundFiles).set({ status: 'pending', reviewed: false }).where(eq(t.fundFiles.id, file.id)).returning();
    await writeTrail(ctx, {
      fundRequestId: id,
      userId: user.id,
      action: 'file-reset',
      before: { ...identity(file), status: file.status, reviewed: file.reviewed },
      after: { ...identity(file), status: after.status, reviewed: after.reviewed, forceReset: !!forceReset },
    });
    return after;
  });
  publish(ctx, current);
  return { files: [fileView(current)], queued: await requeue(ctx, user, [id]) };
}

/**
 * Release all / Unrelease all of a fund's work papers. Releasing takes every produced work paper
 * that is not disabled; others are listed in `skipped` with the reason. Unreleasing takes every
 * released one.
 * @throws NotFoundError for an unknown fund; ValidationError when the fund has no work paper, or
 *   none can be released (naming each)
 */
export async function releaseWorkPapers(
  ctx: AppContext,
  user: User,
  input: z.input<typeof releaseInputSchema>,
): Promise<FileActionResult & { changed: number; skipped: Array<{ id: number; fileName: string; reason: string }> }> {
  const { fundRequestId, released } = parseInput(releaseInputSchema, input);
  const skipped: Array<{ id: number; fileName: string; reason: string }> = [];
  await requireFund(ctx, fundRequestId);
  const { db, tables: t } = storeOf(ctx);
  const papers = await db
    .select()
    .from(t.fundFiles)
    .where(and(eq(t.fundFiles.fundRequestId, fundRequestId), eq(t.fundFiles.kind, 'work_paper')))
    .orderBy(desc(t.fundFiles.id));
  if (!papers.length) throw new ValidationError(`Fund request ${fundRequestId} has no work papers`);
  const eligible = papers.filter((w) => {
    if (!released) return true;
    const reason = w.disabled
      ? `Work paper ${w.fileName} is not required (disabled)`
      : !PRODUCED_STATUSES.includes(w.status)
        ? `Work paper ${w.fileName} is not ready (${w.status})`
        : null;
    if (reason) skipped.push({ id: w.id, fileName: w.fileName, reason });
    return !reason;
  });
  if (released && !eligible.length) refuse(skipped.map((s) => s.reason));
  const result = await applyChange(
    ctx,
    user,
    eligible.map((w) => w.id),
    {
      action: released ? 'work-paper-release' : 'work-paper-unrelease',
      check: () => [],
      plan: (w) => (w.released === released ? null : { set: { released }, requeue: false }),
    },
  );
  const changed = result.files.filter((f, i) => f.released !== eligible[i].released).length;
  const byId = new Map(result.files.map((f) => [f.id, f]));
  return { files: papers.map((w) => byId.get(w.id) ?? fileView(w)), queued: [], changed, skipped };
}
