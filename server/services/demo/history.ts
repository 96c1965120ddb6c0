/**
 * A year of delivery history for the demo TPAs (docs/scorecards.md), so that a first start shows
 * scorecards with trends and open chases: for each demo TPA but `demo_test`, each of its real fund
 * requests gets a fund request per month of the last 12 (this month included), a monthly
 * reporting period of the same fund (period end the month's last day before, data due on the 30th
 * of the month after it, as the real requests), with the files received on time or late (each TPA its own
 * habits), the runs of the checks, a failed trial-balance check chased and answered by a corrected
 * file, and the missing-files chases of the late months, sent on the install's schedule and
 * answered by the files. This month's requests are still open, with their chases.
 *
 * Everything is marked the demo's, as the rest of the demo data: the requests' creation trail entry
 * has the action `demo` (a demo reset leaves these TPAs' requests alone, as their real ones), the
 * delivery events are `source` 'demo', and the chases go with their requests. Only
 * the timing is generated (a fixed pattern per TPA, no random numbers): the funds, clients and
 * codes are the real requests' (N-PORT filings).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { recordChaseEvents } from '../chasing/history.js';
import { installSchedule, isoDayAfter } from '../chasing/schedule.js';
import { requiredInputTypes } from '../funds/derive.js';
import { DEMO_ACTION, DEMO_TPA } from './cleanup.js';

/** Months of history, this month included. */
export const DEMO_HISTORY_MONTHS = 12;

/**
 * When the last required file of each month's request arrives, in days after its data due date
 * (negative: before; null: not yet, its chase still open), oldest month first; one pattern per
 * demo TPA in code order, repeated.
 */
const LATENESS: ReadonlyArray<ReadonlyArray<number | null>> = [
  [-3, -1, 0, -2, 2, -4, -1, 5, -2, 0, -3, -1],
  [1, 4, -2, 7, 3, 0, 9, 2, -1, 6, null, 2],
];
/** Months (index from the oldest) whose first complete delivery fails the trial balance check, per pattern. */
const FAILED = [[6], [3, 8]];
/** The check that fails: the trial balance does not balance. */
const FAILED_CHECK = 'tb_balance';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const dayMs = (isoDay: string) => Date.parse(`${isoDay}T00:00:00Z`);

/** The last day of the month before `month` months from now's month (0: last month's last day), ISO date. */
function periodEndOf(now: Date, monthsAgo: number): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 0)).toISOString().slice(0, 10);
}

/** The data due date of a period: the 30th of the month after its end (its last day in February), as the real requests'. */
function dueDateOf(periodEnd: string): string {
  const [y, m] = periodEnd.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(30, last))).toISOString().slice(0, 10);
}

/** What the history wrote. */
export interface DemoHistory {
  fundRequests: number;
  deliveryEvents: number;
  chases: number;
}

/**
 * Writes the demo's year of history, once (TPAs whose requests already have demo history are skipped).
 * @param codes the demo TPAs' codes (`demo_test` is left out: demo mode's steps work on it)
 * @param now the day the history ends (default now)
 */
