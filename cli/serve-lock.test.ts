/**
 * The data-directory lock of `fund-audit serve`, with real processes: a server suspended (SIGSTOP)
 * long past its heartbeat still keeps a second server off its directory; once it is killed
 * (SIGKILL, nothing cleaned up) the next server starts at once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { appRoot } from '../server/paths.js';

const bin = join(appRoot(), 'bin/fund-audit.mjs');
const dir = mkdtempSync(join(tmpdir(), 'fa-serve-lock-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) {
    c.kill('SIGCONT');
    c.kill('SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `serve` on the directory; resolves with its address once it listens. */
function serve(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, '-d', dir, 'serve', '--port', '0', '--no-signin-link', '--no-demo-data', '--workers', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

describe('fund-audit serve on a data directory another server holds', () => {
  it('is refused while that server is suspended past its heartbeat, and starts once it is killed', async () => {
    const first = await serve();
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    first.child.kill('SIGSTOP');
    // as if it had been suspended for an hour: its heartbeat is long stale
    const db = new Database(join(dir, 'fund-audit.sqlite'), { timeout: 5000 });
    db.prepare("UPDATE nodes SET heartbeat_at = ? WHERE kind = 'serve'").run(Date.now() - 3_600_000);
    db.close();
    const second = spawnSync(process.execPath, [bin, '-d', dir, 'serve', '--port', '0', '--no-signin-link', '--workers', '0'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(second.status).toBe(5); // conflict
    expect(second.stderr + second.stdout).toMatch(
      new RegExp(`Fund Audit is already serving the data directory ${dir} at ${first.url.replace(/[.]/g, '\\.')} \\(pid ${first.child.pid} `),
    );
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const third = await serve();
    expect((await fetch(`${third.url}/api/health`)).status).toBe(200);
    const exited = new Promise((r) => third.child.once('exit', r));
    third.child.kill('SIGTERM');
    await exited;
  }, 90_000);
});
