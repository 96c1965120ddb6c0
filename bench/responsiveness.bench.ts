/**
 * Responsiveness benchmark: does the server keep answering while it works? A real `fund-audit
 * serve` (the built bundle, its job threads at the default count) on a fresh data directory with
 * the demo data, measured from this process over 127.0.0.1, every figure against its idle baseline
 * in the same run:
 *   (a) `/api/health` and a listing call every 50 ms, idle and during a 168,500-row import
 *       (the Goldman Sachs holdings 100 times over, uploaded as a user does): p99 < 100 ms, max < 250 ms;
 *   (b) 200 clients x 60 s of mixed reads (listing, fund details, status report, reference data)
 *       with no import, then during back-to-back imports: 0 unanswered, p95 within 2x of idle;
 *   (d) health every 50 ms while a 20,000-row bulk upload and a 100,000-column CSV are validated:
 *       p99 < 100 ms.
 * Prints markdown tables. Not part of the tests.
 *
 *   node build.mjs node && npx tsx bench/responsiveness.bench.ts [--seconds 60] [--clients 200] [--scale 100] [--parts a,b,d]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fixturesDir } from '../server/paths.js';
import { holdingsDelivery, holdingsRows } from './deliveries.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '200' },
    scale: { type: 'string', default: '100' },
    parts: { type: 'string', default: 'a,b,d' },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const SCALE = Number(args.scale);
const TIMEOUT_MS = 30_000;
const PARTS = new Set(args.parts.split(','));

let deliveries = 0;

// ---------------------------------------------------------------- the server

interface Server {
  child: ChildProcess;
  url: string;
  token: string;
}

async function startServer(dir: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    [...(process.env.SERVE_NODE_ARGS?.split(' ') ?? []), 'bin/fund-audit.mjs', '-d', dir, 'serve', '--port', '0', '--log-level', 'warn'],
    {
      env: { ...process.env, FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: '200000000', FUND_AUDIT_DEMO_DELIVERIES: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
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

async function api<T = unknown>(s: Server, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'x-access-token': s.token };
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
  const res = await fetch(`${s.url}/api/v2.0/${path}`, {
    method,
    headers,
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10 * 60_000),
  });
  const json = (await res.json()) as { payload: T; message?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message ?? ''}`);
  return json.payload;
}

// ---------------------------------------------------------------- measuring

/** Latencies (ms) of answered calls; calls with no answer within 30 s; calls answered with an error status or whose connection failed. */
class Sample {
  readonly ms: number[] = [];
  unanswered = 0;
  failed = 0;
  /** Connection failures by error code (e.g. a reset keep-alive socket). */
  readonly errors = new Map<string, number>();
  /** Unanswered calls by what was called. */
  readonly unansweredBy = new Map<string, number>();
  /** Unanswered calls by how far they got (no socket, not connected, request sent ...). */
  readonly unansweredAt = new Map<string, number>();
  /** Latencies of answered calls by what was called. */
  readonly byLabel = new Map<string, number[]>();
  /** Answered calls over 2 s: what was called, when it started (ms after the sample's first call) and how long it took. */
  readonly slow: Array<{ label: string; at: number; ms: number }> = [];
  private first?: number;
  async time(call: () => Promise<Answer>, label = 'call'): Promise<void> {
    const t0 = performance.now();
    this.first ??= t0;
    try {
      const res = await call();
      if (!res.ok) this.failed++;
      const ms = performance.now() - t0;
      this.ms.push(ms);
      if (ms > 2_000) this.slow.push({ label, at: t0 - this.first, ms });
      let list = this.byLabel.get(label);
      if (!list) this.byLabel.set(label, (list = []));
      list.push(ms);
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') {
        this.unanswered++;
        this.unansweredBy.set(label, (this.unansweredBy.get(label) ?? 0) + 1);
        const reached = String((err as { reached?: string }).reached ?? 'unknown');
        this.unansweredAt.set(reached, (this.unansweredAt.get(reached) ?? 0) + 1);
      } else {
        this.failed++;
        const code = String((err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name);
        this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
      }
    }
  }
  stat(p: number): number {
    const s = [...this.ms].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
  }
  row(name: string): string {
    const f = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(1));
    const errors = [...this.errors].map(([code, n]) => `${n} ${code}`).join(', ');
    const unanswered = [...this.unansweredBy, ...this.unansweredAt].map(([label, n]) => `${n} ${label}`).join(', ');
    return `| ${name} | ${this.ms.length} | ${this.unanswered}${this.unanswered ? ` (${unanswered})` : ''} | ${this.failed}${errors ? ` (${errors})` : ''} | ${f(this.stat(50))} | ${f(this.stat(95))} | ${f(this.stat(99))} | ${f(this.stat(100))} |`;
  }
}
const HEADER =
  '| calls | answered | unanswered (30 s) | errors (status or connection) | p50 ms | p95 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|---:|---:|';

