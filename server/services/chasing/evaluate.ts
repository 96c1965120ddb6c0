/**
 * How chasing decides for one fund request (docs/chasing.md "How chasing decides"): from what the
 * product already knows of it (required input types and the newest file of each, the checks of its
 * latest delivery, its open chases), which chases to open, remind, move back from answered,
 * resolve or cancel today. A pure function: `run.ts` loads the facts and writes the outcome.
 */
import { CHASED_FUND_STATUSES, type ChaseReason, type ChaseState } from '../../../rules/chasing.js';
import type { ChaseEvidence } from '../../db/schema/chasing.js';
import type { CheckFailure } from './evidence.js';
import { dayNumber, isoDayAfter, reminderPlan, type ChaseSchedule } from './schedule.js';

/** Fund statuses that are chased (rules/chasing.ts); a chase of a fund in any other status is cancelled. */
export { CHASED_FUND_STATUSES };

/** What the evaluation knows of one fund. */
export interface FundFactsForChasing {
  id: number;
  status: string;
  dueDate: string | null;
  /** Required SDM input types (`requiredInputTypes` of its job type). */
  required: string[];
  /** The newest input file of each type: id, disabled (= not required), created. */
  newestInputs: Map<string, { id: number; disabled: boolean; createdAt: string }>;
  /** The chaseable failures of its latest delivery; null when no delivery has been checked yet. */
  failures: Map<string, CheckFailure> | null;
  /** Whether a calculation file exists (the checks ran) and a standardization file (codes were mapped). */
  checked: { calculation: boolean; standardization: boolean };
  /** A pipeline job of the fund is pending or running (an answer is still being processed). */
  busy: boolean;
}

/** An open chase as the evaluation sees it. */
export interface OpenChaseFacts {
  id: number;
  reason: ChaseReason;
  key: string;
  state: ChaseState;
  fundFileId: number | null;
  remindersSent: number;
  nextReminderOn: string | null;
  createdAt: string;
  answeredAt: string | null;
  evidence: ChaseEvidence;
}

/** That a chase goes into today's mails, and how. */
export interface Due {
  /** The how-manyth mail of this chase it is (1 = first). */
  mailNumber: number;
  /** Whether escalation contacts get it. */
  escalate: boolean;
  /** A few words for the timeline and the mail ('reminder 2 of 4', 'first notice'). */
  note: string;
}

export type ChaseChange =
  | {
      kind: 'open';
      reason: ChaseReason;
      key: string;
      message: string;
      evidence: ChaseEvidence;
      csv: string | null;
      fundFileId: number | null;
      remindersSent: number;
      nextReminderOn: string | null;
      due: Due;
    }
  | {
      kind: 'update';
      chaseId: number;
      /** A state change to record (back to scheduled after an answer that did not fix it). */
      state?: ChaseState;
      note?: string;
      message?: string;
      evidence?: ChaseEvidence;
      csv?: string | null;
      remindersSent?: number;
      nextReminderOn?: string | null;
      due?: Due;
    }
  | { kind: 'close'; chaseId: number; state: 'resolved' | 'cancelled'; note: string };

/** Follow-up days of a chase that is not about missing files: the schedule's days after the due date, counted from its first mail. */
const followUps = (schedule: ChaseSchedule) => schedule.offsets.filter((o) => o > 0);

/** The next follow-up day after mail `sent` of a failed-check or returned chase (null: none left). */
export function nextFollowUp(firstOn: string, schedule: ChaseSchedule, sent: number): string | null {
  const days = followUps(schedule)[sent - 1];
  return days === undefined ? null : isoDayAfter(firstOn, days);
}

function followUpDue(c: OpenChaseFacts, schedule: ChaseSchedule, today: string): Due | null {
  if (!c.nextReminderOn || dayNumber(c.nextReminderOn) > dayNumber(today)) return null;
  const mailNumber = c.remindersSent + 1;
  return { mailNumber, escalate: mailNumber - 1 >= schedule.escalateFrom, note: mailNumber === 1 ? 'first notice' : `reminder ${mailNumber - 1}` };
}

/**
 * Decides today's changes for one fund.
 * @param today ISO date the run chases for
 * @returns the changes, in no particular order (at most one per chase, one open per key)
 */
