/**
 * Fund Audit on PostgreSQL from the built CLI: `serve --database-url` with a shared blob directory
 * starts (migrations, bootstrap, HTTP and sockets, job threads), is healthy and ready, signs in,
 * lists funds, and two servers on one database see each other's events on their sockets. Without a
 * shared blob directory a PostgreSQL node is refused, as are the commands of a SQLite data
 * directory only.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgTestDatabase, describePg } from '../server/testing/dialects.js';
import { fixturesDir } from '../server/paths.js';
import { call, socket } from './testing/server.js';
import { runCli, startServe, startWorker, type Served } from './testing/cli.js';

describePg('serve on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPgTestDatabase>>;
  let root: string;
  let env: NodeJS.ProcessEnv;
  const servers: Served[] = [];
  const workers: ChildProcess[] = [];
  let token = '';
  beforeAll(async () => {
    database = await createPgTestDatabase();
    root = mkdtempSync(join(tmpdir(), 'fund-audit-pg-cli-'));
    for (const d of ['node-a', 'node-b', 'blobs']) mkdirSync(join(root, d));
    env = { FUND_AUDIT_DATABASE_URL: database.url, FUND_AUDIT_LOG_LEVEL: 'warn' };
  });
  afterAll(async () => {
    for (const w of workers) {
      const exited = new Promise((r) => w.once('exit', r));
      w.kill('SIGTERM');
      await exited;
    }
    for (const s of servers) await s.stop();
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a node without a shared blob directory, and the commands of a SQLite data directory', () => {
    const serve = runCli(['-d', join(root, 'node-a'), 'serve', '--port', '0'], env);
    expect(serve.status).toBe(7);
    expect(serve.stderr).toContain('blobDir (--blob-dir, FUND_AUDIT_BLOB_DIR) is required with databaseUrl');
    const backup = runCli(['-d', join(root, 'node-a'), 'backup', '--to', join(root, 'b.zip')], env);
    expect(backup.status).not.toBe(0);
    expect(backup.stderr).toContain('backup and restore are of a SQLite data directory');
  });

  it('starts two servers on one database: ready, signed in, listing, and events of one on the sockets of the other', async () => {
    const blobs = ['--blob-dir', join(root, 'blobs')];
    const a = await startServe(join(root, 'node-a'), [...blobs, '--workers', '1'], env);
    servers.push(a);
    const b = await startServe(join(root, 'node-b'), [...blobs, '--workers', '1', '--no-signin-link'], env);
    servers.push(b);

    for (const s of [a, b]) {
      const ready = await call(s.url, '/api/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.payload).toMatchObject({ ready: true, checks: { migrations: { ok: true }, workers: { ok: true, running: 1, otherProcesses: 1 } } });
    }

    const redeemed = await call(a.url, '/api/sso/redeemToken', { body: { token: a.link!.split('#')[1] } });
    expect(redeemed.status).toBe(200);
    token = redeemed.body.payload.token as string;
    // a session is in the database: the other server knows it too
    const session = await call(b.url, '/api/sso/login', { token, body: {} });
    expect(session.status).toBe(200);
    expect(session.body.payload.user.email).toBe('admin@fund-audit.local');

    const listing = await call(a.url, '/api/v2.0/funds/listing', { token, body: { pagination: { limit: 5 } } });
    expect(listing.status).toBe(200);
    const rows = listing.body.payload.rows as Array<{ id: number; status: string }>;
    expect(rows.length).toBeGreaterThan(0); // the demo data of the first start
    expect(listing.body.payload.pagination.count).toBeGreaterThanOrEqual(rows.length);

    // a command on the install, beside the running servers
    expect(runCli(['-d', join(root, 'node-a'), 'users', 'list'], env).status).toBe(7); // no shared blob directory
    const users = runCli(['-d', join(root, 'node-a'), 'users', 'list', '--json'], { ...env, FUND_AUDIT_BLOB_DIR: join(root, 'blobs') });
    expect(users.status).toBe(0);
    expect(JSON.parse(users.stdout).map((u: { email: string }) => u.email)).toContain('admin@fund-audit.local');

    // a change made through server B reaches a browser connected to server A
    const { ws, next } = await socket(a.url, token);
    await next('connect');
    const onB = await socket(b.url, token);
    await onB.next('connect');
    const removed = await call(b.url, '/api/v2.0/fund/remove', { token, body: { ids: rows.map((r) => r.id) } });
    expect(removed.status).toBe(200);
    const changed = (removed.body.payload.funds as Array<{ id: number; isStatusUnChanged: boolean }>).filter((f) => !f.isStatusUnChanged).map((f) => f.id);
    expect(changed.length).toBeGreaterThan(0);
    expect((await onB.next('fund-request', (d) => d.action === 'remove')).data.ids).toEqual(changed);
    expect((await next('fund-request', (d) => d.action === 'remove')).data.ids).toEqual(changed);
    // and back: the funds are restored for the delivery below
    expect((await call(a.url, '/api/v2.0/fund/undo-delete', { token, body: { ids: changed } })).status).toBe(200);
    expect((await onB.next('fund-request', (d) => d.action === 'undo-delete')).data.ids).toEqual(changed);
    ws.close();
    onB.ws.close();
  }, 120_000);

  it('runs a worker node beside them, and processes a delivery imported on one server to its work paper, with the events on the other', async () => {
    const [a, b] = servers;
    mkdirSync(join(root, 'node-c'));
    const worker = await startWorker(join(root, 'node-c'), ['--database-url', database.url, '--blob-dir', join(root, 'blobs'), '--workers', '2']);
    workers.push(worker);
    const ready = await call(a.url, '/api/health/ready');
    expect(ready.body.payload.checks.workers).toMatchObject({ ok: true, running: 1, otherProcesses: 2 });
    const { ws, next } = await socket(a.url, token);
    await next('connect');
    const dir = join(fixturesDir(), 'tpas/meridian_fund_services/inputs');
    for (const name of readdirSync(dir)) {
      const form = new FormData();
      form.append('administrator', 'meridian_fund_services');
      form.append('upload', new Blob([readFileSync(join(dir, name))]), name);
      const res = await fetch(new URL('/api/v2.0/import/files', b.url), { method: 'POST', headers: { 'x-access-token': token }, body: form });
      expect(res.status).toBe(200);
    }
    const paper = await next('file', (d) => d.kind === 'work_paper' && d.status === 'done', 110_000);
    expect(paper.data.fileName).toMatch(/^fund_S000013795_.*_work_papers\.xlsx$/);
    // stored in the blob directory the nodes share, not in a data directory
    expect(readdirSync(join(root, 'blobs')).length).toBeGreaterThan(2);
    expect(readdirSync(join(root, 'node-a'))).not.toContain('blobs');
    ws.close();
  }, 150_000);
});
