/**
 * A chase run (docs/chasing.md "Runs"): finds the fund requests to look at, decides for each
 * (`evaluateFund`), and writes the outcome in one transaction: new chases, reminders, resolved and
 * cancelled ones, their state changes (`chase_events`), one audit-log entry listing every change,
 * and the outbox mails, one digest per recipient holding all their open chases, each chase tied to
 * its mail by a notice (unique per chase, run and recipient). A crash before the commit leaves
 * nothing; a run repeated the same day finds nothing due. A dry run decides the same and writes
 * nothing: it returns what would be mailed.
 *
 * Funds looked at: chased statuses whose data due date puts them inside some schedule today, funds
 * with an open chase, and funds whose checks ran since the previous run (or `fundIds` only).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { ChaseRecipient } from '../../db/schema/chasing.js';
import { transaction } from '../../db/tx.js';
import { recordAudit } from '../audit/audit-log.js';
import { todayIso } from '../../lib/dates.js';
import { evaluateFund, reviewChanges, type ChaseChange } from './evaluate.js';
import { recordChaseEvents, type ChaseActor, type ChaseRef } from './history.js';
import { digests, type MailPreview, type Planned } from './run-digests.js';
import { candidateFunds, chunks, loadFacts, loadRecipients } from './run-reads.js';
import { installSchedule, tpaSchedules } from './schedule.js';

export interface ChaseRunOptions {
  /** The day to chase for (ISO date; default today, UTC). */
  today?: string;
  /** Decide and report, write nothing. */
  dryRun?: boolean;
  /** What started it: 'schedule', 'cli', 'api', 'review', 'demo'. */
  trigger?: string;
  actor?: ChaseActor;
  /** Look at these funds only (a review after a fund's pipeline ran). */
  fundIds?: number[];
  /** Write mails for due chases (default true; a review only opens and resolves). */
  mail?: boolean;
}

export interface ChaseRunResult {
  runId: number | null;
  asOf: string;
  dryRun: boolean;
  counts: { funds: number; opened: number; reminded: number; reopened: number; resolved: number; cancelled: number; mails: number; withoutRecipients: number };
  mails: MailPreview[];
}

/**
 * Runs chasing once.
 * @returns what it did (counts) and the mails it wrote (a dry run: would write)
 */
