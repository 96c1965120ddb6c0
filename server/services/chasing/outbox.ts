/**
 * The chase outbox (docs/chasing.md "Delivery"): sends the digest mails chase runs wrote, over SMTP
 * (nodemailer, `smtpUrl`, `mailFrom`, `mailReplyTo`). A mail is claimed (pending -> sending, one
 * attempt counted) in its own write before the SMTP conversation, so two senders never send the
 * same mail; sent marks it and moves its chases to `sent` (a chase_events row each). A refusal or
 * a timeout puts it back with the next try `mailRetryBaseMs * 2^(attempt-1)` later (at most an
 * hour), up to `mailMaxAttempts`; a permanent refusal of the recipient (5xx) fails it at once. The
 * Message-ID is fixed per mail, so a retry after an unknown outcome is the same message to the
 * receiving servers. Nothing is sent while the `mail` service is off or no SMTP server is set.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { recordAudit } from '../audit/audit-log.js';
import { serviceOn } from '../../queue/services.js';
import { recordChaseEvents } from './history.js';

/** Longest wait between two tries of a mail (ms). */
export const MAX_RETRY_MS = 3_600_000;

/** The wait before try `attempt + 1` after `attempt` failed. */
export const retryDelay = (ctx: AppContext, attempt: number) => Math.min(MAX_RETRY_MS, ctx.config.mailRetryBaseMs * 2 ** Math.max(0, attempt - 1));

export interface OutboxPass {
  sent: number;
  retried: number;
  failed: number;
  /** Why nothing was tried ('mail service off', 'no SMTP server configured'), else null. */
  held: string | null;
  /** Epoch ms of the next try of a mail still waiting, null when none waits. */
  nextAttemptAt: number | null;
}

/** Why the outbox sends nothing now, or null when it sends. */
export async function outboxHeld(ctx: AppContext): Promise<string | null> {
  if (!ctx.config.smtpUrl) return 'no SMTP server configured (smtpUrl)';
  if (!(await serviceOn(ctx, 'mail'))) return 'the mail service is switched off';
  return null;
}

/** Whether an SMTP error is the recipient refused for good (5xx on RCPT), not worth a retry. */
function permanent(err: unknown): boolean {
  const e = err as { responseCode?: number; command?: string };
  return typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600 && e.command === 'RCPT TO';
}

/**
 * Sends every mail that is due now, one at a time, and returns what happened.
 * A mail left `sending` by a sender that died (longer than two SMTP timeouts) is due again.
 * @param opts.limit most mails this pass (default 500)
 */
export async function sendDueMails(ctx: AppContext, opts: { limit?: number; now?: () => number } = {}): Promise<OutboxPass> {
  const now = opts.now ?? Date.now;
  const { db, tables: t } = storeOf(ctx);
  const pass: OutboxPass = { sent: 0, retried: 0, failed: 0, held: await outboxHeld(ctx), nextAttemptAt: null };
  if (!pass.held) {
    const url = new URL(ctx.config.smtpUrl!);
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
      secure: url.protocol === 'smtps:',
      ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
      connectionTimeout: ctx.config.mailTimeoutMs,
      greetingTimeout: ctx.config.mailTimeoutMs,
      socketTimeout: ctx.config.mailTimeoutMs,
    });
    try {
      const stale = now() - 2 * ctx.config.mailTimeoutMs;
      const due = await db
        .select({ id: t.chaseMails.id })
        .from(t.chaseMails)
        .where(
          or(
            and(eq(t.chaseMails.status, 'pending'), lte(t.chaseMails.nextAttemptAt, now())),
            and(eq(t.chaseMails.status, 'sending'), lte(t.chaseMails.nextAttemptAt, stale)),
          ),
        )
        .orderBy(asc(t.chaseMails.id))
        .limit(opts.limit ?? 500);
      for (const { id } of due) await sendOne(ctx, transport, id, now, pass);
    } finally {
      transport.close();
    }
  }
  const [next] = await db
    .select({ at: sql<number>`min(${t.chaseMails.nextAttemptAt})` })
    .from(t.chaseMails)
    .where(eq(t.chaseMails.status, 'pending'));
  pass.nextAttemptAt = next?.at === null || next?.at === undefined ? null : Number(next.at);
  return pass;
}

