/**
 * Serves the prebuilt React UI from `dist/web`: files by path, long-cached hashed assets, and
 * index.html for every other GET path so the client-side router can take over.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
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

/** Answers a GET for a UI path. */
export function serveWeb(pathname: string): Response {
  const rel = decodeURIComponent(pathname).replace(/^\/+/, '');
  const file = rel ? readWebFile(rel) : undefined;
  if (file) {
    const cache = rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    return new Response(new Uint8Array(file), { headers: { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream', 'cache-control': cache } });
  }
  if (rel.startsWith('assets/')) return new Response('Not found', { status: 404 });
  const index = readWebFile('index.html');
  if (!index) return new Response('The web UI is not built: run `npm run build`.', { status: 503, headers: { 'content-type': 'text/plain' } });
  return new Response(new Uint8Array(index), { headers: { 'content-type': TYPES['.html'], 'cache-control': 'no-cache' } });
}
