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
import { and, desc, eq, gte, inArray, isNotNull, lte, ne } from 'drizzle-orm';
import { OPEN_CHASE_STATES, type ChaseState } from '../../../rules/chasing.js';
import type { QaMapping, QaRec } from '../../../pipeline/sdm/rows.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { ChaseRecipient } from '../../db/schema/chasing.js';
import { transaction } from '../../db/tx.js';
import { publicBaseUrl } from '../../public-url.js';
import { recordAudit } from '../audit/audit-log.js';
import { requiredInputTypes } from '../funds/derive.js';
import { todayIso } from '../../lib/dates.js';
import { emailKey } from './addresses.js';
import { renderDigest, type DigestChase } from './digest.js';
import { CHASED_FUND_STATUSES, evaluateFund, reviewChanges, type ChaseChange, type Due, type FundFactsForChasing, type OpenChaseFacts } from './evaluate.js';
import { checkFailures } from './evidence.js';
import { recordChaseEvents, type ChaseActor, type ChaseRef } from './history.js';
import { installSchedule, isoDayAfter, tpaSchedules, type ChaseSchedule } from './schedule.js';

const CHUNK = 500;
const chunks = <T>(xs: T[]) => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

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

export interface ChaseRunResult {
  runId: number | null;
  asOf: string;
  dryRun: boolean;
  counts: { funds: number; opened: number; reminded: number; reopened: number; resolved: number; cancelled: number; mails: number; withoutRecipients: number };
  mails: MailPreview[];
}

/** Roles of a fund's own recipients that are chased as its data contacts (the reference list's TPA and client contacts). */
const CHASED_RECIPIENT_ROLES = new Set(['tpacontact', 'clientcontact']);

/** The base of links in mails: `publicUrl`, else the listening address. */
export const mailBaseUrl = (ctx: AppContext) => publicBaseUrl(ctx.config).url;

/** Funds the run looks at (see the module's doc). */
async function candidateFunds(ctx: AppContext, today: string, schedules: ChaseSchedule[]): Promise<number[]> {
  const { db, tables: t } = storeOf(ctx);
  const first = Math.min(...schedules.map((s) => s.offsets[0]!));
  const last = Math.max(...schedules.map((s) => s.offsets.at(-1)!));
  const ids = new Set<number>();
  const inWindow = await db
    .select({ id: t.fundRequests.id })
    .from(t.fundRequests)
    .where(
      and(
        inArray(t.fundRequests.status, CHASED_FUND_STATUSES as never[]),
        gte(t.fundRequests.dueDate, isoDayAfter(today, -last)),
        lte(t.fundRequests.dueDate, isoDayAfter(today, -first)),
      ),
    );
  for (const r of inWindow) ids.add(r.id);
  const open = await db
    .selectDistinct({ id: t.chases.fundRequestId })
    .from(t.chases)
    .where(inArray(t.chases.state, OPEN_CHASE_STATES as ChaseState[]));
  for (const r of open) ids.add(r.id);
  // checks that ran since the previous run began (a day before it, for jobs queued earlier and finished after)
  const [prev] = await db
    .select({ startedAt: t.chaseRuns.startedAt })
    .from(t.chaseRuns)
    .where(ne(t.chaseRuns.trigger, 'review'))
    .orderBy(desc(t.chaseRuns.id))
    .limit(1);
  const since = prev ? new Date(Date.parse(prev.startedAt) - 86_400_000).toISOString() : isoDayAfter(today, -7);
  const checked = await db
    .selectDistinct({ id: t.processes.fundRequestId })
    .from(t.processes)
    .where(
      and(
        eq(t.processes.status, 'done'),
        gte(t.processes.processAt, since),
        inArray(t.processes.stage, ['standardization', 'calculations']),
        isNotNull(t.processes.fundRequestId),
      ),
    );
  for (const r of checked) if (r.id !== null) ids.add(r.id);
  return [...ids].sort((a, b) => a - b);
}

type FundRow = {
  id: number;
  name: string;
  client: string;
  status: string;
  dueDate: string | null;
  jobType: string | null;
  administratorId: number | null;
  currency: string | null;
};

