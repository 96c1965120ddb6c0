// Builds Fund Audit with esbuild.
//   node build.mjs          -> node bundle (dist/cli.mjs) and web bundle (dist/web)
//   node build.mjs node     -> only the node bundles (dist/cli.mjs: CLI + server + pipeline;
//                              dist/worker.mjs: the job worker thread; dist/pool-worker.mjs: the
//                              thread of the request pools)
//   node build.mjs web      -> only the React UI
// The node bundle carries its packages too, except the native SQLite addon and the packages that
// start their own worker files (piscina, pino): one file to load instead of hundreds of modules
// to resolve, which halves the start-up of every command. The single binary has its own recipe
// (see docs/architecture.md, "Single binary").
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { archiverBuffers, nativeCrc32, withoutDevtools } from './scripts/bundle-plugins.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const what = process.argv[2] ?? 'all';

/** Packages left to node_modules: the native addon, and packages that load files of their own by path. */
const NODE_EXTERNAL = ['better-sqlite3', 'piscina', 'pino', 'pino-pretty', 'thread-stream', 'fsevents'];

async function buildNode() {
  await build({
    // the CLI (with the server), the job worker thread it starts (server/jobs/pool.ts) and the
    // thread of its request pools (server/threads/pools.ts); server/jobs/script.ts finds them
    entryPoints: {
      cli: join(root, 'cli/main.ts'),
      worker: join(root, 'server/jobs/thread-entry.ts'),
      'pool-worker': join(root, 'server/threads/pool-entry.ts'),
    },
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: NODE_EXTERNAL,
    // CommonJS packages inside an ESM bundle call `require` for Node's own modules
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [withoutDevtools, archiverBuffers, nativeCrc32],
    sourcemap: 'linked',
    logLevel: 'warning',
    define: { 'process.env.DEV': '"false"' },
  });
}

/**
 * The theme's Inter webfont (345 KB, more than the rest of the first load together) is not
 * downloaded: its @font-face uses Inter when the machine has it installed, else the system's UI
 * font (docs/benchmarks.md, "Static files").
 */
const localInterFont = {
  name: 'local-inter-font',
  setup(b) {
    b.onLoad({ filter: /primereact[\\/]resources[\\/]themes[\\/].*theme\.css$/ }, async (args) => {
      const css = await readFile(args.path, 'utf8');
      const contents = css
        .replace(/url\("\.\/fonts\/InterVariable\.woff2"\) format\("woff2"\)/g, 'local("Inter Variable"), local("Inter")')
        .replace(/"Inter var", sans-serif/g, '"Inter var", Inter, system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif')
        .replace(/url\("\.\/fonts\/InterVariable-Italic\.woff2"\) format\("woff2"\)/g, 'local("Inter Variable Italic"), local("Inter Italic")');
      if (contents.includes('InterVariable')) throw new Error(`${args.path}: its Inter @font-face changed; update localInterFont in build.mjs`);
      return { contents, loader: 'css', resolveDir: dirname(args.path) };
    });
  },
};

async function buildWeb() {
  const out = join(dist, 'web');
  await rm(out, { recursive: true, force: true });
  const result = await build({
    entryPoints: { app: join(root, 'web/src/main.tsx') },
    outdir: join(out, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'media/[name]-[hash]',
    jsx: 'automatic',
    loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.eot': 'file', '.svg': 'file', '.png': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [localInterFont],
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint && o.entryPoint.endsWith('web/src/main.tsx'));
  if (!entry) throw new Error('web build produced no entry chunk');
  const [jsPath, meta] = entry;
  // the entry's CSS and the CSS of lazily loaded chunks (esbuild emits one file per chunk; nothing
  // would load those otherwise)
  const cssPaths = [meta.cssBundle, ...outputs.map(([p]) => p).filter((p) => p.endsWith('.css') && p !== meta.cssBundle)].filter(Boolean);
  const href = (p) => '/' + relative(out, join(root, p)).split('\\').join('/');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fund Audit</title>
<link rel="icon" href="data:,">
${cssPaths.map((p) => `<link rel="stylesheet" href="${href(p)}">`).join('\n')}
</head>
<body>
<div id="root"></div>
<script type="module" src="${href(jsPath)}"></script>
</body>
</html>
`;
  await writeFile(join(out, 'index.html'), html);
  await writeFile(join(dist, 'web-meta.json'), JSON.stringify(result.metafile));
  await precompress(out);
}

/** Files the server sends compressed: `<file>.br` and `<file>.gz` sit beside each (server/http/static.ts). */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Writes brotli (quality 11) and gzip (level 9) variants of every compressible file under `dir`, when smaller. */
async function precompress(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && COMPRESSIBLE.test(e.name)).map((e) => join(e.parentPath ?? e.path, e.name));
  await Promise.all(
    files.map(async (file) => {
      const raw = await readFile(file);
      const br = await brotli(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
      const gz = await gzipAsync(raw, { level: 9 });
      if (br.length < raw.length) await writeFile(`${file}.br`, br);
      if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
    }),
  );
}

await mkdir(dist, { recursive: true });
if (what === 'all' || what === 'node') await buildNode();
if (what === 'all' || what === 'web') await buildWeb();