export async function seedDemoHistory(ctx: AppContext, codes: string[], now = new Date()): Promise<DemoHistory> {
  const written: DemoHistory = { fundRequests: 0, deliveryEvents: 0, chases: 0 };
  const wanted = codes.filter((c) => c !== DEMO_TPA).sort();
  if (!wanted.length) return written;
  const schedule = installSchedule(ctx);
  const nowMs = now.getTime();
  await transaction(ctx, async (db) => {
    const { tables: t } = storeOf(ctx);
    const admins = (await db.select().from(t.administrators).where(inArray(t.administrators.code, wanted))).sort((a, b) => a.code.localeCompare(b.code));
    for (const [ai, admin] of admins.entries()) {
      const already = await db
        .select({ id: t.deliveryEvents.id })
        .from(t.deliveryEvents)
        .innerJoin(t.fundRequests, eq(t.fundRequests.id, t.deliveryEvents.fundRequestId))
        .where(and(eq(t.fundRequests.administratorId, admin.id), eq(t.deliveryEvents.source, 'demo')))
        .limit(1);
      if (already.length) continue;
      const templates = await db
        .select()
        .from(t.fundRequests)
        .where(and(eq(t.fundRequests.administratorId, admin.id), ne(t.fundRequests.status, 'Deleted')));
      const contacts = await db.select().from(t.contacts).where(eq(t.contacts.administratorId, admin.id));
      const recipients = contacts.map((c) => ({ email: c.email, name: c.fullName, role: c.role, timeZone: c.timeZone, from: 'tpa' as const }));
      const lateness = LATENESS[ai % LATENESS.length]!;
      const failed = FAILED[ai % FAILED.length]!;
      for (const template of templates) {
        const [code] = await db
          .select({ code: t.fundCodes.code })
          .from(t.fundCodes)
          .where(and(eq(t.fundCodes.fundRequestId, template.id), eq(t.fundCodes.main, true)))
          .limit(1);
        const required = requiredInputTypes(template.jobType);
        for (let m = 0; m < DEMO_HISTORY_MONTHS; m++) {
          const periodEnd = periodEndOf(now, DEMO_HISTORY_MONTHS - 1 - m);
          const dueDate = dueDateOf(periodEnd);
          const dueMs = dayMs(dueDate);
          const days = lateness[m] ?? null;
          // a file still missing: the others came the day after the due date
          const lastAt = days === null ? Number.POSITIVE_INFINITY : dueMs + days * DAY_MS + 10 * 3_600_000;
          const othersBefore = days === null ? dueMs + 2 * DAY_MS + 10 * 3_600_000 : lastAt;
          const complete = lastAt <= nowMs;
          const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = template;
          const [fund] = await db
            .insert(t.fundRequests)
            .values({
              ...fields,
              status: complete ? 'Completed - Fund Closed' : 'Approved',
              periodStart: `${periodEnd.slice(0, 7)}-01`,
              periodEnd,
              dueDate,
              navCloseDate: periodEnd,
              auditStartDate: dueDate,
              requestDate: periodEnd,
              createdAt: iso(dayMs(periodEnd)),
              updatedAt: iso(Math.min(nowMs, lastAt)),
            })
            .returning();
          const fundId = fund!.id;
          written.fundRequests++;
          if (code) await db.insert(t.fundCodes).values({ fundRequestId: fundId, code: `${code.code}-${periodEnd.slice(0, 7)}`, main: true });
          await db
            .insert(t.trail)
            .values({ fundRequestId: fundId, action: DEMO_ACTION, after: { name: fund!.name, periodEnd }, createdAt: iso(dayMs(periodEnd)) });

          // the files: the last required one at `lastAt`, the others one to three days before
          const arrivals = required
            .map((type, i) => ({ type, at: i === required.length - 1 ? lastAt : othersBefore - (required.length - 1 - i) * DAY_MS }))
            .filter((a) => a.at <= nowMs);
          const events: Array<typeof t.deliveryEvents.$inferInsert> = [];
          for (const a of arrivals)
            events.push({ fundRequestId: fundId, kind: 'received', at: iso(a.at), fileType: a.type, fileName: `${a.type}_${periodEnd}.csv`, source: 'demo' });
          const fails = failed.includes(m);
          const checkedAt = lastAt + 3_600_000;
          // the history is events alone: no stored file stands behind them (file id 0)
          const judged = required.map((fileType) => ({ fundFileId: 0, fileType }));
          let redelivery: number | null = null;
          if (complete && checkedAt <= nowMs) {
            events.push({
              fundRequestId: fundId,
              kind: 'checked',
              at: iso(checkedAt),
              outcome: fails ? 'failed' : 'passed',
              failedChecks: fails ? [FAILED_CHECK] : [],
              inputs: judged,
              complete: true,
              firstDelivery: true,
              source: 'demo',
            });
            if (fails) {
              redelivery = checkedAt + 2 * DAY_MS;
              if (redelivery <= nowMs) {
                events.push(
                  {
                    fundRequestId: fundId,
                    kind: 'received',
                    at: iso(redelivery),
                    fileType: 'trial_balance',
                    fileName: `trial_balance_${periodEnd}_corrected.csv`,
                    source: 'demo',
                  },
                  {
                    fundRequestId: fundId,
                    kind: 'checked',
                    at: iso(redelivery + 3_600_000),
                    outcome: 'passed',
                    failedChecks: [],
                    inputs: judged,
                    complete: true,
                    firstDelivery: false,
                    source: 'demo',
                  },
                );
              } else redelivery = null;
            }
          }
          if (events.length) await db.insert(t.deliveryEvents).values(events);
          written.deliveryEvents += events.length;

          // missing files: chased on the schedule's days from before the due date until the files came
          const steps = schedule.offsets.map((o) => dayMs(isoDayAfter(dueDate, o)) + 7 * 3_600_000).filter((at) => at < Math.min(lastAt, nowMs));
          if (steps.length && (lastAt > dueMs || !complete)) {
            const missing = required.filter((type) => !arrivals.some((a) => a.at <= steps[0]!));
            const answered = complete ? lastAt : null;
            written.chases += await chase(ctx, {
              fund: { id: fundId, administratorId: admin.id, client: fund!.client },
              reason: 'missing_files',
              key: 'missing_files',
              message: `Missing: ${missing.join(', ')} (data due ${dueDate})`,
              evidence: { missingTypes: missing },
              recipients,
              sent: steps,
              answeredAt: answered,
              resolvedAt: answered === null ? null : answered + 3_600_000,
            });
          }
          // a failed check: chased the next morning, answered by the corrected trial balance
          if (fails && complete && checkedAt <= nowMs) {
            const sentAt = checkedAt + 12 * 3_600_000;
            written.chases += await chase(ctx, {
              fund: { id: fundId, administratorId: admin.id, client: fund!.client },
              reason: 'failed_check',
              key: `failed_check:${FAILED_CHECK}`,
              message: 'The trial balance does not balance: debits and credits differ',
              evidence: { check: FAILED_CHECK, checkLabel: 'Trial balance balances' },
              recipients,
              sent: sentAt <= nowMs ? [sentAt] : [],
              answeredAt: redelivery,
              resolvedAt: redelivery === null ? null : redelivery + 3_600_000,
            });
          }
        }
      }
    }
  });
  return written;
}

