/**
 * Modules that say they are dialect-neutral (a `Dialect-neutral` line in their header comment) run
 * on SQLite and PostgreSQL: they only await drizzle builders, so none of the synchronous
 * better-sqlite3 calls (`.run()`, `.all()`, `.get()`, `.values()`, `.prepare(`, `ctx.sqlite`,
 * `ctx.db.transaction`) may appear in them, nor the SQLite tables imported directly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../paths.js';

const SQLITE_ONLY: Array<[RegExp, string]> = [
  [/\.(run|all|get|values)\(\)/, 'a synchronous better-sqlite3 call (.run/.all/.get/.values)'],
  [/\.prepare\(/, 'a prepared SQLite statement'],
  [/\bctx\.sqlite\b/, 'the SQLite connection'],
  [/\bctx\.db\b/, 'the SQLite database of the context (use storeOf(ctx))'],
  [/from '(\.\.\/)+db\/schema\/index\.js'/, 'the SQLite tables imported directly (use storeOf(ctx).tables)'],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const header = (text: string) => text.slice(0, text.indexOf('*/') + 2);
const neutral = sources(join(appRoot(), 'server')).filter((f) => /^\s*\*\s*Dialect-neutral\b/m.test(header(readFileSync(f, 'utf8'))));

describe('dialect-neutral modules', () => {
  it('are marked', () => {
    expect(neutral.map((f) => relative(appRoot(), f))).toContain('server/queue/services.ts');
  });
  for (const file of neutral) {
    it(`${relative(appRoot(), file)} uses no SQLite-only call`, () => {
      const problems = readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => SQLITE_ONLY.filter(([re]) => re.test(line)).map(([, what]) => `line ${i + 1}: ${what}: ${line.trim()}`));
      expect(problems).toEqual([]);
    });
  }
});
