/** Many fund requests for grid tests and the grid benchmark. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ServerHandle } from './harness';

/**
 * Adds `count` generated fund requests to a running server's database through a second connection
 * (the server sees them at once): 'Bench Fund <i> <Equity|Bond|Balanced|Income|Growth>', main code
 * `BF<i, 6 digits>`, most listing columns filled, two input files and a standardization process
 * each, statuses in turn from Pending to Declined.
 */
export function seedFunds(server: Pick<ServerHandle, 'dataDir'>, count: number): void {
  const db = new Database(join(server.dataDir, 'fund-audit.sqlite'));
  db.pragma('busy_timeout = 10000');
  const admins = (db.prepare('SELECT id FROM administrators').all() as Array<{ id: number }>).map((a) => a.id);
  const kinds = ['Equity', 'Bond', 'Balanced', 'Income', 'Growth'];
  const statuses = ['Pending', 'Approved', 'Approved', 'Completed - Fund Closed', 'Issued', 'Paused', 'Declined'];
  const clients = ['Orion Capital', 'Helix Partners', 'Atlas Asset Management', 'Boreal Investments', 'Lyra Funds', 'Vega Group'];
  const insFund = db.prepare(`INSERT INTO fund_requests (administrator_id, name, client, gfis_client_code, status, country, currency, structure,
    job_type, output_type, period_start, period_end, due_date, audit_start_date, nav_close_date, request_date, engagement_code, group_key,
    pm, te, sad, rtt_plus, rtt_minus, connected_audit, self_onboarded, data_request_status, external_valuations, notes)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insCode = db.prepare('INSERT INTO fund_codes (fund_request_id, code, main) VALUES (?, ?, ?)');
  const insFile = db.prepare('INSERT INTO fund_files (fund_request_id, kind, file_type, file_name, status, reviewed, disabled) VALUES (?, ?, ?, ?, ?, 0, 0)');
  const insProc = db.prepare('INSERT INTO processes (fund_request_id, stage, status) VALUES (?, ?, ?)');
  const day = (n: number) => new Date(Date.UTC(2023, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
  db.transaction(() => {
    for (let i = 1; i <= count; i++) {
      const d = (i * 37) % 700;
      const id = Number(
        insFund.run(
          admins[i % admins.length],
          `Bench Fund ${i} ${kinds[i % kinds.length]}`,
          clients[i % clients.length],
          `GF${i}`,
          statuses[i % statuses.length],
          ['LU', 'IE', 'GB', 'US'][i % 4],
          ['EUR', 'USD', 'GBP'][i % 3],
          ['SICAV', 'ICAV', 'LP'][i % 3],
          'FULL',
          'Standard',
          day(d - 365),
          day(d),
          day(d + 60),
          day(d + 40),
          day(d + 1),
          day(d + 5),
          `E-${100000 + i}`,
          `G${i % 50}`,
          1.5,
          3.75,
          0.25,
          2,
          -2,
          i % 2,
          i % 3 === 0 ? 1 : 0,
          'Requested',
          'N',
          `Generated fund request ${i}`,
        ).lastInsertRowid,
      );
      insCode.run(id, `BF${String(i).padStart(6, '0')}`, 1);
      if (i % 3 === 0) insCode.run(id, `BA${String(i).padStart(6, '0')}`, 0);
      for (const t of ['trial_balance', 'holdings']) insFile.run(id, 'input', t, `${t}.csv`, i % 4 === 0 ? 'raw' : 'assigned');
      insProc.run(id, 'standardization', ['pending', 'running', 'done', 'error'][i % 4]);
    }
  })();
  db.close();
}