/** Writes one chase of the history with its state changes; returns 1. */
async function chase(
  ctx: AppContext,
  c: {
    fund: { id: number; administratorId: number; client: string };
    reason: 'missing_files' | 'failed_check';
    key: string;
    message: string;
    evidence: Record<string, unknown>;
    recipients: Array<{ email: string; name: string; role: 'data' | 'escalation'; timeZone: string | null; from: 'tpa' }>;
    /** when each mail went (epoch ms) */
    sent: number[];
    answeredAt: number | null;
    resolvedAt: number | null;
  },
): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const opened = c.sent[0] ?? Date.now();
  const state = c.resolvedAt !== null ? 'resolved' : c.answeredAt !== null ? 'answered' : c.sent.length ? 'sent' : 'scheduled';
  const [row] = await db
    .insert(t.chases)
    .values({
      fundRequestId: c.fund.id,
      administratorId: c.fund.administratorId,
      client: c.fund.client,
      reason: c.reason,
      key: c.key,
      state,
      message: c.message,
      evidence: c.evidence,
      recipients: c.recipients,
      remindersSent: c.sent.length,
      lastSentAt: c.sent.length ? iso(c.sent.at(-1)!) : null,
      answeredAt: c.answeredAt === null ? null : iso(c.answeredAt),
      closedAt: c.resolvedAt === null ? null : iso(c.resolvedAt),
      createdAt: iso(opened),
      updatedAt: iso(c.resolvedAt ?? c.answeredAt ?? c.sent.at(-1) ?? opened),
    })
    .returning();
  await recordChaseEvents(ctx, [
    { chase: row!, state: 'scheduled', at: iso(opened), note: `opened: ${c.message}` },
    ...c.sent.map((at, i) => ({ chase: row!, state: 'sent' as const, at: iso(at), note: `mail ${i + 1} of ${c.sent.length}` })),
    ...(c.answeredAt === null ? [] : [{ chase: row!, state: 'answered' as const, at: iso(c.answeredAt), note: 'the file was delivered' }]),
    ...(c.resolvedAt === null ? [] : [{ chase: row!, state: 'resolved' as const, at: iso(c.resolvedAt), note: 'the delivery passed its checks' }]),
  ]);
  return 1;
}