async function sendOne(ctx: AppContext, transport: Transporter, id: number, now: () => number, pass: OutboxPass): Promise<void> {
  const { tables: t } = storeOf(ctx);
  // the claim: only one sender moves it to sending (the time it did is kept in next_attempt_at)
  const claimed = await transaction(ctx, async (tx) => {
    const [row] = await tx
      .update(t.chaseMails)
      .set({ status: 'sending', attempts: sql`${t.chaseMails.attempts} + 1`, nextAttemptAt: now() })
      .where(and(eq(t.chaseMails.id, id), inArray(t.chaseMails.status, ['pending', 'sending'])))
      .returning();
    return row;
  });
  if (!claimed) return;
  try {
    await transport.sendMail({
      from: ctx.config.mailFrom,
      ...(ctx.config.mailReplyTo ? { replyTo: ctx.config.mailReplyTo } : {}),
      to: claimed.toName ? { name: claimed.toName, address: claimed.toEmail } : claimed.toEmail,
      subject: claimed.subject,
      text: claimed.text,
      html: claimed.html,
      messageId: claimed.messageId,
      headers: { 'X-Fund-Audit-Idempotency-Key': claimed.idempotencyKey },
      attachments: claimed.attachments
        .filter((a) => ctx.blobs.has(a.blobKey))
        .map((a) => ({ filename: a.filename, content: ctx.blobs.get(a.blobKey), contentType: 'text/csv; charset=utf-8' })),
    });
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    const giveUp = permanent(err) || claimed.attempts >= ctx.config.mailMaxAttempts;
    await storeOf(ctx)
      .db.update(t.chaseMails)
      .set(
        giveUp ? { status: 'failed', lastError: message } : { status: 'pending', lastError: message, nextAttemptAt: now() + retryDelay(ctx, claimed.attempts) },
      )
      .where(and(eq(t.chaseMails.id, id), eq(t.chaseMails.status, 'sending')));
    if (giveUp) {
      pass.failed++;
      ctx.log.error({ mailId: id, to: claimed.toEmail, attempts: claimed.attempts, err: message }, 'a chase mail could not be sent; giving up');
    } else {
      pass.retried++;
      ctx.log.warn({ mailId: id, to: claimed.toEmail, attempts: claimed.attempts, err: message }, 'a chase mail could not be sent; it will be tried again');
    }
    return;
  }
  await markSent(ctx, claimed);
  pass.sent++;
}

/** A mail went out: it is sent, and each chase it was due for moves to sent (one chase_events row each). */
async function markSent(ctx: AppContext, mail: { id: number; runId: number; toEmail: string; attempts: number }): Promise<void> {
  const at = new Date().toISOString();
  const chaseIds = await transaction(ctx, async (tx) => {
    const { tables: t } = storeOf(ctx);
    await tx.update(t.chaseMails).set({ status: 'sent', sentAt: at, lastError: null }).where(eq(t.chaseMails.id, mail.id));
    const notices = await tx.select({ chaseId: t.chaseNotices.chaseId }).from(t.chaseNotices).where(eq(t.chaseNotices.mailId, mail.id));
    const ids = notices.map((n) => n.chaseId);
    if (!ids.length) return [];
    const chases = await tx.select().from(t.chases).where(inArray(t.chases.id, ids));
    const open = chases.filter((c) => c.state === 'scheduled' || c.state === 'sent');
    if (open.length) {
      await tx
        .update(t.chases)
        .set({ state: 'sent', lastSentAt: at, updatedAt: at })
        .where(
          inArray(
            t.chases.id,
            open.map((c) => c.id),
          ),
        );
      await recordChaseEvents(
        ctx,
        open.map((c) => ({ chase: c, state: 'sent' as const, at, note: `mailed to ${mail.toEmail}`, details: { mailId: mail.id, runId: mail.runId } })),
      );
    }
    return open.map((c) => c.id);
  });
  if (chaseIds.length)
    await recordAudit(ctx, null, 'chase-changed', `chases:${chaseIds.join(',')}`, {
      state: 'sent',
      mailId: mail.id,
      to: mail.toEmail,
      attempts: mail.attempts,
    });
}

/** The outbox as `fund-audit chase outbox` lists it: newest first. */
export async function listOutbox(ctx: AppContext, opts: { status?: string; limit?: number } = {}) {
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({
      id: t.chaseMails.id,
      runId: t.chaseMails.runId,
      to: t.chaseMails.toEmail,
      subject: t.chaseMails.subject,
      status: t.chaseMails.status,
      attempts: t.chaseMails.attempts,
      lastError: t.chaseMails.lastError,
      sentAt: t.chaseMails.sentAt,
      createdAt: t.chaseMails.createdAt,
      chaseIds: t.chaseMails.chaseIds,
    })
    .from(t.chaseMails)
    .where(opts.status ? eq(t.chaseMails.status, opts.status as never) : undefined)
    .orderBy(sql`${t.chaseMails.id} desc`)
    .limit(Math.min(1000, opts.limit ?? 100));
  return rows;
}
