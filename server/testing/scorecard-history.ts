/**
 * Test support: a generated half-year of scorecard history (docs/scorecards.md): fund requests of
 * three TPAs and three clients, their files received before and after their data due dates
 * (re-deliveries, a type marked not required), their checks recorded as the pipeline records them,
 * and their chases, all written through the recording services.
 */
import type { FundStatus } from '../../rules/statuses.js';
import type { AppContext } from '../context.js';
import { recordChaseEvent } from '../services/chasing/history.js';
import { recordChecksRun } from '../services/delivery-events/record.js';
import { insertAdministrator, insertFund } from './fund-factory.js';
import { insertChase, insertStandardizedInput } from './scorecard-deliveries.js';

/** The day the history is generated up to, and the scorecards are asked for (ISO date). */
export const TODAY = '2026-06-15';
/** The months the requests are due in. */
export const MONTHS = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];
/** The TPA codes of the history. */
export const TPAS = ['north_admin', 'south_admin', 'west_admin'];
/** The clients of the history. */
export const CLIENTS = ['Orion Capital', 'Helix Partners', 'Lyra Funds'];
/** A day in milliseconds. */
export const DAY = 86_400_000;

/** mulberry32: the same funds every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Generates 90 fund requests of the three TPAs and clients, due over the half-year to `TODAY` (the
 * same every run), and writes their history through the recording services, fund by fund in time
 * order; plus a parent fund with its child, and a request without a due date.
 */
export async function generateScorecardHistory(ctx: AppContext): Promise<void> {
  const rand = rng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const admins = await Promise.all(TPAS.map((code) => insertAdministrator(ctx, code, code.replace('_', ' '))));
  for (let n = 0; n < 90; n++) {
    const adminIndex = Math.floor(rand() * admins.length);
    const month = pick(MONTHS);
    const dueDate = `${month}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;
    const jobType = rand() < 0.25 ? 'SOI_ONLY' : 'FULL_AUDIT';
    const status: FundStatus = n % 17 === 5 ? 'Deleted' : n % 19 === 7 ? 'Declined' : pick(['Approved', 'Approved', 'Pending', 'Issued'] as const);
    const fund = await insertFund(ctx, { administratorId: admins[adminIndex], client: pick(CLIENTS), dueDate, jobType, status });
    const due = Date.parse(`${dueDate}T00:00:00Z`);
    const types = ['trial_balance', 'holdings', ...(jobType === 'FULL_AUDIT' ? ['transactions', 'share_capital'] : []), 'prices'];
    // arrivals: a first delivery of each type (some never, some late), some delivered again
    const arrivals: Array<{ at: number; type: string; disabled: boolean }> = [];
    if (jobType === 'FULL_AUDIT' && rand() < 0.15) arrivals.push({ at: due - 20 * DAY, type: 'transactions', disabled: true });
    for (const type of types) {
      if (arrivals.some((a) => a.type === type)) continue;
      if (rand() < 0.1) continue;
      const first = due + Math.round((rand() * 25 - 12) * DAY + rand() * 3_600_000);
      arrivals.push({ at: first, type, disabled: false });
      if (rand() < 0.2) arrivals.push({ at: first + Math.round((1 + rand() * 9) * DAY), type, disabled: false });
    }
    arrivals.sort((a, b) => a.at - b.at);
    for (const a of arrivals) {
      if (a.at > Date.parse(`${TODAY}T12:00:00Z`)) continue;
      await insertStandardizedInput(ctx, fund.id, a.type, iso(a.at), { disabled: a.disabled, invalid: rand() < 0.1 });
      // the checks run after most arrivals, an hour later
      if (rand() < 0.8) {
        const items = [
          { check: 'tb_balance', status: rand() < 0.15 ? 'fail' : 'pass' },
          { check: 'nav', status: rand() < 0.1 ? 'fail' : 'warning' },
        ];
        await recordChecksRun(ctx, fund.id, null, items, { at: iso(a.at + 3_600_000) });
      }
    }
    // chases: about a third of the requests, mailed after their due date, some answered
    for (let c = 0; c < (rand() < 0.35 ? 1 + Math.floor(rand() * 2) : 0); c++) {
      const reason = c === 0 ? 'missing_files' : 'failed_check';
      const ref = await insertChase(ctx, fund, reason, `${reason}:${c}`);
      const opened = due - 3 * DAY + Math.round(rand() * DAY);
      await recordChaseEvent(ctx, ref, 'scheduled', { at: iso(opened) });
      if (rand() < 0.85) {
        const sent = opened + Math.round((1 + rand() * 4) * DAY);
        await recordChaseEvent(ctx, ref, 'sent', { at: iso(sent) });
        if (rand() < 0.4) await recordChaseEvent(ctx, ref, 'sent', { at: iso(sent + 3 * DAY), note: 'reminder 2' });
        const fate = rand();
        if (fate < 0.45) {
          const answered = sent + Math.round(rand() * 8 * DAY);
          await recordChaseEvent(ctx, ref, 'answered', { at: iso(answered) });
          if (rand() < 0.7) await recordChaseEvent(ctx, ref, 'resolved', { at: iso(answered + DAY) });
        } else if (fate < 0.6) await recordChaseEvent(ctx, ref, 'resolved', { at: iso(sent + 2 * DAY) });
        else if (fate < 0.7) await recordChaseEvent(ctx, ref, 'cancelled', { at: iso(sent + DAY) });
      } else if (rand() < 0.5) await recordChaseEvent(ctx, ref, 'cancelled', { at: iso(opened + DAY) });
    }
  }
  // a parent fund (its children are the deliveries) and a request without a due date: neither counted
  const parent = await insertFund(ctx, { administratorId: admins[0], client: CLIENTS[0], dueDate: '2026-03-10', status: 'Approved' });
  await insertFund(ctx, { administratorId: admins[0], client: CLIENTS[0], dueDate: '2026-03-12', status: 'Approved', parentId: parent.id });
  await insertFund(ctx, { administratorId: admins[1], client: CLIENTS[1], dueDate: null, status: 'Approved' });
}
