/**
 * The digests of a chase run (docs/chasing.md "Runs"): one mail per recipient of a chase due today,
 * listing all their open chases, written to the outbox with a notice per due chase (or only built,
 * for a dry run). Dialect-neutral: SQLite and PostgreSQL (storeOf).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { OPEN_CHASE_STATES, type ChaseState } from '../../../rules/chasing.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { ChaseRecipient } from '../../db/schema/chasing.js';
import { publicBaseUrl } from '../../public-url.js';
import { emailKey } from './addresses.js';
import { renderDigest, type DigestChase } from './digest.js';
import type { ChaseChange, Due, OpenChaseFacts } from './evaluate.js';
import { chunks, type FundRow, type RecipientsOf } from './run-reads.js';

/** One mail of a run, as a dry run prints it. */
export interface MailPreview {
  to: string;
  name: string;
  subject: string;
  chaseIds: number[];
  dueChaseIds: number[];
  attachments: string[];
  text: string;
}

/** The base of links in mails: `publicUrl`, else the listening address. */
export const mailBaseUrl = (ctx: AppContext) => publicBaseUrl(ctx.config).url;

/** One decided change of a run, with its fund and (once written or already open) its chase. */
export type Planned = { change: ChaseChange; fund: FundRow; chase?: OpenChaseFacts & { recipients: ChaseRecipient[] } };

/**
 * The digests of a run: for every recipient of a chase due today, one mail with all their open
 * chases. With a run id they are written to the outbox with their notices; without, only built.
 */
