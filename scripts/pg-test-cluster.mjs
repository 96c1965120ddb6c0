#!/usr/bin/env node
/**
 * A throwaway PostgreSQL cluster for tests: `initdb` + `pg_ctl` in a new temporary directory, on a
 * free port of 127.0.0.1, trust authentication for the `postgres` user; stopped and removed on
 * `stop()` or when this process exits. Run as root, the server runs as the `postgres` user
 * (`runuser`), since PostgreSQL refuses to run as root.
 *
 * `node scripts/pg-test-cluster.mjs` starts one, prints its URL and keeps it until Ctrl-C.
 * Binaries: the newest `/usr/lib/postgresql/<version>/bin` (Debian's `postgresql` package), else
 * `initdb` and `pg_ctl` on PATH.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Where `initdb` and `pg_ctl` are.
 * @returns the folder holding both, or null when PostgreSQL is not installed
 */
export function findPgBin() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

/** A free TCP port of 127.0.0.1 (free when asked; the start retries if it is taken meanwhile). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The uid and gid of the `postgres` user, when this process is root (PostgreSQL will not run as root). */
function postgresUser() {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('Running as root, PostgreSQL needs the "postgres" user to run as; none exists (install Debian\'s postgresql package)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts a cluster.
 * @param {{ settings?: Record<string, string>, keep?: string }} [opts] server settings over the
 *   test defaults (e.g. `{ shared_buffers: '4GB' }` for a benchmark; the tests' 32 MB keeps a
 *   cluster small); `keep`: a folder that holds the cluster and outlives it (made on the first
 *   start, started again as it is on the next; a benchmark's seeded data kept between runs)
 * @returns `{url, dir, stop, reused}`: the connection URL (`postgres://postgres@127.0.0.1:<port>/postgres`),
 *   the directory, `stop()` which stops the server and removes the directory (a kept one stays),
 *   and whether a kept cluster was there already
 * @throws Error when the binaries are missing or the server does not start (with its log)
 */
export async function startPgCluster(opts = {}) {
  const bin = findPgBin();
  if (!bin) throw new Error('PostgreSQL is not installed: no initdb and pg_ctl in /usr/lib/postgresql/*/bin or on PATH (apt-get install -y postgresql)');
  const owner = postgresUser();
  const kept = opts.keep ?? null;
  if (kept) mkdirSync(kept, { recursive: true });
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'fund-audit-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const reused = existsSync(join(data, 'PG_VERSION'));
  const log = join(dir, 'server.log');
  const run = (cmd, args) => {
    const [file, argv] = owner ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    return execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  };
  let stopped = false;
  let watchdog = null;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    watchdog?.kill();
    const [file, argv] = owner
      ? ['runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']]
      : [join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']];
    // a kept cluster is stopped cleanly (a checkpoint first), so that it starts again without recovery
    if (kept) argv[argv.indexOf('immediate')] = 'fast';
    if (existsSync(join(data, 'postmaster.pid'))) spawnSync(file, argv, { stdio: 'ignore' });
    if (!kept) rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  try {
    if (!reused) run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c shared_buffers=32MB',
        '-c max_connections=100',
        ...Object.entries(opts.settings ?? {}).map(([k, v]) => `-c ${k}=${v}`),
      ].join(' ');
      try {
        run('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '60', 'start']);
        // a process killed outright (SIGKILL) runs no exit handler: a watchdog stops the cluster then
        const pgCtl = `${owner ? 'runuser -u postgres -- ' : ''}'${join(bin, 'pg_ctl')}' -D '${data}' -m ${kept ? 'fast' : 'immediate'} stop`;
        const remove = kept ? '' : `; rm -rf '${dir}'`;
        watchdog = spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; ${pgCtl} >/dev/null 2>&1${remove}`], {
          detached: true,
          stdio: 'ignore',
        });
        watchdog.unref();
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir, stop, reused };
      } catch (err) {
        if (attempt >= 3) throw new Error(`PostgreSQL did not start: ${err.message}\n${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
      }
    }
  } catch (err) {
    stop();
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // handlers first: a signal that comes while the cluster starts stops it once it has started
  let cluster = null;
  let ending = false;
  const end = () => {
    ending = true;
    if (!cluster) return;
    cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
  cluster = await startPgCluster();
  if (ending) end();
  console.log(cluster.url);
  setInterval(() => {}, 1 << 30);
}