/** Everything the evaluation needs of some funds, in a few queries per 500. */
async function loadFacts(ctx: AppContext, ids: number[]) {
  const { db, tables: t } = storeOf(ctx);
  const funds = new Map<number, FundRow>();
  const facts = new Map<number, FundFactsForChasing>();
  const open = new Map<number, Array<OpenChaseFacts & { recipients: ChaseRecipient[] }>>();
  const codes = new Map<number, string>();
  for (const part of chunks(ids)) {
    const rows = await db
      .select({
        id: t.fundRequests.id,
        name: t.fundRequests.name,
        client: t.fundRequests.client,
        status: t.fundRequests.status,
        dueDate: t.fundRequests.dueDate,
        jobType: t.fundRequests.jobType,
        administratorId: t.fundRequests.administratorId,
        currency: t.fundRequests.currency,
      })
      .from(t.fundRequests)
      .where(inArray(t.fundRequests.id, part));
    for (const r of rows) {
      funds.set(r.id, r);
      facts.set(r.id, {
        id: r.id,
        status: r.status,
        dueDate: r.dueDate,
        required: requiredInputTypes(r.jobType),
        newestInputs: new Map(),
        failures: null,
        checked: { calculation: false, standardization: false },
        busy: false,
      });
    }
    for (const c of await db
      .select({ f: t.fundCodes.fundRequestId, code: t.fundCodes.code })
      .from(t.fundCodes)
      .where(and(inArray(t.fundCodes.fundRequestId, part), eq(t.fundCodes.main, true))))
      codes.set(c.f, c.code);
    const inputs = await db
      .select({
        id: t.fundFiles.id,
        f: t.fundFiles.fundRequestId,
        type: t.fundFiles.fileType,
        disabled: t.fundFiles.disabled,
        createdAt: t.fundFiles.createdAt,
      })
      .from(t.fundFiles)
      .where(and(inArray(t.fundFiles.fundRequestId, part), eq(t.fundFiles.kind, 'input')));
    for (const i of inputs) {
      const x = facts.get(i.f)!;
      const prev = x.newestInputs.get(i.type);
      if (!prev || prev.id < i.id) x.newestInputs.set(i.type, { id: i.id, disabled: i.disabled, createdAt: i.createdAt });
    }
    // a disabled newest file is not required: it is neither missing nor received
    for (const [, x] of facts)
      for (const [type, f] of x.newestInputs)
        if (f.disabled) {
          x.required = x.required.filter((r) => r !== type);
        }
    const outputs = await db
      .select({ f: t.fundFiles.fundRequestId, kind: t.fundFiles.kind, validation: t.fundFiles.validation })
      .from(t.fundFiles)
      .where(and(inArray(t.fundFiles.fundRequestId, part), inArray(t.fundFiles.kind, ['calculation', 'standardization'])));
    const qa = new Map<number, { rec: QaRec[] | null; mapping: QaMapping[] }>();
    for (const o of outputs) {
      const x = facts.get(o.f)!;
      const q = qa.get(o.f) ?? { rec: null, mapping: [] };
      const v = (o.validation ?? {}) as { QA_Rec?: QaRec[]; QA_Mapping?: QaMapping[] };
      if (o.kind === 'calculation') {
        x.checked.calculation = true;
        q.rec = v.QA_Rec ?? [];
      } else {
        x.checked.standardization = true;
        q.mapping.push(...(v.QA_Mapping ?? []));
      }
      qa.set(o.f, q);
    }
    for (const [f, q] of qa) facts.get(f)!.failures = checkFailures(q.rec, q.mapping, funds.get(f)?.currency ?? null);
    const busy = await db
      .selectDistinct({ f: t.processes.fundRequestId })
      .from(t.processes)
      .where(
        and(
          inArray(t.processes.fundRequestId, part),
          inArray(t.processes.status, ['pending', 'running']),
          inArray(t.processes.stage, ['import', 'identification', 'standardization', 'calculations']),
        ),
      );
    for (const b of busy) if (b.f !== null && facts.has(b.f)) facts.get(b.f)!.busy = true;
    const chases = await db
      .select()
      .from(t.chases)
      .where(and(inArray(t.chases.fundRequestId, part), inArray(t.chases.state, OPEN_CHASE_STATES as ChaseState[])));
    for (const c of chases) open.set(c.fundRequestId, [...(open.get(c.fundRequestId) ?? []), c]);
  }
  return { funds, facts, open, codes };
}

/** The address book: contacts by TPA and by client, and the chased recipients of the funds given. */
async function loadRecipients(ctx: AppContext, fundIds: number[]) {
  const { db, tables: t } = storeOf(ctx);
  const byAdmin = new Map<number, ChaseRecipient[]>();
  const byClient = new Map<string, ChaseRecipient[]>();
  for (const c of await db.select().from(t.contacts)) {
    const r: ChaseRecipient = { email: c.email, name: c.fullName, role: c.role, timeZone: c.timeZone, from: c.administratorId ? 'tpa' : 'client' };
    if (c.administratorId) byAdmin.set(c.administratorId, [...(byAdmin.get(c.administratorId) ?? []), r]);
    else if (c.client) byClient.set(c.client.toLowerCase(), [...(byClient.get(c.client.toLowerCase()) ?? []), r]);
  }
  const byFund = new Map<number, ChaseRecipient[]>();
  for (const part of chunks(fundIds))
    for (const r of await db.select().from(t.recipients).where(inArray(t.recipients.fundRequestId, part)))
      if (CHASED_RECIPIENT_ROLES.has(r.role.toLowerCase()))
        byFund.set(r.fundRequestId, [...(byFund.get(r.fundRequestId) ?? []), { email: r.email, name: r.fullName, role: 'data', timeZone: null, from: 'fund' }]);
  /** A fund's recipients for a mail (data contacts; escalation ones too when asked), one per address. */
  return (fund: FundRow, escalate: boolean): ChaseRecipient[] => {
    const all = [
      ...(fund.administratorId ? (byAdmin.get(fund.administratorId) ?? []) : []),
      ...(byClient.get(fund.client.toLowerCase()) ?? []),
      ...(byFund.get(fund.id) ?? []),
    ];
    const seen = new Set<string>();
    return all.filter((r) => (r.role === 'data' || escalate) && !seen.has(emailKey(r.email)) && seen.add(emailKey(r.email)));
  };
}

type Planned = { change: ChaseChange; fund: FundRow; chase?: OpenChaseFacts & { recipients: ChaseRecipient[] } };

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

/**
 * The digests of a run: for every recipient of a chase due today, one mail with all their open
 * chases. With a run id they are written to the outbox with their notices; without, only built.
 */
async function digests(
  ctx: AppContext,
  planned: Planned[],
  recipientsOf: Awaited<ReturnType<typeof loadRecipients>>,
  codes: Map<number, string>,
  at: string,
  counts: ChaseRunResult['counts'],
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
