/**
 * Where the application's own files are: the migrations folder and the built web UI.
 * Found by walking up from this module to the folder holding Fund Audit's package.json, so the
 * same code works from sources (tests), from `dist/cli.mjs` and from an unpacked binary
 * (`FUND_AUDIT_APP_ROOT` overrides).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** Absolute path of the application root (the folder with package.json). */
export function appRoot(): string {
  if (cached) return cached;
  if (process.env.FUND_AUDIT_APP_ROOT) return (cached = process.env.FUND_AUDIT_APP_ROOT);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'fund-audit') return (cached = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Fund Audit application folder (package.json)');
    dir = parent;
  }
}

let version: string | undefined;

/** Version of the application from package.json (read once). */
export function appVersion(): string {
  return (version ??= JSON.parse(readFileSync(join(appRoot(), 'package.json'), 'utf8')).version as string);
}

export const migrationsDir = () => join(appRoot(), 'server/db/migrations');
/** Migrations of the PostgreSQL schema (`server/db/schema-pg`). */
export const migrationsPgDir = () => join(appRoot(), 'server/db/migrations-pg');
export const webDistDir = () => join(appRoot(), 'dist/web');
export const fixturesDir = () => join(appRoot(), 'fixtures');
