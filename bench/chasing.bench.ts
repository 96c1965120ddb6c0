/**
 * Chasing benchmark: a chase run over 100,000 fund requests (40 TPAs with a data and an
 * escalation contact each, data due dates spread over a year around today, nothing delivered for
 * most, a failed trial balance on 2,000), on a real `fund-audit serve` (the built bundle, job
 * threads at the default count):
 *   (1) the first run of the day (opens the chases whose schedule has begun, writes one digest per
 *       recipient) and the next day's run (reminders), each queued through the API and timed from
 *       its job's start to its end: target < 30 s;
 *   (2) `/api/health` every 50 ms, idle and during each run: p99 < 100 ms.
 * Prints markdown tables. Not part of the tests.
 *
 *   node build.mjs node && npx tsx bench/chasing.bench.ts [--funds 100000]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { configSchema, type AppConfig } from '../server/config.js';
import { createContext } from '../server/context.js';
import { bootstrap } from '../server/bootstrap.js';

const { values: args } = parseArgs({ options: { funds: { type: 'string', default: '100000' } } });
const FUNDS = Number(args.funds);
const TPAS = 40;
const FAILED_TB = Math.min(2_000, Math.floor(FUNDS / 50));

/** Writes the install: TPAs, contacts, fund requests with codes, a failed calculation on some. */
async function seed(dir: string, today: string): Promise<void> {
  const config = { ...configSchema.parse({ logLevel: 'silent', seedDemoData: false }), dataDir: dir } as AppConfig;
  const ctx = await createContext({ config });
  await bootstrap(ctx);
  ctx.close();
  const db = new Database(join(dir, config.dbName));
  const day = (offset: number) => new Date(Date.parse(today) + offset * 86_400_000).toISOString().slice(0, 10);
  db.transaction(() => {
    const admin = db.prepare('insert into administrators (code, name, region) values (?, ?, ?)');
    const contact = db.prepare(
      "insert into contacts (administrator_id, full_name, email, role, time_zone, source) values (?, ?, ?, ?, 'Europe/Luxembourg', 'manual')",
    );
    for (let a = 1; a <= TPAS; a++) {
      const id = Number(admin.run(`bench_tpa_${a}`, `Bench TPA ${a}`, 'EMEA').lastInsertRowid);
      contact.run(id, `Data desk ${a}`, `data${a}@tpa${a}.example.com`, 'data');
      contact.run(id, `Escalation ${a}`, `lead${a}@tpa${a}.example.com`, 'escalation');
    }
    const fund = db.prepare(
      "insert into fund_requests (administrator_id, name, client, status, due_date, period_end, request_date, currency, country, job_type) values (?, ?, ?, 'Approved', ?, ?, ?, 'EUR', 'LU', 'FULL_AUDIT')",
    );
    const code = db.prepare('insert into fund_codes (fund_request_id, code, main) values (?, ?, 1)');
    const calc = db.prepare(
      "insert into fund_files (fund_request_id, kind, file_type, file_name, status, validation_status, validation) values (?, 'calculation', 'calculations', 'calculations.json', 'done', 'Invalid', ?)",
    );
    for (let i = 0; i < FUNDS; i++) {
      const due = day((i % 365) - 180);
      const id = Number(fund.run((i % TPAS) + 1, `Bench Fund ${i}`, `Client ${i % 500}`, due, day((i % 365) - 270), day(-300)).lastInsertRowid);
      code.run(id, `BF${String(i).padStart(6, '0')}`);
      if (i < FAILED_TB)
        calc.run(
          id,
          JSON.stringify({
            QA_Rec: [
              {
                check: 'tb_balance',
                name: 'Trial balance sums to zero',
                status: 'fail',
                diff: 1204.17 + i,
                threshold: 500,
                message: `TB does not balance by ${1204.17 + i} EUR`,
              },
            ],
          }),
        );
    }
  })();
  db.close();
}

interface Server {
  child: ChildProcess;
  url: string;
  token: string;
}

async function startServer(dir: string): Promise<Server> {
  const child = spawn(process.execPath, ['bin/fund-audit.mjs', '-d', dir, 'serve', '--port', '0', '--log-level', 'warn'], {
    env: { ...process.env, FUND_AUDIT_CHASE_SCHEDULE: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const { url, link } = await new Promise<{ url: string; link: string }>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const u = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const l = /(http:\/\/\S+\/redeemToken\/#\S+)/.exec(out)?.[1];
      if (u && l) resolve({ url: u, link: l });
    });
  });
  const redeemed = await fetch(`${url}/api/sso/redeemToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: link.split('#')[1] }),
  });
  const token = ((await redeemed.json()) as { payload: { token: string } }).payload.token;
  return { child, url, token };
}

async function api<T>(s: Server, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${s.url}/api/v2.0/${path}`, {
    method,
    headers: { 'x-access-token': s.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { payload: T; message?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message ?? ''}`);
  return json.payload;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : Number.NaN;
};

/** Health every 50 ms until `until` resolves; latencies in ms. */
async function healthWhile(s: Server, until: Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const t0 = performance.now();
    await fetch(`${s.url}/api/health`).then((r) => r.text());
    ms.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  return ms;
}

async function runAndWait(s: Server, dir: string, today: string): Promise<{ seconds: number; counts: Record<string, number> }> {
  const job = await api<{ id: number }>(s, 'POST', 'chase/run', { today });
  const db = new Database(join(dir, 'fund-audit.sqlite'), { readonly: true });
  try {
    for (;;) {
      const p = db.prepare('select status, started_at, finished_at, payload from processes where id = ?').get(job.id) as
        | { status: string; started_at: string; finished_at: string; payload: string }
        | undefined;
      if (p?.status === 'done' || p?.status === 'error') {
        const payload = JSON.parse(p.payload) as { result?: { counts?: Record<string, number> }; error?: string };
        if (p.status === 'error') throw new Error(`the chase run failed: ${payload.error}`);
        return { seconds: (Date.parse(p.finished_at) - Date.parse(p.started_at)) / 1000, counts: payload.result?.counts ?? {} };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fund-audit-chase-bench-'));
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
try {
  const t0 = performance.now();
  await seed(dir, today);
  process.stdout.write(
    `Seeded ${FUNDS.toLocaleString('en-GB')} fund requests in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB\n\n`,
  );
  const s = await startServer(dir);
  try {
    const idle = await healthWhile(s, new Promise((r) => setTimeout(r, 5_000)));
    const rows: string[] = [
      '| run | funds looked at | opened | reminded | mails | run time (s) | health p50 / p99 / max (ms) |',
      '|---|---|---|---|---|---|---|',
    ];
    rows.push(`| idle | | | | | | ${pct(idle, 50).toFixed(1)} / ${pct(idle, 99).toFixed(1)} / ${Math.max(...idle).toFixed(1)} |`);
    for (const [name, day] of [
      ['first run', today],
      ['next day', tomorrow],
    ] as const) {
      const run = runAndWait(s, dir, day);
      const health = await healthWhile(s, run);
      const { seconds, counts } = await run;
      rows.push(
        `| ${name} | ${counts.funds ?? '-'} | ${counts.opened ?? '-'} | ${counts.reminded ?? '-'} | ${counts.mails ?? '-'} | ${seconds.toFixed(1)} | ${pct(health, 50).toFixed(1)} / ${pct(health, 99).toFixed(1)} / ${Math.max(...health).toFixed(1)} |`,
      );
    }
    process.stdout.write(`${rows.join('\n')}\n`);
  } finally {
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