export async function runChase(ctx: AppContext, opts: ChaseRunOptions = {}): Promise<ChaseRunResult> {
  const today = opts.today ?? todayIso();
  const at = new Date().toISOString();
  const install = installSchedule(ctx);
  const own = await tpaSchedules(ctx);
  const scheduleFor = (adminId: number | null) => (adminId ? own.get(adminId) : undefined) ?? install;
  const ids =
    opts.fundIds ??
    (await candidateFunds(
      ctx,
      today,
      [install, ...Array.from(own, ([, s]) => s)].filter((s) => s.enabled),
    ));
  const { funds, facts, open, codes } = await loadFacts(ctx, ids);
  const planned: Planned[] = [];
  for (const [id, f] of facts) {
    const fund = funds.get(id)!;
    const chases = open.get(id) ?? [];
    const changes = evaluateFund(f, chases, scheduleFor(fund.administratorId), today);
    for (const change of opts.mail === false ? reviewChanges(changes, today) : changes)
      planned.push({ change, fund, chase: change.kind === 'open' ? undefined : chases.find((c) => c.id === change.chaseId) });
  }
  const recipientsOf = await loadRecipients(ctx, ids);
  const counts = { funds: ids.length, opened: 0, reminded: 0, reopened: 0, resolved: 0, cancelled: 0, mails: 0, withoutRecipients: 0 };
  for (const p of planned) {
    if (p.change.kind === 'open') counts.opened++;
    else if (p.change.kind === 'close') counts[p.change.state]++;
    else {
      if (p.change.state === 'scheduled') counts.reopened++;
      else if (p.change.due) counts.reminded++;
    }
  }
  const mail = opts.mail !== false;
  if (opts.dryRun) {
    const previews = mail ? await digests(ctx, planned, recipientsOf, codes, at, counts, null) : [];
    return { runId: null, asOf: today, dryRun: true, counts: { ...counts, mails: previews.length }, mails: previews.map((m) => m.preview) };
  }
  const result = await transaction(ctx, async (tx) => {
    const { tables: t } = storeOf(ctx);
    const [run] = await tx
      .insert(t.chaseRuns)
      .values({ asOf: today, trigger: opts.trigger ?? 'cli', createdById: opts.actor?.id ?? null, startedAt: at })
      .returning({ id: t.chaseRuns.id });
    const runId = run!.id;
    const events: Parameters<typeof recordChaseEvents>[1] = [];
    const audit: Array<[number, string]> = [];
    // new chases
    const opening = planned.filter((p) => p.change.kind === 'open');
    for (const part of chunks(opening)) {
      const rows = await tx
        .insert(t.chases)
        .values(
          part.map(({ change, fund }) => {
            const c = change as Extract<ChaseChange, { kind: 'open' }>;
            return {
              fundRequestId: fund.id,
              administratorId: fund.administratorId,
              client: fund.client,
              reason: c.reason,
              key: c.key,
              state: 'scheduled' as const,
              fundFileId: c.fundFileId,
              message: c.message,
              evidence: c.evidence,
              evidenceBlobKey: c.csv ? ctx.blobs.put(c.csv).key : null,
              recipients: recipientsOf(fund, c.due.escalate),
              remindersSent: c.remindersSent,
              nextReminderOn: c.nextReminderOn,
              createdAt: at,
              updatedAt: at,
            };
          }),
        )
        .returning();
      rows.forEach((row, i) => {
        const p = part[i]!;
        p.chase = { ...row, recipients: row.recipients };
        events.push({ chase: row, state: 'scheduled', at, note: `opened: ${row.message}` });
        audit.push([row.id, 'scheduled']);
      });
    }
    // reminders, answers that did not fix it, new evidence; resolved and cancelled chases
    for (const p of planned) {
      const c = p.change;
      if (c.kind === 'open' || !p.chase) continue;
      const ref: ChaseRef = { ...p.chase, fundRequestId: p.fund.id, administratorId: p.fund.administratorId, client: p.fund.client };
      if (c.kind === 'close') {
        await tx.update(t.chases).set({ state: c.state, closedAt: at, nextReminderOn: null, updatedAt: at }).where(eq(t.chases.id, c.chaseId));
        events.push({ chase: ref, state: c.state, at, note: c.note });
        audit.push([c.chaseId, c.state]);
        continue;
      }
      const set: Record<string, unknown> = { updatedAt: at };
      if (c.state) set.state = c.state;
      if (c.message !== undefined) set.message = c.message;
      if (c.evidence) set.evidence = c.evidence;
      if (c.csv !== undefined) set.evidenceBlobKey = c.csv ? ctx.blobs.put(c.csv).key : null;
      if (c.remindersSent !== undefined) set.remindersSent = c.remindersSent;
      if (c.nextReminderOn !== undefined) set.nextReminderOn = c.nextReminderOn;
      if (c.due) set.recipients = recipientsOf(p.fund, c.due.escalate);
      await tx.update(t.chases).set(set).where(eq(t.chases.id, c.chaseId));
      if (c.state) {
        events.push({ chase: ref, state: c.state, at, note: c.note ?? '' });
        audit.push([c.chaseId, c.state]);
      }
      if (set.recipients) p.chase.recipients = set.recipients as ChaseRecipient[];
      if (c.evidence) p.chase.evidence = c.evidence;
    }
    await recordChaseEvents(ctx, events);
    const written = mail ? await digests(ctx, planned, recipientsOf, codes, at, counts, runId) : [];
    counts.mails = written.length;
    await tx.update(t.chaseRuns).set({ status: 'done', counts, finishedAt: new Date().toISOString() }).where(eq(t.chaseRuns.id, runId));
    if (audit.length || written.length)
      await recordAudit(ctx, opts.actor ?? null, 'chase-run', `chase-run:${runId}`, {
        asOf: today,
        changes: audit.map(([id, state]) => ({ chase: id, state })),
        mails: written.length,
      });
    return { runId, previews: written.map((w) => w.preview) };
  });
  return { runId: result.runId, asOf: today, dryRun: false, counts, mails: result.previews };
}
