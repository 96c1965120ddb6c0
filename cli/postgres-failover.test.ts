/**
 * Failover of two `serve` nodes on one PostgreSQL database and one blob directory: fund requests
 * uploaded and deliveries imported through both nodes, then the node whose job thread runs a long
 * standardization is killed with `kill -9`. The other node takes the job over when its lease ends
 * and finishes everything: every job done, each stage done once per trigger, no staging file left,
 * both funds' work papers in the blob directory, and the events on the surviving node's socket.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgTestDatabase, describePg } from '../server/testing/dialects.js';
import { fixturesDir } from '../server/paths.js';
import { call, socket } from './testing/server.js';
import { runCliAsync, startServe, type Served } from './testing/cli.js';

interface Job {
  id: number;
  fund_request_id: number | null;
  stage: string;
  status: string;
  attempts: number;
  worker_id: string | null;
  payload: Record<string, unknown> | null;
  finished_at: string | null;
}

/** Uploads delivery files to a server's import API for one administrator. */
async function importFiles(base: string, token: string, administrator: string, files: Array<{ name: string; bytes: Buffer }>) {
  for (const f of files) {
    const form = new FormData();
    form.append('administrator', administrator);
    form.append('upload', new Blob([new Uint8Array(f.bytes)]), f.name);
    const res = await fetch(new URL('/api/v2.0/import/files', base), { method: 'POST', headers: { 'x-access-token': token }, body: form });
    expect(res.status, await res.text()).toBe(200);
  }
}

