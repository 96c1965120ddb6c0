/**
 * Where the code of a worker thread is, for the job threads (pool.ts) and the request
 * pools (server/threads/pools.ts) alike. Three cases:
 * - inside the single binary: the bundle unpacked from the binary's assets, `dist/<name>.cjs`
 *   under `FUND_AUDIT_APP_ROOT` (the thread loads better-sqlite3's addon itself, see
 *   server/db/native.ts);
 * - from the built bundle: `dist/<name>.mjs` beside `dist/cli.mjs` (built by build.mjs);
 * - from the TypeScript sources (vitest, tsx): `ts-entry.mjs`, which registers tsx in the thread
 *   and imports the entry named in `workerData.entry`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqliteAddonFile } from '../db/native.js';

/** The worker bundles: the job thread (`worker`) and the request pools' thread (`pool-worker`). */
export type ThreadBundle = 'worker' | 'pool-worker';

/** The TypeScript entry of each bundle, relative to this folder. */
const SOURCE_ENTRIES: Record<ThreadBundle, string> = {
  worker: './thread-entry.ts',
  'pool-worker': '../threads/pool-entry.ts',
};

/** A thread's script: `file` to start, and `entry` to pass as `workerData.entry` when `file` is the TypeScript loader. */
export interface ThreadScript {
  file: string;
  entry?: string;
}

/** The script of a worker bundle in this build: the binary's unpacked bundle, the built bundle, or the TypeScript sources. */
export function threadScript(bundle: ThreadBundle): ThreadScript {
  const appRoot = process.env.FUND_AUDIT_APP_ROOT;
  if (sqliteAddonFile() && appRoot) return { file: join(appRoot, 'dist', `${bundle}.cjs`) };
  const here = import.meta.url;
  if (here.endsWith('.ts')) return { file: fileURLToPath(new URL('./ts-entry.mjs', here)), entry: new URL(SOURCE_ENTRIES[bundle], here).href };
  return { file: fileURLToPath(new URL(`./${bundle}.mjs`, here)) };
}

/** True inside the single binary, where every worker script is an unpacked CommonJS bundle. */
export const inBinary = (): boolean => !!(sqliteAddonFile() && process.env.FUND_AUDIT_APP_ROOT);