export function evaluateFund(fund: FundFactsForChasing, open: OpenChaseFacts[], schedule: ChaseSchedule, today: string): ChaseChange[] {
  const out: ChaseChange[] = [];
  if (!CHASED_FUND_STATUSES.includes(fund.status) || !schedule.enabled) {
    const why = schedule.enabled ? `the fund request is ${fund.status}` : "the TPA's chasing is switched off";
    for (const c of open) out.push({ kind: 'close', chaseId: c.id, state: 'cancelled', note: why });
    return out;
  }
  const byKey = new Map(open.map((c) => [c.key, c]));
  const answerProcessed = (c: OpenChaseFacts) => c.state === 'answered' && !fund.busy;

  // (a) files missing as the due date nears or passes
  const missing = fund.required.filter((type) => !fund.newestInputs.has(type));
  const missingChase = byKey.get('missing_files');
  if (missing.length && fund.dueDate) {
    const evidence: ChaseEvidence = { missingTypes: missing };
    const message = `Missing: ${missing.join(', ')} (data due ${fund.dueDate})`;
    if (!missingChase) {
      const plan = reminderPlan(fund.dueDate, schedule, today, 0);
      if (plan.dueStep !== null)
        out.push({
          kind: 'open',
          reason: 'missing_files',
          key: 'missing_files',
          message,
          evidence,
          csv: null,
          fundFileId: null,
          remindersSent: plan.dueStep + 1,
          nextReminderOn: plan.nextOn,
          due: { mailNumber: 1, escalate: plan.escalate, note: stepNote(schedule, plan.dueStep) },
        });
    } else if (missingChase.state !== 'answered' || answerProcessed(missingChase)) {
      const plan = reminderPlan(fund.dueDate, schedule, today, missingChase.remindersSent);
      const reopened = missingChase.state === 'answered';
      const due: Due | undefined =
        plan.dueStep !== null
          ? { mailNumber: missingChase.remindersSent + 1, escalate: plan.escalate, note: stepNote(schedule, plan.dueStep) }
          : reopened
            ? { mailNumber: missingChase.remindersSent + 1, escalate: false, note: `still missing after the answer: ${missing.join(', ')}` }
            : undefined;
      const changed = missing.join(',') !== (missingChase.evidence.missingTypes ?? []).join(',') || due || reopened;
      if (changed)
        out.push({
          kind: 'update',
          chaseId: missingChase.id,
          ...(reopened ? { state: 'scheduled' as const, note: `the answer did not bring ${missing.join(', ')}` } : {}),
          message,
          evidence,
          remindersSent: plan.dueStep !== null ? plan.dueStep + 1 : missingChase.remindersSent,
          nextReminderOn: plan.nextOn,
          due,
        });
    }
  } else if (missingChase && !missing.length) {
    out.push({ kind: 'close', chaseId: missingChase.id, state: 'resolved', note: 'every required file has arrived' });
  }

  // (b) a delivery that failed a check
  if (fund.failures) {
    for (const [key, failure] of fund.failures) {
      const c = byKey.get(key);
      if (!c) {
        out.push({
          kind: 'open',
          reason: 'failed_check',
          key,
          message: failure.summary,
          evidence: failure.evidence,
          csv: failure.csv,
          fundFileId: null,
          remindersSent: 1,
          nextReminderOn: nextFollowUp(today, schedule, 1),
          due: { mailNumber: 1, escalate: false, note: 'first notice' },
        });
        continue;
      }
      if (c.state === 'answered' && !answerProcessed(c)) continue;
      const reopened = c.state === 'answered';
      const due = reopened
        ? { mailNumber: c.remindersSent + 1, escalate: false, note: 'the corrected delivery still fails the check' }
        : followUpDue(c, schedule, today);
      const sent = due ? c.remindersSent + 1 : c.remindersSent;
      out.push({
        kind: 'update',
        chaseId: c.id,
        ...(reopened ? { state: 'scheduled' as const, note: 'the corrected delivery still fails the check' } : {}),
        message: failure.summary,
        evidence: failure.evidence,
        csv: failure.csv,
        remindersSent: sent,
        nextReminderOn: due ? nextFollowUp(c.createdAt, schedule, sent) : c.nextReminderOn,
        ...(due ? { due } : {}),
      });
    }
  }
  for (const c of open) {
    if (c.reason !== 'failed_check' || fund.failures?.has(c.key)) continue;
    const unmapped = c.key === 'failed_check:unmapped_codes';
    // resolved only once the checks it is about have run on the latest delivery
    if (fund.busy || !(unmapped ? fund.checked.standardization : fund.checked.calculation) || !fund.failures) continue;
    out.push({ kind: 'close', chaseId: c.id, state: 'resolved', note: 'the latest delivery passes the check' });
  }

  // (c) returned to the TPA by a reviewer: resolved by a newer delivery of the file (or of any file, for a fund)
  for (const c of open) {
    if (c.reason !== 'returned') continue;
    const type = c.evidence.fileType;
    const newer = [...fund.newestInputs.entries()].some(([t, f]) => (!type || t === type) && (c.fundFileId ? f.id > c.fundFileId : f.createdAt > c.createdAt));
    if (newer && !fund.busy) {
      out.push({ kind: 'close', chaseId: c.id, state: 'resolved', note: type ? `a new ${type} file was delivered` : 'a new delivery arrived' });
      continue;
    }
    const due = followUpDue(c, schedule, today);
    if (due)
      out.push({
        kind: 'update',
        chaseId: c.id,
        remindersSent: c.remindersSent + 1,
        nextReminderOn: nextFollowUp(c.createdAt, schedule, c.remindersSent + 1),
        due,
      });
  }
  return out;
}

/** 'reminder 2 of 4 (3 days after the due date)'. */
function stepNote(schedule: ChaseSchedule, step: number): string {
  const days = schedule.offsets[step]!;
  const when =
    days === 0
      ? 'on the due date'
      : days < 0
        ? `${-days} day${days === -1 ? '' : 's'} before the due date`
        : `${days} day${days === 1 ? '' : 's'} after the due date`;
  return `reminder ${step + 1} of ${schedule.offsets.length} (${when})`;
}

/**
 * The changes of a review (a fund's pipeline just ran, no mail is written): chases are resolved or
 * cancelled at once, new failed checks are opened to go out with the next run, and an open chase's
 * evidence (the types still missing) is brought up to date; reminders, answers to re-open and new
 * missing-files chases wait for the run.
 */
export function reviewChanges(changes: ChaseChange[], today: string): ChaseChange[] {
  return changes.flatMap((c): ChaseChange[] => {
    if (c.kind === 'close') return [c];
    if (c.kind === 'open' && c.reason === 'failed_check') return [{ ...c, remindersSent: 0, nextReminderOn: today }];
    // what is still missing (or failing) is brought up to date at once; its mail waits for the run
    if (c.kind === 'update' && !c.state && c.evidence)
      return [{ kind: 'update', chaseId: c.chaseId, message: c.message, evidence: c.evidence, ...(c.csv !== undefined ? { csv: c.csv } : {}) }];
    return [];
  });
}
