/**
 * The single binary `dist/fund-audit` (scripts/build-binary.mjs) from an empty folder with no
 * node_modules: --help, then `serve` and the main flows over HTTP (sign-in link, bulk upload, TPA
 * import, UI files, export download). Skipped unless the binary exists or FUND_AUDIT_BUILD_BINARY=1
 * (which builds it first; a few seconds to a minute).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot } from '../server/paths.js';
import { call } from './testing/server.js';

const root = appRoot();
const binary = join(root, 'dist', 'fund-audit');
const build = process.env.FUND_AUDIT_BUILD_BINARY === '1';
const enabled = build || existsSync(binary);
const title = enabled
  ? 'single binary dist/fund-audit'
  : 'single binary (skipped: dist/fund-audit is not built; run `npm run build:binary` or set FUND_AUDIT_BUILD_BINARY=1)';

/** The environment of the binary: nothing of this process's Fund Audit or Node settings. */
function binaryEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FUND_AUDIT_') && !k.startsWith('NODE_') && !k.startsWith('VITEST')) env[k] = v;
  return { ...env, CI: '1', FUND_AUDIT_CACHE_DIR: join(dir, 'cache') };
}

interface Server {
  child: ChildProcess;
  url: string;
  signin: string;
  output: () => string;
}

/** Starts `./fund-audit serve` and waits for the URL and the sign-in link. */
function serve(dir: string): Promise<Server> {
  const child = spawn('./fund-audit', ['serve', '--port', '0', '--data-dir', './data', '--log-level', 'warn'], {
    cwd: dir,
    env: binaryEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 30 s:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      const signin = /^\s+(http:\/\/\S+\/redeemToken\/#\S+)$/m.exec(out)?.[1];
      if (url && signin) {
        clearTimeout(timer);
        resolve({ child, url, signin, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
}

/** The Node version the binary embeds (scripts/binary-runtime.mjs). */
const NODE_VERSION = /NODE_VERSION = '([\d.]+)'/.exec(readFileSync(join(root, 'scripts', 'binary-runtime.mjs'), 'utf8'))?.[1];

const fixture = (rel: string) => new Blob([readFileSync(join(root, rel))]);

describe.skipIf(!enabled)(title, () => {
  let dir: string;
  let server: Server | undefined;
  let token: string;
  let fundId: number;

  beforeAll(() => {
    if (build) {
      const r = spawnSync(process.execPath, [join(root, 'scripts/build-binary.mjs')], { cwd: root, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`npm run build:binary failed:\n${r.stdout}\n${r.stderr}`);
    }
    dir = mkdtempSync(join(tmpdir(), 'fa-binary-'));
    copyFileSync(binary, join(dir, 'fund-audit'));
    spawnSync('chmod', ['755', join(dir, 'fund-audit')]);
  }, 600_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((r) => server!.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs --help and --version from an empty folder', () => {
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    const help = spawnSync('./fund-audit', ['--help'], { cwd: dir, env: binaryEnv(dir), encoding: 'utf8' });
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: fund-audit');
    expect(help.stdout).toContain('serve');
    const version = spawnSync('./fund-audit', ['--version'], { cwd: dir, env: binaryEnv(dir), encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  });

  it('needs no newer glibc than the README states', () => {
    // the highest GLIBC_x.y symbol version the executable (with the embedded SQLite addon) asks for
    const versions =
      readFileSync(binary)
        .toString('latin1')
        .match(/GLIBC_2\.\d+/g) ?? [];
    const needed = Math.max(...versions.map((v) => Number(v.split('.')[1])));
    const stated = /glibc (2\.\d+)/.exec(readFileSync(join(root, 'README.md'), 'utf8'))?.[1];
    expect(stated).toBe(`2.${needed}`);
  });

  it('serves: sign-in link, bulk upload, TPA import, the UI', async () => {
    server = await serve(dir);
    const { url } = server;
    // sign in with the printed one-time link
    const redeemed = await call(url, '/api/sso/redeemToken', { body: { token: server.signin.split('#')[1] } });
    expect(redeemed.status).toBe(200);
    token = redeemed.body.payload.token as string;
    const session = await call(url, '/api/sso/login', { token, body: {} });
    expect(session.status).toBe(200);
    expect(session.body.payload.user.email).toBe('admin@fund-audit.local');
    // the binary runs on its embedded Node, not on the Node that runs this test
    const runtime = (session.body.payload.config.dependencies as Array<{ name: string; version: string }>).find((d) => d.name === 'node');
    expect(runtime?.version).toBe(NODE_VERSION);
    expect(runtime?.version).toMatch(/^24\./);

    // bulk upload: validate the demo CSV (the demo data holds its funds already, so most rows are
    // editable duplicates), save the accepted rows and overwrite the editable ones as the UI does
    const upload = new FormData();
    upload.append('upload', fixture('fixtures/fund-requests/real-funds.csv'), 'real-funds.csv');
    const validated = await call(url, '/api/v2.0/funds/upload', { token, form: upload });
    expect(validated.status).toBe(200);
    const rows = [...validated.body.payload.accepted, ...validated.body.payload.editable.map((r: object) => ({ ...r, isEditable: true }))];
    expect(validated.body.payload.totalRows).toBeGreaterThan(0);
    expect(rows.length).toBeGreaterThan(0);
    const saved = await call(url, '/api/v2.0/funds', { token, body: { funds: rows } });
    expect(saved.status).toBe(200);
    // a demo fund with delivered files keeps its request: only those rows are refused
    const { saved: done, failed } = saved.body.payload as { saved: Array<{ id: number }>; failed: Array<{ errors: unknown }> };
    for (const f of failed) expect(JSON.stringify(f.errors)).toMatch(/cannot be overwritten/);
    expect(done.length + failed.length).toBe(rows.length);
    expect(done.length).toBeGreaterThan(0);
    fundId = done[0].id;

    // TPA import: stored and listed
    const form = new FormData();
    form.append('administrator', 'demo_test');
    form.append('upload', fixture('fixtures/tpas/demo_test/inputs/demo_holdings.csv'), 'demo_holdings.csv');
    const imported = await call(url, '/api/v2.0/import/files', { token, form });
    expect(imported.status).toBe(200);
    const list = await call(url, '/api/v2.0/import/list', { token, body: { filters: { administrator: 'demo_test' } } });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body.payload)).toContain('demo_holdings.csv');

    // an xlsx written by exceljs (its zip writer once printed a deprecation warning in the binary)
    const listing = await fetch(new URL('/api/v2.0/funds/export-all', url), {
      method: 'POST',
      headers: { 'x-access-token': token, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(listing.status).toBe(200);
    expect(
      Buffer.from(await listing.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    // the UI: index.html and its script
    const index = await fetch(new URL('/', url));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    const html = await index.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const asset = await fetch(new URL(script!, url));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await asset.text()).length).toBeGreaterThan(1000);
  }, 120_000);

  it('downloads an export of the fund over HTTP', async () => {
    const url = server!.url;
    const queued = await call(url, '/api/v2.0/export/files', { token, body: { fundRequests: [fundId], fundRequestStages: ['fundRequest'] } });
    expect(queued.status).toBe(200);
    const id = queued.body.payload.id as number;
    let status = 'pending';
    for (let i = 0; i < 50 && (status === 'pending' || status === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      const rows = (await call(url, '/api/v2.0/export/files/list', { token, body: {} })).body.payload.rows as Array<{
        id: number;
        status: string;
        payload: unknown;
      }>;
      const row = rows.find((r) => r.id === id);
      status = row?.status ?? 'missing';
      if (status === 'error') throw new Error(`export failed: ${JSON.stringify(row?.payload)}`);
    }
    expect(status).toBe('done');
    const download = await call(url, '/api/v2.0/export/token', { token });
    const res = await fetch(new URL(`/api/v2.0/export/file/${id}?token=${encodeURIComponent(download.body.payload.token)}`, url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    // the zip was built in one of the binary's job threads, not on the thread serving requests
    const db = new Database(join(dir, 'data', 'fund-audit.sqlite'), { readonly: true });
    try {
      const job = db.prepare("select worker_id from processes where stage = 'export' and json_extract(payload, '$.exportId') = ?").get(id) as {
        worker_id: string;
      };
      expect(job.worker_id).toMatch(/^serve-.+\/t[1-9]\d*$/);
    } finally {
      db.close();
    }
  }, 60_000);

  it('stops on SIGTERM with exit code 0', async () => {
    const child = server!.child;
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(server!.output()).not.toMatch(/\bERR_|Error:/);
    expect(server!.output()).not.toMatch(/Warning/);
  });

  it('exports the fund with the CLI on the same data directory (export job inside the binary)', () => {
    const r = spawnSync('./fund-audit', ['--data-dir', './data', '--json', 'export', '--funds', String(fundId), '--stages', 'fundRequest', '-o', 'out.zip'], {
      cwd: dir,
      env: binaryEnv(dir),
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'done' });
    expect(readFileSync(join(dir, 'out.zip')).subarray(0, 2).toString()).toBe('PK');
  });
});
