// Builds Fund Audit with esbuild.
//   node build.mjs          -> node bundle (dist/cli.mjs) and web bundle (dist/web)
//   node build.mjs node     -> only the node bundles (dist/cli.mjs: CLI + server + pipeline;
//                              dist/worker.mjs: the job worker thread; dist/pool-worker.mjs: the
//                              thread of the request pools)
//   node build.mjs web      -> only the React UI
// The node bundle keeps node_modules external; the single binary has its own recipe
// (see docs/architecture.md, "Single binary").
import { build } from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const what = process.argv[2] ?? 'all';

async function buildNode() {
  await build({
    // the CLI (with the server), the job worker thread it starts (server/jobs/pool.ts) and the
    // thread of its request pools (server/threads/pools.ts); server/threads/script.ts finds them
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
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    define: { 'process.env.DEV': '"false"' },
  });
}

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
}

await mkdir(dist, { recursive: true });
if (what === 'all' || what === 'node') await buildNode();
if (what === 'all' || what === 'web') await buildWeb();
