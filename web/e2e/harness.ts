/**
 * Starts a real Fund Audit server for browser tests: `node bin/fund-audit.mjs serve --data-dir
 * <fresh tmp dir> --port 0` from the repository root, reading its address and sign-in link from
 * stdout. Needs `dist/cli.mjs` and `dist/web` (run `node build.mjs` first).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root. */
export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const bin = join(repoRoot, 'bin/fund-audit.mjs');

export interface ServerHandle {
  /** Base URL with the base path, e.g. http://127.0.0.1:41234 or http://127.0.0.1:41234/fund-audit */
  url: string;
  /** The one-time sign-in link printed for the administrator. */
  signInLink: string;
  dataDir: string;
  /** Everything the server printed so far. */
  output: () => string;
  /** Stops the server and removes its data directory unless `keepDataDir`. */
  stop: (options?: { keepDataDir?: boolean }) => Promise<void>;
}

/** Fails early with a clear message when the builds the tests need are missing. */
export function assertBuilt(): void {
  const missing = ['dist/cli.mjs', 'dist/web/index.html'].filter((p) => !existsSync(join(repoRoot, p)));
  if (missing.length) throw new Error(`missing ${missing.join(', ')}: run \`node build.mjs\` before the browser tests`);
}

/** Parses the server's address and sign-in link from its stdout, once both were printed. */
export function parseServeOutput(out: string): { url: string; signInLink: string } | null {
  const url = /listening on (http:\/\/[\w.:/-]+)/.exec(out)?.[1];
  const link = /(https?:\/\/\S+\/redeemToken\/#[\w-]+)/.exec(out)?.[1];
  return url && link ? { url, signInLink: link } : null;
}

export interface StartOptions {
  /** Extra arguments for `serve` (a later `--port N` wins over `--port 0`). */
  args?: string[];
  /** Reuse a data directory (e.g. to restart a stopped server) instead of a fresh one. */
  dataDir?: string;
  /** Let the first start import its demo deliveries (off by default, so a suite sees only its own files). */
  demoDeliveries?: boolean;
  /** Let the first start write the demo TPAs' year of history (off by default, so a suite sees only its own fund requests). */
  demoHistory?: boolean;
}

/** Spawns the server on a free port with a fresh data directory (or the given one). */
export async function startServer(options: StartOptions | string[] = {}): Promise<ServerHandle> {
  assertBuilt();
  const opts: StartOptions = Array.isArray(options) ? { args: options } : options;
  const extraArgs = opts.args ?? [];
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
  const child = spawn(process.execPath, [bin, 'serve', '--data-dir', dataDir, '--port', '0', '--log-level', 'warn', ...extraArgs], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NO_COLOR: '1',
      FUND_AUDIT_DEMO_DELIVERIES: opts.demoDeliveries ? 'true' : 'false',
      FUND_AUDIT_DEMO_HISTORY: opts.demoHistory ? 'true' : 'false',
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));

  const started = await new Promise<{ url: string; signInLink: string }>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`server did not start within 30 s:\n${out}`)), 30_000);
    const check = () => {
      const parsed = parseServeOutput(out);
      if (parsed) {
        clearTimeout(timer);
        res(parsed);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`server exited with ${code}:\n${out}`));
    });
  });

  return {
    ...started,
    dataDir,
    output: () => out,
    stop: async (stopOptions = {}) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killer);
      }
      if (!stopOptions.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a `fund-audit` command against a server's data directory; returns stdout (throws on failure). */
export function runCli(server: Pick<ServerHandle, 'dataDir'>, args: string[]): string {
  const r = spawnSync(process.execPath, [bin, '--data-dir', server.dataDir, ...args], { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`fund-audit ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Creates a user and returns a one-time sign-in link for it on the running server. */
export function addUserWithLink(server: Pick<ServerHandle, 'dataDir' | 'url'>, user: { email: string; name: string; role: string }): string {
  runCli(server, ['users', 'add', '--email', user.email, '--name', user.name, '--role', user.role]);
  const out = runCli(server, ['users', 'link', user.email, '--base-url', server.url]);
  const link = /(https?:\/\/\S+\/redeemToken\/#[\w-]+)/.exec(out)?.[1];
  if (!link) throw new Error(`no sign-in link in: ${out}`);
  return link;
}

/** The session `{user, config}` of the token held by a browser page (read through the API). */
export async function sessionOf(
  page: { evaluate: <T>(fn: () => T) => Promise<T> },
  url: string,
): Promise<{ user: Record<string, unknown>; config: SessionConfigLike }> {
  const token = await page.evaluate(() => sessionStorage.getItem('fa.token'));
  const res = await fetch(`${url}/api/sso/login`, { method: 'POST', headers: { 'x-access-token': token ?? '' } });
  const body = (await res.json()) as { payload: { user: Record<string, unknown>; config: SessionConfigLike } };
  return body.payload;
}

/** The config fields the browser tests look at. */
export interface SessionConfigLike {
  devTools: { enabled: boolean; isLocalEnvironment: boolean };
  testRunner: boolean;
  pbiInputs: boolean;
  mappings: boolean;
  demo: boolean;
  customMappings: boolean;
  sdmUpload: boolean;
  [key: string]: unknown;
}
