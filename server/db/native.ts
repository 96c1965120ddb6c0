/**
 * better-sqlite3's native addon inside the single binary, where `require` cannot load `.node`
 * files: the addon is unpacked to a cache folder (server/sea.ts), loaded with `process.dlopen`, and
 * handed to better-sqlite3 (the build patches its `bindings` lookup to read the global below).
 * Worker threads of the binary load the same file the same way.
 */
import { sqliteOptions } from './client.js';

/** Global the build's better-sqlite3 patch reads (= ADDON_GLOBAL in scripts/build-binary.mjs). */
const ADDON_GLOBAL = '__FUND_AUDIT_SQLITE_ADDON__';

let loadedFrom: string | undefined;

/**
 * Loads the addon file and makes better-sqlite3 use it in this thread.
 * @throws Error when the file cannot be loaded (missing, a noexec mount, another platform)
 */
export function useSqliteAddon(file: string): void {
  const mod = { exports: {} as object };
  process.dlopen(mod, file);
  (globalThis as Record<string, unknown>)[ADDON_GLOBAL] = mod.exports;
  // better-sqlite3 accepts the loaded addon object (its types only admit a path)
  (sqliteOptions as { nativeBinding?: unknown }).nativeBinding = mod.exports;
  loadedFrom = file;
}

/** The addon file loaded by `useSqliteAddon`, for worker threads to load too (undefined outside the binary). */
export const sqliteAddonFile = (): string | undefined => loadedFrom;
