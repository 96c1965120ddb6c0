/**
 * The history the scorecard benchmark runs on: fund requests spread over 40 TPAs, 8 clients and 24
 * months of data due dates ending this month, each with its files received (before and after the
 * due date, some delivered again, some never), the runs of its checks, and for about a third its
 * chases with their state changes. Deterministic (one seed). Written straight into SQLite with
 * prepared statements (the recording services would take minutes for millions of rows).
 */
import type Database from 'better-sqlite3';
import { ADMINISTRATORS, rng } from './listing-data.js';

const CLIENTS = [
  'Orion Capital',
  'Helix Partners',
  'Atlas Asset Management',
  'Boreal Investments',
  'Cygnus Wealth',
  'Draco Advisors',
  'Lyra Funds',
  'Vega Group',
];
const DAY = 86_400_000;

/** What the seed wrote. */
export interface ScorecardSeed {
  funds: number;
  deliveryEvents: number;
  chaseEvents: number;
  inputFiles: number;
  /** first and last month of the due dates, `YYYY-MM` */
  from: string;
  to: string;
}

const month = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/**
 * Writes `count` fund requests with their history, in one transaction.
 * @param now the instant the history ends at (epoch ms)
 */
export function seedScorecardHistory(sqlite: Database.Database, count: number, now: number): ScorecardSeed {
  const rand = rng(2024);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const insAdmin = sqlite.prepare('INSERT INTO administrators (code, name) VALUES (?, ?)');
  const admins: number[] = [];
  for (let i = 0; i < ADMINISTRATORS; i++) admins.push(Number(insAdmin.run(`tpa_${i}`, `Administrator ${i}`).lastInsertRowid));
  const insFund = sqlite.prepare(
    'INSERT INTO fund_requests (administrator_id, name, client, status, job_type, period_end, due_date, request_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insCode = sqlite.prepare('INSERT INTO fund_codes (fund_request_id, code, main) VALUES (?, ?, 1)');
  const insFile = sqlite.prepare(
    "INSERT INTO fund_files (fund_request_id, kind, file_type, file_name, status, disabled) VALUES (?, 'input', ?, ?, 'assigned', ?)",
  );
  const insReceived = sqlite.prepare(
    "INSERT INTO delivery_events (fund_request_id, kind, at, file_type, file_name, fund_file_id, source) VALUES (?, 'received', ?, ?, ?, ?, 'pipeline')",
  );
  const insChecked = sqlite.prepare(
    "INSERT INTO delivery_events (fund_request_id, kind, at, outcome, failed_checks, inputs, complete, first_delivery, source) VALUES (?, 'checked', ?, ?, ?, ?, ?, ?, 'pipeline')",
  );
  const insChase = sqlite.prepare(
    "INSERT INTO chases (fund_request_id, administrator_id, client, reason, key, state, evidence, recipients) VALUES (?, ?, ?, ?, ?, ?, '{}', '[]')",
  );
  const insChaseEvent = sqlite.prepare(
    "INSERT INTO chase_events (chase_id, fund_request_id, administrator_id, client, reason, state, at, actor) VALUES (?, ?, ?, ?, ?, ?, ?, 'system')",
  );
  // due dates over the 24 months ending this month
  const lastMonthStart = Date.parse(`${month(now)}-01T00:00:00Z`);
  const firstMonthStart = Date.UTC(new Date(lastMonthStart).getUTCFullYear(), new Date(lastMonthStart).getUTCMonth() - 23, 1);
  const span = (lastMonthStart + 28 * DAY - firstMonthStart) / DAY;
  let deliveryEvents = 0;
  let chaseEvents = 0;
  let inputFiles = 0;
  sqlite.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const admin = pick(admins);
      const client = pick(CLIENTS);
      const due = firstMonthStart + Math.floor(rand() * span) * DAY;
      const dueDate = new Date(due).toISOString().slice(0, 10);
      const jobType = rand() < 0.2 ? 'SOI_ONLY' : 'FULL_AUDIT';
      const status = rand() < 0.03 ? 'Deleted' : pick(['Approved', 'Approved', 'Issued', 'Pending']);
      const id = Number(
        insFund.run(admin, `Fund ${i}`, client, status, jobType, new Date(due - 30 * DAY).toISOString().slice(0, 10), dueDate, dueDate).lastInsertRowid,
      );
      insCode.run(id, `FC${String(i).padStart(6, '0')}`);
      // a TPA's habits: some deliver early, some late
      const lateness = (admin % 7) - 2;
      const types = ['trial_balance', 'holdings', ...(jobType === 'FULL_AUDIT' ? ['transactions', 'share_capital'] : []), 'prices'];
      const first = new Map<string, number>();
      const arrivals: Array<[number, string]> = [];
      for (const type of types) {
        if (rand() < 0.05) continue;
        const at = due + Math.round((rand() * 14 - 10 + lateness) * DAY);
        arrivals.push([at, type]);
        if (rand() < 0.15) arrivals.push([at + Math.round((1 + rand() * 6) * DAY), type]);
      }
      arrivals.sort((a, b) => a[0] - b[0]);
      const judged = new Map<string, number>();
      for (const [at, type] of arrivals) {
        if (at > now) continue;
        const fileId = Number(insFile.run(id, type, `${type}.csv`, 0).lastInsertRowid);
        inputFiles++;
        insReceived.run(id, new Date(at).toISOString(), type, `${type}.csv`, fileId);
        deliveryEvents++;
        if (!first.has(type)) first.set(type, fileId);
        judged.set(type, fileId);
        if (rand() < 0.7) {
          const inputs = [...judged].map(([fileType, fundFileId]) => ({ fundFileId, fileType }));
          const complete = types.slice(0, jobType === 'FULL_AUDIT' ? 4 : 2).every((t) => judged.has(t));
          const firstDelivery = inputs.every((x) => first.get(x.fileType) === x.fundFileId);
          const failed = rand() < 0.2 ? ['tb_balance'] : [];
          insChecked.run(
            id,
            new Date(at + 3_600_000).toISOString(),
            failed.length ? 'failed' : 'passed',
            JSON.stringify(failed),
            JSON.stringify(inputs),
            complete ? 1 : 0,
            firstDelivery ? 1 : 0,
          );
          deliveryEvents++;
        }
      }
      if (rand() < 0.3) {
        const reason = rand() < 0.7 ? 'missing_files' : 'failed_check';
        const chase = Number(insChase.run(id, admin, client, reason, reason, 'resolved').lastInsertRowid);
        const states: Array<[string, number]> = [['scheduled', due - 3 * DAY]];
        const sent = due + Math.round(rand() * 4 * DAY);
        if (sent < now) {
          states.push(['sent', sent]);
          if (rand() < 0.5) states.push(['sent', sent + 3 * DAY]);
          const answered = sent + Math.round(rand() * 9 * DAY);
          if (rand() < 0.7 && answered < now) states.push(['answered', answered], ['resolved', answered + DAY]);
        }
        for (const [state, at] of states) {
          insChaseEvent.run(chase, id, admin, client, reason, state, new Date(at).toISOString());
          chaseEvents++;
        }
      }
    }
  })();
  sqlite.exec('ANALYZE');
  return { funds: count, deliveryEvents, chaseEvents, inputFiles, from: month(firstMonthStart), to: month(lastMonthStart) };
}
