/**
 * Chases as people see and act on them (docs/chasing.md "Answering"): a fund's chases with their
 * timeline, the open chases of the signed-in user (whose address is a contact of the fund's TPA or
 * client, or a chased recipient of the fund), a reviewer's 'Return to TPA' on a file or a fund,
 * cancelling a chase, and answering one with a file, which is imported for the fund's TPA and goes
 * through the pipeline like any delivery. Each change is a chase_events row and an audit entry.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, desc, eq, gte, inArray, or } from 'drizzle-orm';
import { canMoveChase, isOpenChase, OPEN_CHASE_STATES, returnKey, returnReasonProblem, returnToTpaAction, type ChaseState } from '../../../rules/chasing.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { ChaseEvidence, ChaseRecipient } from '../../db/schema/chasing.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { recordAudit } from '../audit/audit-log.js';
import type { User } from '../auth/tokens.js';
import { importFile, type ImportContent } from '../imports/imports.js';
import { emailKey } from './addresses.js';
import type { ChaseOfFund } from './digest.js';
import { chaseEvents, recordChaseEvent, type ChaseEventRow } from './history.js';
import { installSchedule } from './schedule.js';
import { nextFollowUp } from './evaluate.js';
import { todayIso } from '../../lib/dates.js';

/** A chase as the API and the UI show it. */
export interface ChaseView extends ChaseOfFund {
  reason: string;
  state: ChaseState;
  /** The input file a reviewer returned (reason 'returned'), else null. */
  fundFileId: number | null;
  message: string;
  evidence: ChaseEvidence;
  hasEvidenceCsv: boolean;
  recipients: ChaseRecipient[];
  remindersSent: number;
  nextReminderOn: string | null;
  lastSentAt: string | null;
  answeredAt: string | null;
  closedAt: string | null;
  createdAt: string;
  events: ChaseEventRow[];
}

type ChaseRow = ReturnType<typeof storeOf>['tables']['chases']['$inferSelect'];

async function views(ctx: AppContext, rows: ChaseRow[]): Promise<ChaseView[]> {
  if (!rows.length) return [];
  const { db, tables: t } = storeOf(ctx);
  const fundIds = [...new Set(rows.map((r) => r.fundRequestId))];
  const funds = new Map(
    (
      await db
        .select({ id: t.fundRequests.id, name: t.fundRequests.name, dueDate: t.fundRequests.dueDate, administratorId: t.fundRequests.administratorId })
        .from(t.fundRequests)
        .where(inArray(t.fundRequests.id, fundIds))
    ).map((f) => [f.id, f]),
  );
  const codes = new Map(
    (
      await db
        .select({ f: t.fundCodes.fundRequestId, code: t.fundCodes.code })
        .from(t.fundCodes)
        .where(and(inArray(t.fundCodes.fundRequestId, fundIds), eq(t.fundCodes.main, true)))
    ).map((c) => [c.f, c.code]),
  );
  const admins = new Map((await db.select().from(t.administrators)).map((a) => [a.id, a.name]));
  const events = await chaseEvents(ctx, { chaseIds: rows.map((r) => r.id) });
  return rows.map((r) => {
    const f = funds.get(r.fundRequestId);
    return {
      id: r.id,
      fundRequestId: r.fundRequestId,
      fundName: f?.name ?? '',
      fundCode: codes.get(r.fundRequestId) ?? null,
      client: r.client,
      administrator: r.administratorId ? (admins.get(r.administratorId) ?? null) : null,
      dueDate: f?.dueDate ?? null,
      reason: r.reason,
      state: r.state,
      fundFileId: r.fundFileId,
      message: r.message,
      evidence: r.evidence,
      hasEvidenceCsv: !!r.evidenceBlobKey,
      recipients: r.recipients,
      remindersSent: r.remindersSent,
      nextReminderOn: r.nextReminderOn,
      lastSentAt: r.lastSentAt,
      answeredAt: r.answeredAt,
      closedAt: r.closedAt,
      createdAt: r.createdAt,
      events: events.filter((e) => e.chaseId === r.id).reverse(),
    };
  });
}

