/**
 * Serves the prebuilt React UI from `dist/web`: files by path, long-cached hashed assets, the
 * brotli/gzip variants the build wrote by content negotiation, and index.html for every other GET
 * path so the client-side router can take over.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { webDistDir } from '../paths.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
  '.ico': 'image/x-icon',
};

/** Reads a file of the UI build; replaceable by the single binary, which keeps the UI as assets. */
export let readWebFile = (relPath: string): Buffer | undefined => {
  const root = webDistDir();
  const file = normalize(join(root, relPath));
  if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) return undefined;
  return readFileSync(file);
};

/** Replaces the UI file reader (single binary). */
export function setWebFileReader(reader: (relPath: string) => Buffer | undefined): void {
  readWebFile = reader;
}

/** Content codings the build writes beside a file, best first: brotli (`.br`), then gzip (`.gz`). */
const CODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The codings a client accepts, from its `Accept-Encoding` header (RFC 9110 12.5.3): names with
 * `q=0` are refused, `*` stands for any coding not named.
 */
export function acceptedCodings(header: string | null | undefined): Set<string> {
  const accepted = new Set<string>();
  const refused = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    (q !== undefined && Number(q) === 0 ? refused : accepted).add(name.trim());
  }
  if (accepted.has('*')) for (const c of CODINGS) if (!refused.has(c.name)) accepted.add(c.name);
  for (const name of refused) accepted.delete(name);
  return accepted;
}

/** A UI file answer: the precompressed variant the client accepts when the build made one. */
function fileResponse(rel: string, raw: Buffer, acceptEncoding: string | null | undefined, cache: string, read = readWebFile): Response {
  const headers: Record<string, string> = {
    'content-type': TYPES[extname(rel)] ?? 'application/octet-stream',
    'cache-control': cache,
    vary: 'accept-encoding',
  };
  const accepted = acceptedCodings(acceptEncoding);
  for (const coding of CODINGS) {
    if (!accepted.has(coding.name)) continue;
    const encoded = read(rel + coding.suffix);
    if (encoded) return new Response(new Uint8Array(encoded), { headers: { ...headers, 'content-encoding': coding.name } });
  }
  return new Response(new Uint8Array(raw), { headers });
}

/** index.html of the build made for a base path, with its compressed variants (made once per build and path). */
const indexUnder = new Map<string, { source: Buffer; files: Record<string, Buffer> }>();

/**
 * index.html for a base path: asset addresses under the prefix and a
 * `<meta name="fund-audit-base-path">` the UI reads for its API, socket and route addresses.
 * @param basePath a prefix such as `/fund-audit` (never '')
 */
function indexHtmlUnder(basePath: string, source: Buffer): Record<string, Buffer> {
  const cached = indexUnder.get(basePath);
  if (cached?.source.equals(source)) return cached.files;
  const html = source
    .toString('utf8')
    .replace(/(href|src)="\/assets\//g, `$1="${basePath}/assets/`)
    .replace('<head>', `<head>\n<meta name="fund-audit-base-path" content="${basePath}">`);
  const raw = Buffer.from(html);
  const files = { 'index.html': raw, 'index.html.br': brotliCompressSync(raw), 'index.html.gz': gzipSync(raw) };
  indexUnder.set(basePath, { source, files });
  return files;
}

/**
 * Answers a GET for a UI path: a file of the build, else index.html (the client-side router takes
 * over). Hashed files under `assets/` are cached for a year as immutable; index.html is `no-cache`
 * so a new build is picked up at once. JS, CSS and HTML go out brotli- or gzip-encoded by content
 * negotiation (`Accept-Encoding`) from the variants `build.mjs` writes, never compressed per request.
 * @param pathname the path inside the app (the base path already taken off)
 * @param acceptEncoding the request's `Accept-Encoding` header (none: the file as built)
 * @param basePath the prefix the UI is served under ('' for the root): index.html is rewritten for it
 */
export function serveWeb(pathname: string, acceptEncoding?: string | null, basePath = ''): Response {
  const rel = decodeURIComponent(pathname).replace(/^\/+/, '');
  const file = rel && rel !== 'index.html' ? readWebFile(rel) : undefined;
  if (file) return fileResponse(rel, file, acceptEncoding, rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (rel.startsWith('assets/')) return new Response('Not found', { status: 404 });
  const index = readWebFile('index.html');
  if (!index) return new Response('The web UI is not built: run `npm run build`.', { status: 503, headers: { 'content-type': 'text/plain' } });
  if (!basePath) return fileResponse('index.html', index, acceptEncoding, 'no-cache');
  const files = indexHtmlUnder(basePath, index);
  return fileResponse('index.html', files['index.html'] as Buffer, acceptEncoding, 'no-cache', (relPath) => files[relPath]);
}
