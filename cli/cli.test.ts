import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../server/paths.js';

const bin = join(appRoot(), 'bin/fund-audit.mjs');
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, input: '' });
const tmp = () => mkdtempSync(join(tmpdir(), 'fa-cli-'));

describe('fund-audit CLI', () => {
  it('prints help for every command', () => {
    for (const args of [
      ['--help'],
      ['serve', '--help'],
      ['users', '--help'],
      ['users', 'add', '--help'],
      ['users', 'list', '--help'],
      ['users', 'link', '--help'],
      ['users', 'key', '--help'],
    ]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/Usage: fund-audit/);
    }
  });

  it('adds, lists and links users, with --json output', () => {
    const dir = tmp();
    const added = run(['--data-dir', dir, 'users', 'add', '--email', 'Ada@Example.com', '--name', 'Ada Lovelace', '--role', 'Auditor']);
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/Created Auditor Ada Lovelace <ada@example.com>/);
    const list = run(['--data-dir', dir, '--json', 'users', 'list']);
    expect(list.status).toBe(0);
    const users = JSON.parse(list.stdout);
    expect(users.map((u: any) => u.email)).toEqual(['admin@fund-audit.local', 'ada@example.com']);
    const link = run(['--data-dir', dir, 'users', 'link', 'ada@example.com', '--base-url', 'http://audit.example:9000']);
    expect(link.status).toBe(0);
    expect(link.stdout).toMatch(/^http:\/\/audit\.example:9000\/redeemToken\/#[\w-]+$/m);
  });

  it('prints service keys: a new one revokes the earlier one, an unknown service is refused', () => {
    const dir = tmp();
    const first = run(['--data-dir', dir, '--json', 'users', 'key', 'sweeper']);
    expect(first.status).toBe(0);
    const key = JSON.parse(first.stdout);
    expect(key).toMatchObject({ service: 'sweeper', email: 'sweeper@service.fund-audit.local', role: 'DeliveryTeamMember', revoked: 0 });
    expect(key.token).toMatch(/^[\w-]{43}$/);
    const second = run(['--data-dir', dir, 'users', 'key', 'sweeper']);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/^[\w-]{43}\n\(API key of sweeper@service\.fund-audit\.local, DeliveryTeamMember, valid until .+; 1 earlier key revoked\)$/m);
    const unknown = run(['--data-dir', dir, 'users', 'key', 'mailer']);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toMatch(/Unknown service 'mailer'; keys exist for sweeper, canvas, worker, test-runner, system/);
  });

  it('exits non-zero with a clear message for bad input', () => {
    const dir = tmp();
    const badRole = run(['--data-dir', dir, 'users', 'add', '--email', 'x@example.com', '--name', 'X', '--role', 'Wizard']);
    expect(badRole.status).toBe(3);
    expect(badRole.stderr).toMatch(/role must be one of Root, Admin, DeliveryTeamMember, Auditor, Client/);
    const dup = run(['--data-dir', dir, 'users', 'add', '--email', 'admin@fund-audit.local', '--name', 'Again', '--role', 'Admin']);
    expect(dup.status).toBe(5);
    expect(dup.stderr).toMatch(/already exists/);
    const missing = run(['--data-dir', dir, 'users', 'link', 'nobody@example.com']);
    expect(missing.status).toBe(4);
    expect(missing.stderr).toMatch(/No user with e-mail nobody@example.com/);
    const usage = run(['users', 'add']);
    expect(usage.status).toBe(2);
    const config = run(['--data-dir', dir, 'users', 'list'], { FUND_AUDIT_PORT: 'not-a-port' });
    expect(config.status).toBe(7);
    expect(config.stderr).toMatch(/FUND_AUDIT_PORT/);
  });

  it('serve starts on a free port, prints a sign-in link, answers health and stops on SIGTERM', async () => {
    const dir = tmp();
    const child = spawn(process.execPath, [bin, '--data-dir', dir, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000);
      child.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
        if (m && /redeemToken\/#/.test(out)) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    expect(out).toMatch(new RegExp(`${url}/redeemToken/#[\\w-]+`));
    const health = await (await fetch(`${url}/api/health`)).json();
    expect(health.payload).toMatchObject({ version: '1.15.223' });
    const page = await fetch(`${url}/some/client/route`);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