describePg('serve nodes on PostgreSQL when one is killed', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  let db: pg.Client;
  let root: string;
  const servers: Served[] = [];

  beforeAll(async () => {
    database = await createPgTestDatabase();
    root = mkdtempSync(join(tmpdir(), 'fund-audit-pg-failover-'));
    for (const d of ['node-a', 'node-b', 'blobs']) mkdirSync(join(root, d));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await db?.end();
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('takes over the running job of a killed node and finishes every job exactly once', async () => {
    const env = {
      FUND_AUDIT_DATABASE_URL: database.url,
      FUND_AUDIT_BLOB_DIR: join(root, 'blobs'),
      FUND_AUDIT_LOG_LEVEL: 'warn',
      FUND_AUDIT_JOB_LEASE_SECONDS: '3',
      FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: '100000000',
    };
    const a = await startServe(join(root, 'node-a'), ['--workers', '1'], env);
    servers.push(a);
    const b = await startServe(join(root, 'node-b'), ['--workers', '1', '--no-signin-link'], env);
    servers.push(b);
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const jobs = async () =>
      (await db.query<Job>('select id, fund_request_id, stage, status, attempts, worker_id, payload, finished_at from processes order by id')).rows;
    const nodeOf = async (pid: number) => (await db.query<{ id: string }>('select id from nodes where pid = $1', [pid])).rows[0]?.id;
    const nodeA = await nodeOf(a.child.pid!);
    const nodeB = await nodeOf(b.child.pid!);
    expect(nodeA).toBeTruthy();
    expect(nodeB).toBeTruthy();

    const redeemed = await call(a.url, '/api/sso/redeemToken', { body: { token: a.link!.split('#')[1] } });
    expect(redeemed.status).toBe(200);
    const token = redeemed.body.payload.token as string;
    const onA = await socket(a.url, token);
    await onA.next('connect');
    const onB = await socket(b.url, token);
    await onB.next('connect');

    // the fund requests of both deliveries, uploaded through A
    const uploaded = await runCliAsync([
      '--server',
      a.url,
      '--token',
      token,
      '--json',
      'bulk-upload',
      join(fixturesDir(), 'fund-requests/real-funds.csv'),
      '--overwrite',
    ]);
    expect(uploaded.status, uploaded.stderr).toBe(0);

    // the Keystone workbook through B; the Meridian files through A, its holdings 150 times over
    const tpas = join(fixturesDir(), 'tpas');
    const keystone = 'KEYSTONE_5493006TF05454RBY690_20221231.xlsx';
    await importFiles(b.url, token, 'keystone_admin', [{ name: keystone, bytes: readFileSync(join(tpas, 'keystone_admin/inputs', keystone)) }]);
    const meridian = join(tpas, 'meridian_fund_services/inputs');
    const holdingsName = 'MFS_HOLDINGS_S000013795_20230331.csv';
    const src = readFileSync(join(meridian, holdingsName), 'utf8').split('\r\n');
    const positions = src.slice(4).filter(Boolean);
    const positionsCount = positions.length;
    const holdings = Buffer.from([...src.slice(0, 4), ...Array.from({ length: 150 }, () => positions).flat(), ''].join('\r\n'));
    const others = ['MFS_TB_S000013795_20230331.csv', 'MFS_CAPITAL_S000013795_20230331.csv', 'MFS_PRICES_S000013795_20230331.csv'];
    await importFiles(a.url, token, 'meridian_fund_services', [
      ...others.map((name) => ({ name, bytes: readFileSync(join(meridian, name)) })),
      { name: holdingsName, bytes: holdings },
    ]);

    // the standardization of the big holdings (after their identification), running for a moment
    let running: Job | undefined;
    for (const end = Date.now() + 60_000; !running; ) {
      if (Date.now() > end) throw new Error(`the holdings were not standardized: ${JSON.stringify(await jobs())}`);
      const all = await jobs();
      const identified = all.find((j) => j.stage === 'identification' && j.status === 'done' && JSON.stringify(j.payload).includes(holdingsName));
      running = identified && all.find((j) => j.id > identified.id && j.stage === 'standardization' && j.status === 'running');
      if (!running) await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const owner = running.worker_id!.split('/t')[0];
    expect([nodeA, nodeB]).toContain(owner);
    const [victim, survivorSocket] = owner === nodeA ? [a, onB] : [b, onA];
    const before = await jobs();
    expect(before.find((j) => j.id === running!.id)?.status).toBe('running'); // killed mid-stage
    // before the kill the sockets saw the events of jobs another node ran: the survivor's socket
    // the start of the job running on the node about to die, and each socket the jobs the other
    // node finished (which jobs each node took is up to their claims: often both, at least one)
    expect(survivorSocket.messages.some((m) => m.event === 'process' && m.data.id === running!.id && m.data.status === 'running')).toBe(true);
    for (const [sock, other] of [
      [onA, nodeB],
      [onB, nodeA],
    ] as const) {
      const ranThere = before.filter((j) => j.status === 'done' && j.worker_id?.startsWith(`${other}/`)).map((j) => j.id);
      // an event goes out after its job's commit: give it a moment to cross
      const seen = () => ranThere.every((id) => sock.messages.some((m) => m.event === 'process' && m.data.id === id && m.data.status === 'done'));
      for (const end = Date.now() + 5000; !seen() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
      expect(seen()).toBe(true);
    }
    const killedAt = Date.now();
    const exited = new Promise((r) => victim.child.once('exit', r));
    victim.child.kill('SIGKILL');
    await exited;

    // the survivor takes the job over after its lease and finishes everything
    let after: Job[] = [];
    for (const end = Date.now() + 60_000; ; ) {
      after = await jobs();
      const papers = (await db.query("select count(*)::int n from fund_files where kind = 'work_paper'")).rows[0].n as number;
      if (!after.some((j) => j.status === 'pending' || j.status === 'running') && papers >= 2) break;
      if (Date.now() > end) throw new Error(`jobs did not end: ${JSON.stringify(after)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(after.filter((j) => j.status !== 'done').map((j) => `${j.stage} ${j.id} ${j.status}: ${String(j.payload?.error ?? '')}`)).toEqual([]);
    const taken = after.find((j) => j.id === running!.id)!;
    expect(taken.attempts).toBeGreaterThanOrEqual(2);
    expect(taken.worker_id!.split('/t')[0]).not.toBe(owner);
    // each delivery file identified once; each done stage of a fund triggered at most one run of the next
    const identified = after.filter((j) => j.stage === 'identification').map((j) => j.payload?.importFileId);
    expect(new Set(identified).size).toBe(identified.length);
    expect(identified).toHaveLength(5);
    const funds = [...new Set(after.map((j) => j.fund_request_id).filter((f) => f !== null))];
    const doneOf = (fund: number | null, stage: string) => after.filter((j) => j.fund_request_id === fund && j.stage === stage).length;
    for (const fund of funds) {
      const attached = after.filter((j) => j.stage === 'identification' && new RegExp(`"fundRequestId":${fund}[,}]`).test(JSON.stringify(j.payload))).length;
      expect(doneOf(fund, 'standardization')).toBeLessThanOrEqual(attached);
      expect(doneOf(fund, 'calculations')).toBeLessThanOrEqual(doneOf(fund, 'standardization'));
      expect(doneOf(fund, 'visualization')).toBeLessThanOrEqual(doneOf(fund, 'calculations'));
    }
    // the taken-over standardization was not run again as another job, and triggered its next stage once
    expect(after.filter((j) => j.id > taken.id && j.fund_request_id === taken.fund_request_id && j.stage === 'standardization')).toEqual([]);
    expect(after.filter((j) => j.id > taken.id && j.fund_request_id === taken.fund_request_id && j.stage === 'calculations')).toHaveLength(1);
    // every standardization complete and made once per input file
    const std = (
      await db.query<{ s: number; row_count: number; n: number }>(
        "select f.source_file_id s, f.row_count, (select coalesce(sum(row_count), 0)::int from sdm_chunks r where r.fund_file_id = f.id) n from fund_files f where f.kind = 'standardization' order by f.source_file_id",
      )
    ).rows;
    expect(std.filter((f) => f.row_count !== f.n)).toEqual([]);
    expect(new Set(std.map((f) => f.s)).size).toBe(std.length);
    expect(std.some((f) => f.row_count === positionsCount * 150)).toBe(true);
    expect((await db.query("select count(*)::int n from fund_files where kind = 'staging'")).rows[0].n).toBe(0);

    // both funds' work papers, stored in the shared blob directory
    const papers = (
      await db.query<{ file_name: string; blob_key: string }>("select file_name, blob_key from fund_files where kind = 'work_paper' order by file_name")
    ).rows;
    expect(papers.map((p) => p.file_name.match(/^fund_S\d+/)?.[0])).toEqual(['fund_S000012000', 'fund_S000013795']);
    for (const p of papers) expect(existsSync(join(root, 'blobs', p.blob_key.slice(0, 2), p.blob_key))).toBe(true);

    // the surviving node's socket saw the jobs finished after the kill, and the work papers
    const finishedAfter = after.filter((j) => j.finished_at && Date.parse(j.finished_at) > killedAt).map((j) => j.id);
    expect(finishedAfter).toContain(taken.id);
    for (const id of finishedAfter) await survivorSocket.next('process', (d) => d.id === id && d.status === 'done', 10_000);
    await survivorSocket.next('file', (d) => d.kind === 'work_paper' && d.status === 'done' && /S000013795/.test(d.fileName), 10_000);
    onA.ws.close();
    onB.ws.close();
  }, 90_000);
});
