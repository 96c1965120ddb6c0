/**
 * Test support for CLI tests: run the real entry point (`bin/fund-audit.mjs`, which loads the built
 * `dist/cli.mjs`) synchronously or without blocking, and start `serve` on a free port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { appRoot } from '../../server/paths.js';

export const BIN = join(appRoot(), 'bin/fund-audit.mjs');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end with stdin closed (never a terminal). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, CI: '1', ...env }, input: '', cwd, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI without blocking this process (needed while an in-process server answers it). */
export function runCliAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export interface Served {
  child: ChildProcess;
  url: string;
  /** The printed one-time sign-in link, when printed. */
  link: string | null;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `fund-audit serve --port 0` on a data directory and waits for its listening line. */
export function startServe(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, '-d', dir, 'serve', '--port', '0', ...args], {
    env: { ...process.env, CI: '1', FUND_AUDIT_DEMO_DELIVERIES: 'false', FUND_AUDIT_DEMO_HISTORY: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const wantLink = !args.includes('--no-signin-link');
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const url = out.match(/listening on (http:\/\/[\d.:]+)/)?.[1];
      const link = out.match(/(http:\/\/\S+\/redeemToken\/#\S+)/)?.[1] ?? null;
      if (url && (link || !wantLink)) {
        clearTimeout(timer);
        resolve({
          child,
          url,
          link,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
              child.once('exit', (code) => done(code));
              child.kill(signal);
            }),
        });
      }
    });
  });
}

/** Starts `fund-audit worker` on a data directory and waits until its threads are up. */
export function startWorker(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, '-d', dir, 'worker', ...args], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${out}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
    child.stderr!.on('data', (d) => (out += d));
    child.stdout!.on('data', (d) => {
      out += d;
      if (/Fund Audit worker: \d+ job thread/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
  });
}

/** Polls until `fn` returns a value (every 10 ms). @throws after the timeout */
export async function until<T>(what: string, fn: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