/** A fund's chases, open ones first, newest first, each with its timeline (newest event first). */
export async function fundChases(ctx: AppContext, fundRequestId: number): Promise<ChaseView[]> {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db.select().from(t.chases).where(eq(t.chases.fundRequestId, fundRequestId)).orderBy(desc(t.chases.id));
  const list = await views(ctx, rows);
  return [...list.filter((c) => isOpenChase(c.state)), ...list.filter((c) => !isOpenChase(c.state))];
}

/** One chase. @throws NotFoundError */
export async function getChase(ctx: AppContext, id: number): Promise<ChaseView> {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.chases).where(eq(t.chases.id, id));
  if (!row) throw new NotFoundError(`No chase with id: ${id}`);
  return (await views(ctx, [row]))[0]!;
}

/** Whether a user is among the people a chase is for (a recipient, or a contact of its TPA or client). */
async function isChasedPerson(ctx: AppContext, user: Pick<User, 'email'>, chase: ChaseRow): Promise<boolean> {
  const me = emailKey(user.email);
  if (chase.recipients.some((r) => emailKey(r.email) === me)) return true;
  const { db, tables: t } = storeOf(ctx);
  const mine = await db.select().from(t.contacts);
  return mine.some(
    (c) =>
      emailKey(c.email) === me &&
      ((c.administratorId && c.administratorId === chase.administratorId) ||
        (c.client && chase.client && c.client.toLowerCase() === chase.client.toLowerCase())),
  );
}

/** How long a closed chase stays on its recipient's list when recent ones are asked for (days). */
export const RECENT_CHASE_DAYS = 30;

/**
 * The open chases of the signed-in user: those whose recipients hold their address, or whose TPA
 * or client has them as a contact; optionally of one fund; with `recent`, also those resolved or
 * cancelled in the last RECENT_CHASE_DAYS days (so an answer's outcome stays in view). Open ones
 * first, newest first.
 */
export async function myOpenChases(
  ctx: AppContext,
  user: Pick<User, 'email'>,
  opts: { fundRequestId?: number; recent?: boolean; now?: number } = {},
): Promise<ChaseView[]> {
  const { db, tables: t } = storeOf(ctx);
  const me = emailKey(user.email);
  const contacts = (await db.select().from(t.contacts)).filter((c) => emailKey(c.email) === me);
  const admins = new Set(contacts.map((c) => c.administratorId).filter((x): x is number => x !== null));
  const clients = new Set(contacts.map((c) => c.client?.toLowerCase()).filter((x): x is string => !!x));
  const since = new Date((opts.now ?? Date.now()) - RECENT_CHASE_DAYS * 86_400_000).toISOString();
  const state = inArray(t.chases.state, OPEN_CHASE_STATES as ChaseState[]);
  const rows = await db
    .select()
    .from(t.chases)
    .where(and(opts.recent ? or(state, gte(t.chases.closedAt, since)) : state, opts.fundRequestId ? eq(t.chases.fundRequestId, opts.fundRequestId) : undefined))
    .orderBy(desc(t.chases.id));
  const mine = rows.filter(
    (c) =>
      c.recipients.some((r) => emailKey(r.email) === me) ||
      (c.administratorId !== null && admins.has(c.administratorId)) ||
      (!!c.client && clients.has(c.client.toLowerCase())),
  );
  const list = await views(ctx, mine);
  return [...list.filter((c) => isOpenChase(c.state)), ...list.filter((c) => !isOpenChase(c.state))];
}

/** The actor of a user for events and the audit log. */
const actorOf = (user: Pick<User, 'id' | 'email'>) => ({ id: user.id, email: user.email });