export async function digests(
  ctx: AppContext,
  planned: Planned[],
  recipientsOf: RecipientsOf,
  codes: Map<number, string>,
  at: string,
  counts: { withoutRecipients: number },
  runId: number | null,
): Promise<Array<{ preview: MailPreview }>> {
  const { db, tables: t } = storeOf(ctx);
  const due = new Map<string, { recipient: ChaseRecipient; chases: Map<number, Due> }>();
  const dueChase = new Map<number, Planned>();
  for (const p of planned) {
    const d = p.change.kind === 'close' ? undefined : p.change.due;
    if (!d) continue;
    const rs = p.chase?.recipients ?? recipientsOf(p.fund, d.escalate);
    if (!rs.length) {
      counts.withoutRecipients++;
      continue;
    }
    const id = p.chase?.id ?? -dueChase.size - 1;
    dueChase.set(id, p);
    for (const r of rs) {
      const k = emailKey(r.email);
      const entry = due.get(k) ?? { recipient: r, chases: new Map() };
      entry.chases.set(id, d);
      due.set(k, entry);
    }
  }
  if (!due.size) return [];
  // every open chase of these recipients, the ones not due today included (one digest per recipient)
  const others = new Map<string, Array<{ id: number; fundRequestId: number }>>();
  const openRows = await db
    .select({ id: t.chases.id, fundRequestId: t.chases.fundRequestId, recipients: t.chases.recipients })
    .from(t.chases)
    .where(inArray(t.chases.state, OPEN_CHASE_STATES as ChaseState[]));
  for (const c of openRows)
    for (const r of c.recipients) {
      const k = emailKey(r.email);
      if (due.has(k)) others.set(k, [...(others.get(k) ?? []), c]);
    }
  const neededIds = [
    ...new Set(
      Array.from(others, ([, c]) => c)
        .flat()
        .map((c) => c.id),
    ),
  ].filter((id) => !dueChase.has(id));
  const detail = new Map<number, DigestChase>();
  const fundIds = new Set<number>(Array.from(dueChase, ([, p]) => p.fund.id));
  const extra = new Map<
    number,
    { id: number; fundRequestId: number; reason: string; message: string; evidence: unknown; createdAt: string; evidenceBlobKey: string | null }
  >();
  for (const part of chunks(neededIds))
    for (const c of await db.select().from(t.chases).where(inArray(t.chases.id, part))) {
      extra.set(c.id, c);
      fundIds.add(c.fundRequestId);
    }
  const fundInfo = new Map<number, { name: string; client: string; dueDate: string | null; admin: string | null; code: string | null }>();
  const admins = new Map((await db.select().from(t.administrators)).map((a) => [a.id, a.name]));
  for (const part of chunks([...fundIds])) {
    for (const f of await db
      .select({
        id: t.fundRequests.id,
        name: t.fundRequests.name,
        client: t.fundRequests.client,
        dueDate: t.fundRequests.dueDate,
        administratorId: t.fundRequests.administratorId,
      })
      .from(t.fundRequests)
      .where(inArray(t.fundRequests.id, part)))
      fundInfo.set(f.id, {
        name: f.name,
        client: f.client,
        dueDate: f.dueDate,
        admin: f.administratorId ? (admins.get(f.administratorId) ?? null) : null,
        code: codes.get(f.id) ?? null,
      });
    for (const c of await db
      .select({ f: t.fundCodes.fundRequestId, code: t.fundCodes.code })
      .from(t.fundCodes)
      .where(and(inArray(t.fundCodes.fundRequestId, part), eq(t.fundCodes.main, true))))
      if (fundInfo.get(c.f) && !fundInfo.get(c.f)!.code) fundInfo.get(c.f)!.code = c.code;
  }
  const csvOf = new Map<number, string | null>();
  const digestChase = (id: number, dueNote: string | null): DigestChase => {
    const p = dueChase.get(id);
    const x = extra.get(id);
    const fundId = p?.fund.id ?? x!.fundRequestId;
    const info = fundInfo.get(fundId)!;
    const c = p?.change.kind === 'open' ? p.change : undefined;
    const evidence = (p?.chase?.evidence ?? c?.evidence ?? x?.evidence ?? {}) as DigestChase['evidence'];
    const blob = (p?.chase as { evidenceBlobKey?: string | null } | undefined)?.evidenceBlobKey ?? x?.evidenceBlobKey ?? null;
    csvOf.set(id, blob);
    const base = { ...detail.get(id) };
    return {
      ...base,
      id,
      fundRequestId: fundId,
      fundName: info.name,
      fundCode: info.code,
      client: info.client,
      administrator: info.admin,
      dueDate: info.dueDate,
      reason: (p?.chase?.reason ?? c?.reason ?? x!.reason) as DigestChase['reason'],
      message:
        (p?.change.kind === 'update' ? p.change.message : undefined) ??
        c?.message ??
        (p?.chase as { message?: string } | undefined)?.message ??
        x?.message ??
        '',
      evidence,
      openedAt: p?.chase?.createdAt ?? x?.createdAt ?? at,
      dueNote,
      attachment: blob || c?.csv ? `chase-${id > 0 ? id : 'new'}-${(evidence.check ?? 'rows').replace(/[^a-z_]/gi, '')}.csv` : null,
    };
  };
  const baseUrl = mailBaseUrl(ctx);
  const out: Array<{ preview: MailPreview }> = [];
  for (const [k, entry] of due) {
    const dueIds = [...entry.chases.keys()];
    const restIds = (others.get(k) ?? []).map((c) => c.id).filter((id) => !entry.chases.has(id));
    const list = [...dueIds.map((id) => digestChase(id, entry.chases.get(id)!.note)), ...[...new Set(restIds)].map((id) => digestChase(id, null))];
    const to = { name: entry.recipient.name, timeZone: entry.recipient.timeZone };
    const { subject, html, text } = renderDigest(to, list, baseUrl, at);
    const attachments = list.filter((c) => c.attachment && csvOf.get(c.id)).map((c) => ({ filename: c.attachment!, blobKey: csvOf.get(c.id)! }));
    const preview: MailPreview = {
      to: entry.recipient.email,
      name: entry.recipient.name,
      subject,
      chaseIds: list.map((c) => c.id),
      dueChaseIds: dueIds,
      attachments: list.filter((c) => c.attachment).map((c) => c.attachment!),
      text,
    };
    out.push({ preview });
    if (runId === null) continue;
    const key = `run:${runId}:to:${k}`;
    const [m] = await db
      .insert(t.chaseMails)
      .values({
        runId,
        idempotencyKey: key,
        toEmail: entry.recipient.email,
        toName: entry.recipient.name,
        timeZone: entry.recipient.timeZone,
        chaseIds: list.map((c) => c.id),
        subject,
        text,
        html,
        attachments,
        messageId: `<chase-run-${runId}-${Buffer.from(k).toString('hex').slice(0, 40)}@fund-audit>`,
      })
      .returning({ id: t.chaseMails.id });
    await db.insert(t.chaseNotices).values(dueIds.map((chaseId) => ({ chaseId, runId, mailId: m!.id, toEmail: k })));
  }
  return out;
}
