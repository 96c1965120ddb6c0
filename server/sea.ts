/**
 * Runtime adapter of the single binary (`dist/fund-audit`, built by `scripts/build-binary.mjs`).
 * Inside the binary, `prepareSea()` runs before anything else: it unpacks the application files
 * the code reads by path (package.json, migrations, fixtures, the web build, the SQLite addon) once
 * into a cache folder keyed by the build hash, points `FUND_AUDIT_APP_ROOT` at it, loads
 * better-sqlite3's native addon from there and serves the UI straight from the embedded assets.
 * Outside the binary it does nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { dirname, join, posix } from 'node:path';
import * as sea from 'node:sea';
import { useSqliteAddon } from './db/native.js';
import { setWebFileReader } from './http/static.js';

/** Asset key of the manifest the build writes: the file list, the build hash (the cache folder's name) and the addon's key. */
export const SEA_MANIFEST_KEY = 'fund-audit/manifest.json';
/** File written last into an unpacked folder: its presence means the folder is complete. */
const COMPLETE_MARKER = '.complete';

/** What the build embeds: every file by its path relative to the application root (= its asset key). */
export interface SeaManifest {
  name: string;
  version: string;
  /** sha256 (hex, 16 chars) of the bundle and every asset: the cache folder's name. */
  hash: string;
  files: string[];
  /** Path (and key) of better-sqlite3's native addon among `files`. */
  addon: string;
}

/** True when running inside the single binary. */
export function isSea(): boolean {
  try {
    return sea.isSea();
  } catch {
    return false;
  }
}

/** Where unpacked builds go: `FUND_AUDIT_CACHE_DIR`, else `$XDG_CACHE_HOME/fund-audit`, else `~/.cache/fund-audit`. */
export function cacheRoots(): string[] {
  if (process.env.FUND_AUDIT_CACHE_DIR) return [process.env.FUND_AUDIT_CACHE_DIR];
  const roots: string[] = [];
  if (process.env.XDG_CACHE_HOME) roots.push(join(process.env.XDG_CACHE_HOME, 'fund-audit'));
  try {
    roots.push(join(homedir(), '.cache', 'fund-audit'));
  } catch {
    // no home directory: the temporary folder below
  }
  let user = 'user';
  try {
    user = String(userInfo().uid);
  } catch {
    // keep the generic name
  }
  roots.push(join(tmpdir(), `fund-audit-${user}`));
  return roots;
}

/** `mkdir -p` without `recursive: true`, which loops forever in Node 20 where a parent refuses children (/proc). */
function makeDir(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * Unpacks every file of the manifest into `<root>/<hash>` unless a complete copy is there already.
 * Atomic: files go to a temporary sibling folder that is renamed into place, so a crash or a second
 * process starting at the same time never leaves or sees a half-written folder.
 * @returns the unpacked application root
 */
export function unpack(root: string, manifest: SeaManifest, read: (key: string) => ArrayBuffer): string {
  const dir = join(root, manifest.hash);
  if (existsSync(join(dir, COMPLETE_MARKER))) return dir;
  makeDir(root);
  const tmp = mkdtempSync(join(root, `.${manifest.hash}-`));
  try {
    for (const rel of manifest.files) {
      const file = join(tmp, ...rel.split('/'));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, new Uint8Array(read(rel)), { mode: rel === manifest.addon ? 0o755 : 0o644 });
    }
    writeFileSync(join(tmp, COMPLETE_MARKER), manifest.hash + '\n');
    try {
      renameSync(tmp, dir);
    } catch (err) {
      if (existsSync(join(dir, COMPLETE_MARKER))) return dir; // another process won the race
      if (!existsSync(dir)) throw err;
      rmSync(dir, { recursive: true, force: true }); // an incomplete leftover: replace it
      renameSync(tmp, dir);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** Serves `dist/web/**` from the embedded assets (copied once, on first request). */
function embeddedWebReader(manifest: SeaManifest): (relPath: string) => Buffer | undefined {
  const keys = new Set(manifest.files);
  const cache = new Map<string, Buffer>();
  return (relPath) => {
    const key = posix.normalize(`dist/web/${relPath.split('\\').join('/')}`);
    if (!key.startsWith('dist/web/') || !keys.has(key)) return undefined;
    let buf = cache.get(key);
    if (!buf) cache.set(key, (buf = Buffer.from(sea.getAsset(key))));
    return buf;
  };
}

let prepared: { appRoot: string; manifest: SeaManifest } | undefined;

/**
 * Inside the binary: unpacks the application files, sets `FUND_AUDIT_APP_ROOT`, loads the SQLite
 * addon and installs the embedded UI reader. Call before the CLI is loaded.
 * @returns the application root and manifest, or undefined outside the binary
 * @throws Error when no cache folder is writable
 */
export function prepareSea(): { appRoot: string; manifest: SeaManifest } | undefined {
  if (prepared || !isSea()) return prepared;
  const manifest = JSON.parse(sea.getAsset(SEA_MANIFEST_KEY, 'utf8')) as SeaManifest;
  const read = (key: string) => sea.getRawAsset(key) as ArrayBuffer;
  let appRoot: string | undefined;
  let addonLoaded = false;
  const failures: string[] = [];
  // the next candidate when a folder is not writable or is on a noexec mount (dlopen fails)
  for (const root of cacheRoots()) {
    try {
      appRoot = unpack(root, manifest, read);
      useSqliteAddon(join(appRoot, ...manifest.addon.split('/')));
      addonLoaded = true;
      break;
    } catch (err) {
      failures.push(`${root}: ${(err as Error).message}`);
    }
  }
  if (!appRoot || !addonLoaded)
    throw new Error(`Fund Audit cannot unpack its files (set FUND_AUDIT_CACHE_DIR to a writable folder):\n  ${failures.join('\n  ')}`);
  process.env.FUND_AUDIT_APP_ROOT = appRoot;
  setWebFileReader(embeddedWebReader(manifest));
  return (prepared = { appRoot, manifest });
}