/**
 * A reviewer's 'Return to TPA': opens a chase on a file (`fundFileId`, an input file of the fund)
 * or on the whole fund, with the reviewer's reason; it goes out with the next chase run and
 * resolves when a newer delivery of that file (or any file, for a fund) arrives.
 * @throws ValidationError without a reason or with one over RETURN_REASON_MAX characters; NotFoundError
 *   for an unknown fund or file; ConflictError when that file or fund is already returned and open,
 *   the fund request is not chased (not Pending or Open) or the file is marked not required
 *   (`returnToTpaAction` of rules/chasing.ts)
 */
export async function returnToTpa(
  ctx: AppContext,
  user: Pick<User, 'id' | 'email'>,
  input: { fundRequestId: number; fundFileId?: number | null; reason: string },
): Promise<ChaseView> {
  const problem = returnReasonProblem(input.reason);
  if (problem) throw new ValidationError(problem, [{ column: 'reason', message: problem }]);
  const reason = input.reason.trim();
  const { db, tables: t } = storeOf(ctx);
  const [fund] = await db.select().from(t.fundRequests).where(eq(t.fundRequests.id, input.fundRequestId));
  if (!fund) throw new NotFoundError(`No such fund request with id: ${input.fundRequestId}`);
  let evidence: ChaseEvidence = {};
  let file: { kind: string; disabled: boolean } | null = null;
  if (input.fundFileId) {
    const [row] = await db
      .select()
      .from(t.fundFiles)
      .where(and(eq(t.fundFiles.id, input.fundFileId), eq(t.fundFiles.fundRequestId, fund.id)));
    if (!row || row.kind !== 'input') throw new NotFoundError(`No input file ${input.fundFileId} on fund request ${fund.id}`);
    evidence = { fileName: row.fileName, fileType: row.fileType };
    file = row;
  }
  const refused = returnToTpaAction({ fundStatus: fund.status, file });
  if (!refused.enabled) throw new ConflictError(refused.why ?? 'It cannot go back to the TPA');
  const key = returnKey(input.fundFileId);
  const at = new Date().toISOString();
  const row = await transaction(ctx, async (tx) => {
    const [taken] = await tx
      .select({ id: t.chases.id })
      .from(t.chases)
      .where(and(eq(t.chases.fundRequestId, fund.id), eq(t.chases.key, key), inArray(t.chases.state, OPEN_CHASE_STATES as ChaseState[])));
    if (taken) throw new ConflictError(`This ${input.fundFileId ? 'file' : 'fund'} is already returned to the TPA (chase ${taken.id})`);
    const [inserted] = await tx
      .insert(t.chases)
      .values({
        fundRequestId: fund.id,
        administratorId: fund.administratorId,
        client: fund.client,
        reason: 'returned',
        key,
        state: 'scheduled',
        fundFileId: input.fundFileId ?? null,
        message: reason,
        evidence,
        recipients: [],
        remindersSent: 0,
        nextReminderOn: todayIso(),
        createdById: user.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await recordChaseEvent(ctx, inserted!, 'scheduled', { actor: actorOf(user), at, note: `returned to the TPA: ${reason}` });
    return inserted!;
  });
  await recordAudit(ctx, actorOf(user), 'chase-changed', `chase:${row.id}`, {
    state: 'scheduled',
    reason: 'returned',
    fundRequestId: fund.id,
    fundFileId: row.fundFileId,
    message: reason,
  });
  return getChase(ctx, row.id);
}

/**
 * Moves a chase by hand: 'cancelled' (the delivery team withdraws it) with an optional note.
 * @throws NotFoundError; ConflictError when the chase is closed already
 */
export async function cancelChase(ctx: AppContext, user: Pick<User, 'id' | 'email'>, id: number, note = ''): Promise<ChaseView> {
  await moveChase(ctx, user, id, 'cancelled', note.trim() || 'cancelled by the delivery team');
  return getChase(ctx, id);
}

async function moveChase(
  ctx: AppContext,
  user: Pick<User, 'id' | 'email'>,
  id: number,
  to: ChaseState,
  note: string,
  set: Partial<ChaseRow> = {},
): Promise<ChaseRow> {
  const { tables: t } = storeOf(ctx);
  const at = new Date().toISOString();
  const row = await transaction(ctx, async (tx) => {
    const [c] = await tx.select().from(t.chases).where(eq(t.chases.id, id));
    if (!c) throw new NotFoundError(`No chase with id: ${id}`);
    if (!canMoveChase(c.state, to)) throw new ConflictError(`The chase is ${c.state}: it cannot become ${to}`);
    const closing = to === 'resolved' || to === 'cancelled';
    const [u] = await tx
      .update(t.chases)
      .set({ ...set, state: to, updatedAt: at, ...(closing ? { closedAt: at, nextReminderOn: null } : {}) })
      .where(eq(t.chases.id, id))
      .returning();
    await recordChaseEvent(ctx, c, to, { actor: actorOf(user), at, note });
    return u!;
  });
  await recordAudit(ctx, actorOf(user), 'chase-changed', `chase:${id}`, { state: to, note });
  return row;
}

/**
 * Answers a chase with a file: the signed-in user (a person the chase is for, or the delivery team)
 * uploads the missing or corrected file; it is imported for the fund's TPA and runs through the
 * pipeline; the chase becomes answered, and resolves once the new delivery passes (or goes back to
 * scheduled with the next run when it does not).
 * @throws NotFoundError, also when the chase is not the user's (`chaseFor`); ConflictError when it is closed
 */
export async function answerChase(
  ctx: AppContext,
  user: User,
  id: number,
  file: { fileName: string } & ImportContent,
  opts: { delivery?: boolean } = {},
): Promise<{ chase: ChaseView; importId: number }> {
  const { db, tables: t } = storeOf(ctx);
  const c = await chaseFor(ctx, user, id, opts);
  if (!isOpenChase(c.state)) throw new ConflictError(`The chase is ${c.state}: it needs no answer`);
  if (!c.administratorId) throw new ValidationError('The fund request has no TPA: its files cannot be imported');
  const [admin] = await db.select().from(t.administrators).where(eq(t.administrators.id, c.administratorId));
  const imported = await importFile(ctx, { ...file, administratorCode: admin!.code, userId: user.id, source: 'upload', fundRequestId: c.fundRequestId });
  const at = new Date().toISOString();
  await moveChase(ctx, user, id, 'answered', `${file.fileName} uploaded`, {
    answeredAt: at,
    nextReminderOn: nextFollowUp(todayIso(), installSchedule(ctx), 1),
  });
  return { chase: await getChase(ctx, id), importId: imported.id };
}

/**
 * A chase as the user may see it: the delivery team sees every chase; anyone else only those
 * addressed to them, and a chase that is not is answered as unknown (its existence is not told).
 * @throws NotFoundError
 */
async function chaseFor(ctx: AppContext, user: User, id: number, opts: { delivery?: boolean }): Promise<ChaseRow> {
  const { db, tables: t } = storeOf(ctx);
  const [c] = await db.select().from(t.chases).where(eq(t.chases.id, id));
  if (!c || (!opts.delivery && !(await isChasedPerson(ctx, user, c)))) throw new NotFoundError(`No chase with id: ${id}`);
  return c;
}

/** The failing rows of a chase as CSV. @throws NotFoundError when it has none, or it is not the user's */
export async function chaseEvidenceCsv(ctx: AppContext, user: User, id: number, opts: { delivery?: boolean } = {}): Promise<{ fileName: string; csv: Buffer }> {
  const c = await chaseFor(ctx, user, id, opts);
  if (!c.evidenceBlobKey || !ctx.blobs.has(c.evidenceBlobKey)) throw new NotFoundError(`Chase ${id} has no failing rows`);
  return { fileName: `chase-${id}-${(c.evidence.check ?? 'rows').replace(/[^a-z_]/gi, '')}.csv`, csv: ctx.blobs.get(c.evidenceBlobKey) };
}