const LISTING = { pagination: { offset: 0, limit: 50 }, sort: { field: 'dataDueDate', order: 'asc' } };
/**
 * The measured calls go through node:http with one keep-alive agent (a socket per client, as
 * separate users' browsers have). Node's fetch was the client before: its shared pool held some
 * calls back for up to 30 s under 200 concurrent callers while other calls went ahead (a 20 s
 * run had 265 calls over 2 s with fetch; a 30 s run with node:http had none, same server).
 */
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
interface Answer {
  ok: boolean;
}
function call(s: Server, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.url}${path}`,
      { method, agent, headers: { 'x-access-token': s.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } },
      (res) => {
        res.resume();
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ ok: (res.statusCode ?? 0) < 400 });
        });
        res.on('error', reject);
      },
    );
    // what a call that gets no answer had reached: a socket, a connection, the request written
    let reached = 'no socket';
    req.on('socket', (socket) => {
      if (!socket.connecting) reached = 'request not written';
      else {
        reached = 'not connected';
        socket.once('connect', () => (reached = 'request not written'));
      }
    });
    req.on('finish', () => (reached = 'request sent'));
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('no answer within 30 s'), { name: 'TimeoutError', reached })), TIMEOUT_MS);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
const get = (s: Server, path: string) => call(s, 'GET', path);
const post = (s: Server, path: string, body: unknown) => call(s, 'POST', path, body);

/** Calls health and the listing every 50 ms until `done` resolves. */
async function probe(s: Server, done: Promise<unknown>): Promise<{ health: Sample; listing: Sample }> {
  const health = new Sample();
  const listing = new Sample();
  let over = false;
  void done.finally(() => (over = true));
  const pending: Promise<void>[] = [];
  while (!over) {
    pending.push(
      health.time(() => get(s, '/api/health')),
      listing.time(() => post(s, '/api/v2.0/funds/listing', LISTING)),
    );
    await new Promise((r) => setTimeout(r, 50));
  }
  await Promise.all(pending);
  return { health, listing };
}

/** Uploads a delivery and resolves when every job it caused has ended. */
async function importDelivery(s: Server): Promise<number> {
  const t0 = performance.now();
  const form = new FormData();
  form.append('administrator', 'meridian_fund_services');
  const { blob, name } = holdingsDelivery(SCALE, ++deliveries);
  form.append('upload', blob, name);
  await api(s, 'POST', 'import/files', form);
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const ongoing = await api<unknown[]>(s, 'GET', 'processes').catch(() => [1]);
    if (Array.isArray(ongoing) && ongoing.length === 0) return performance.now() - t0;
  }
}

/** `clients` loops of mixed reads for `seconds`. */
async function mixedReads(s: Server, fundIds: number[], seconds: number): Promise<Sample> {
  const sample = new Sample();
  const end = Date.now() + seconds * 1000;
  const calls: Array<[string, () => Promise<Answer>]> = [
    ['listing', () => post(s, '/api/v2.0/funds/listing', LISTING)],
    ['fund details', () => get(s, `/api/v2.0/fund/${fundIds[Math.floor(Math.random() * fundIds.length)]}`)],
    ['status report', () => get(s, '/api/v2.0/user/status-report')],
    ['reference data', () => get(s, '/api/v2.0/nrd')],
  ];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      for (let k = i; Date.now() < end; k++) {
        const [label, call] = calls[k % calls.length];
        await sample.time(call, label);
      }
    }),
  );
  return sample;
}

/** A bulk-upload CSV of `rows` fund requests (the demo funds with new codes), or one row of `columns` columns. */
function bulkCsv(rows: number, columns = 0): Blob {
  const lines = readFileSync(join(fixturesDir(), 'fund-requests/real-funds.csv'), 'utf8').split(/\r?\n/).filter(Boolean);
  if (columns) return new Blob([`${[...lines[0].split(','), ...Array.from({ length: columns }, (_, i) => `extra${i}`)].join(',')}\n${lines[1]}\n`]);
  const body = Array.from({ length: rows }, (_, i) =>
    lines[1 + (i % (lines.length - 1))].replace(/^([^,]*),/, `$1 ${i},`).replace(/,S0000\d+,/, `,B${String(i).padStart(9, '0')},`),
  );
  return new Blob([[lines[0], ...body, ''].join('\n')]);
}

async function duringUpload(s: Server, name: string, csv: Blob): Promise<Sample> {
  const form = new FormData();
  form.append('upload', csv, name);
  const upload = fetch(`${s.url}/api/v2.0/funds/upload`, { method: 'POST', headers: { 'x-access-token': s.token }, body: form }).then((r) => r.arrayBuffer());
  return (await probe(s, upload)).health;
}

// ---------------------------------------------------------------- the run

const dir = mkdtempSync(join(tmpdir(), 'fa-resp-'));
const server = await startServer(dir);
try {
  console.log(`Machine: ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB; server: ${server.url}, default job threads\n`);
  const fundIds = (await api<{ rows: Array<{ id: number }> }>(server, 'POST', 'funds/listing', LISTING)).rows.map((r) => r.id);

  const idle = await probe(server, new Promise((r) => setTimeout(r, PARTS.has('a') ? 15_000 : 3_000)));
  if (PARTS.has('a')) await partA();
  if (PARTS.has('b')) await partB();
  if (PARTS.has('d')) await partD();

  async function partA() {
    console.log(`### (a) health and listing every 50 ms\n\n${HEADER}`);
    let importMs = 0;
    const busy = await probe(
      server,
      importDelivery(server).then((ms) => (importMs = ms)),
    );
    console.log(
      [
        idle.health.row('health, idle'),
        busy.health.row(`health, ${SCALE}x import`),
        idle.listing.row('listing, idle'),
        busy.listing.row(`listing, ${SCALE}x import`),
      ].join('\n'),
    );
    console.log(`\nThe ${holdingsRows(SCALE).toLocaleString('en-US')}-row import (upload to the last job) took ${(importMs / 1000).toFixed(1)} s.\n`);
  }

  async function partB() {
    console.log(`### (b) ${CLIENTS} clients x ${SECONDS} s of mixed reads\n\n${HEADER}`);
    const quiet = await mixedReads(server, fundIds, SECONDS);
    let importing = true;
    const imports = (async () => {
      while (importing) await importDelivery(server);
    })();
    const loaded = await mixedReads(server, fundIds, SECONDS);
    importing = false;
    await imports;
    console.log([quiet.row('no import'), loaded.row('during imports')].join('\n'));
    console.log(`\np95 during imports / no import: ${(loaded.stat(95) / quiet.stat(95)).toFixed(2)}x\n`);
    for (const [name, s] of [['no import', quiet] as const, ['during imports', loaded] as const])
      for (const c of s.slow)
        console.log(`answered after over 2 s (${name}): ${c.label}, started ${(c.at / 1000).toFixed(2)} s into the phase, ${c.ms.toFixed(0)} ms`);
    const at = (list: number[] | undefined, p: number) => {
      const sorted = [...(list ?? [])].sort((a, b) => a - b);
      return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1) : '-';
    };
    console.log(
      '| call | answered, no import | p50 / p95 ms, no import | answered, during imports | p50 / p95 ms, during imports |\n|---|---:|---:|---:|---:|',
    );
    for (const [label, list] of quiet.byLabel) {
      const busy = loaded.byLabel.get(label);
      console.log(`| ${label} | ${list.length} | ${at(list, 50)} / ${at(list, 95)} | ${busy?.length ?? 0} | ${at(busy, 50)} / ${at(busy, 95)} |`);
    }
    console.log('');
  }

  async function partD() {
    console.log(`### (d) health every 50 ms while an upload is validated\n\n${HEADER}`);
    const bulk = await duringUpload(server, 'bulk-20000.csv', bulkCsv(20_000));
    const wide = await duringUpload(server, 'wide-100000.csv', bulkCsv(1, 100_000));
    console.log([idle.health.row('idle'), bulk.row('20,000-row bulk upload'), wide.row('100,000-column CSV')].join('\n'));
  }
} finally {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
