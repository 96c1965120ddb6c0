/**
 * Running Fund Audit as a service: data directories are created only on purpose, a database of a
 * newer version is refused, logs are JSON lines on a non-terminal stdout, sign-in links are usable
 * when bound to every interface, HTTPS with --tls-cert/--tls-key, scheduled backups with retention,
 * and the documented systemd unit passes `systemd-analyze verify`.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../server/paths.js';
import { listZip } from '../server/services/backup/zip-reader.js';
import { BIN, runCli, startServe, until } from './testing/cli.js';

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const quiet = { FUND_AUDIT_SEED_DEMO_DATA: 'false', FUND_AUDIT_WORKERS: '1' };

describe('data directories', () => {
  it('only init and serve create one; other commands refuse a directory that does not exist', () => {
    const dir = join(tmp('fa-dd-'), 'mistyped');
    const listed = runCli(['-d', dir, 'users', 'list'], quiet);
    expect(listed.status).toBe(4);
    expect(listed.stderr).toContain(`The data directory ${dir} does not exist`);
    expect(listed.stderr).toMatch(/fund-audit init/);
    expect(existsSync(dir)).toBe(false);
    const created = runCli(['-d', dir, '--json', 'init', '--no-demo-data']);
    expect(created.status, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ dataDir: dir, created: true, demoData: false });
    expect(runCli(['-d', dir, 'users', 'list'], quiet).stdout).toContain('admin@fund-audit.local');
    expect(runCli(['-d', dir, 'init']).stdout).toContain('already a Fund Audit data directory');
  });

  it('a database upgraded by a newer version is refused, naming both schema versions', async () => {
    const dir = tmp('fa-newer-');
    expect(runCli(['-d', dir, 'init', '--no-demo-data']).status).toBe(0);
    const db = new Database(join(dir, 'fund-audit.sqlite'));
    const known = (db.prepare('select count(*) n from __drizzle_migrations').get() as { n: number }).n;
    db.prepare('insert into __drizzle_migrations (hash, created_at) values (?, ?)').run('from-a-newer-version', Date.now() + 86_400_000);
    db.close();
    for (const args of [
      ['users', 'list'],
      ['serve', '--port', '0'],
    ]) {
      const r = runCli(['-d', dir, ...args], quiet);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(`has schema version ${known + 1}, but Fund Audit`);
      expect(r.stderr).toContain(`knows schema versions up to ${known}`);
    }
  });
});

describe('serve as a service', () => {
  it('logs JSON lines on stdout when it is not a terminal, each request with its id', async () => {
    const dir = tmp('fa-logs-');
    const served = await startServe(dir, ['--no-signin-link'], quiet);
    let out = '';
    served.child.stdout!.on('data', (d) => (out += d));
    try {
      const res = await fetch(`${served.url}/api/health`);
      const id = res.headers.get('x-request-id')!;
      const line = await until('the request line', () =>
        out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l))
          .find((l) => l.reqId === id),
      );
      expect(line).toMatchObject({ level: 30, msg: 'request', ip: '127.0.0.1', route: '/api/health', status: 200 });
      expect(typeof line.time).toBe('string');
    } finally {
      await served.stop();
    }
  });

  it('bound to every interface, prints sign-in links with this machine name (serve and users link)', async () => {
    const dir = tmp('fa-any-');
    const served = await startServe(dir, ['--host', '0.0.0.0'], quiet);
    try {
      expect(served.link).toMatch(new RegExp(`^http://${hostname()}:\\d+/redeemToken/#`));
    } finally {
      await served.stop();
    }
    const link = runCli(['-d', dir, 'users', 'link', 'admin@fund-audit.local'], { ...quiet, FUND_AUDIT_HOST: '0.0.0.0', FUND_AUDIT_PORT: '8123' });
    expect(link.stdout).toMatch(new RegExp(`^http://${hostname()}:8123/redeemToken/#`));
  });

  it('serves HTTPS with --tls-cert and --tls-key', async () => {
    const dir = tmp('fa-tls-');
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', key, '-out', cert], {
      stdio: 'ignore',
    });
    const onlyOne = runCli(['-d', dir, 'serve', '--port', '0', '--tls-cert', cert], quiet);
    expect(onlyOne.status).toBe(7);
    expect(onlyOne.stderr).toContain('TLS needs both tlsCert and tlsKey');
    const child = spawn(process.execPath, [BIN, '-d', dir, 'serve', '--port', '0', '--no-signin-link', '--tls-cert', cert, '--tls-key', key], {
      env: { ...process.env, ...quiet },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const url = await until('https to listen', () => /listening on (https:\/\/[\d.:]+)/.exec(out)?.[1], 20_000);
      const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
        request(`${url}/api/health/live`, { rejectUnauthorized: false }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode, body }));
        })
          .on('error', reject)
          .end();
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).payload).toEqual({ live: true });
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('takes scheduled backups, keeps the newest backupKeep and clears parts of an interrupted run', async () => {
    const dir = tmp('fa-sched-');
    const folder = join(dir, 'backups', 'scheduled');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'fund-audit-2026-01-01T00-00-00-000Z.zip.part'), 'left by a killed server');
    const served = await startServe(dir, ['--no-signin-link'], { ...quiet, FUND_AUDIT_BACKUP_SCHEDULE: '* * * * * *', FUND_AUDIT_BACKUP_KEEP: '2' });
    try {
      const log = () => (existsSync(join(dir, 'logs', 'fund-audit.log')) ? readFileSync(join(dir, 'logs', 'fund-audit.log'), 'utf8') : '');
      await until('four scheduled backups', () => (log().match(/scheduled backup written/g) ?? []).length >= 4, 30_000);
    } finally {
      await served.stop();
    }
    const zips = readdirSync(folder).filter((n) => n.endsWith('.zip'));
    expect(zips).toHaveLength(2);
    expect(readdirSync(folder).filter((n) => n.includes('2026-01-01'))).toEqual([]);
    for (const zip of zips) expect((await listZip(join(folder, zip))).map((e) => e.name)).toContain('manifest.json');
  });
});

describe('docs/deployment.md', () => {
  it.skipIf(spawnSync('systemd-analyze', ['--version']).status !== 0)('has a systemd unit that systemd-analyze verify accepts', () => {
    const doc = readFileSync(join(appRoot(), 'docs/deployment.md'), 'utf8');
    const unit = /```ini\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(unit).toContain('ExecStart=/usr/local/bin/fund-audit serve');
    const dir = tmp('fa-unit-');
    // verify also checks that the program exists: point it at one that does
    const file = join(dir, 'fund-audit.service');
    writeFileSync(file, unit!.replace('/usr/local/bin/fund-audit', process.execPath));
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
