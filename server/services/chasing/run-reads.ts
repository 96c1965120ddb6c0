/**
 * What a chase run reads before it decides (docs/chasing.md "Runs"): the funds to look at, the facts
 * the evaluation needs of each (newest inputs, check failures, busy jobs, open chases), and the
 * address book its mails go to. Dialect-neutral: SQLite and PostgreSQL (storeOf).
 */
import { and, desc, eq, gte, inArray, isNotNull, lte, ne } from 'drizzle-orm';
import { OPEN_CHASE_STATES, type ChaseState } from '../../../rules/chasing.js';
import type { QaMapping, QaRec } from '../../../pipeline/sdm/rows.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import type { ChaseRecipient } from '../../db/schema/chasing.js';
import { requiredInputTypes } from '../funds/derive.js';
import { emailKey } from './addresses.js';
import { CHASED_FUND_STATUSES, type FundFactsForChasing, type OpenChaseFacts } from './evaluate.js';
import { checkFailures } from './evidence.js';
import { isoDayAfter, type ChaseSchedule } from './schedule.js';

const CHUNK = 500;
/** Splits a list into parts of 500 (the ids of one `IN (...)` query or the rows of one insert). */
export const chunks = <T>(xs: T[]) => Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

/** Roles of a fund's own recipients that are chased as its data contacts (the reference list's TPA and client contacts). */
const CHASED_RECIPIENT_ROLES = new Set(['tpacontact', 'clientcontact']);

/** Funds the run looks at (see the module's doc). */
export async function candidateFunds(ctx: AppContext, today: string, schedules: ChaseSchedule[]): Promise<number[]> {
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

/** The fund request columns a run needs of each fund it looks at. */
export type FundRow = {
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
export async function loadFacts(ctx: AppContext, ids: number[]) {
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
export async function loadRecipients(ctx: AppContext, fundIds: number[]) {
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

/** A fund's recipients for a mail, as `loadRecipients` returns them. */
export type RecipientsOf = Awaited<ReturnType<typeof loadRecipients>>;
