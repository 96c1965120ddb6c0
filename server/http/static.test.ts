/** The UI's static files: precompressed variants by content negotiation, and their cache headers. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedCodings, readWebFile, serveWeb, setWebFileReader } from './static.js';

const JS = 'export const answer = 42;\n'.repeat(200);
let dir: string;
const original = readWebFile;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fund-audit-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'index.html.gz'), gzipSync('<!doctype html><div id="root"></div>'));
  writeFileSync(join(dir, 'assets/app-ABC.js'), JS);
  writeFileSync(join(dir, 'assets/app-ABC.js.br'), brotliCompressSync(JS));
  writeFileSync(join(dir, 'assets/app-ABC.js.gz'), gzipSync(JS));
  writeFileSync(join(dir, 'assets/logo-DEF.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  setWebFileReader((rel) => {
    try {
      return readFileSync(join(dir, rel));
    } catch {
      return undefined;
    }
  });
});
afterAll(() => {
  setWebFileReader(original);
  rmSync(dir, { recursive: true, force: true });
});

const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('static UI files', () => {
  it('sends brotli to a browser that accepts it, gzip to one that only accepts gzip, the plain file otherwise', async () => {
    const br = serveWeb('/assets/app-ABC.js', 'gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('accept-encoding');
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(await body(br)).toString()).toBe(JS);

    const gz = serveWeb('/assets/app-ABC.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await body(gz)).toString()).toBe(JS);

    const plain = serveWeb('/assets/app-ABC.js', undefined);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await body(plain)).toString()).toBe(JS);
    // a coding refused with q=0 is not used
    expect(serveWeb('/assets/app-ABC.js', 'br;q=0, gzip;q=0.5').headers.get('content-encoding')).toBe('gzip');
    expect(serveWeb('/assets/app-ABC.js', '*, br;q=0').headers.get('content-encoding')).toBe('gzip');
  });

  it('caches hashed assets for a year as immutable and index.html never without asking', async () => {
    expect(serveWeb('/assets/app-ABC.js', 'br').headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const png = serveWeb('/assets/logo-DEF.png', 'br, gzip');
    expect(png.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(png.headers.get('content-encoding')).toBeNull();
    for (const path of ['/', '/data-platform', '/fund/12']) {
      const res = serveWeb(path, 'gzip, br');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      // only a gzip variant of index.html exists: it is the one sent
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(await body(res)).toString()).toContain('<div id="root">');
    }
    expect(serveWeb('/assets/missing-XYZ.js', 'br').status).toBe(404);
  });

  it('reads the codings of Accept-Encoding with their weights', () => {
    expect([...acceptedCodings('gzip, deflate, br')].sort()).toEqual(['br', 'deflate', 'gzip']);
    expect([...acceptedCodings('br;q=0, gzip;q=1.0')]).toEqual(['gzip']);
    expect([...acceptedCodings('identity')]).toEqual(['identity']);
    expect([...acceptedCodings('')]).toEqual([]);
  });
});
