import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../paths.js';
import { openDb } from './client.js';

function withExtraMigration(folder: string, tag: string, sql: string): void {
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  const last = journal.entries[journal.entries.length - 1];
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(join(folder, `${tag}.sql`), sql);
}

describe('database', () => {
  it('creates the schema with WAL, foreign keys and a busy timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-db-'));
    const { sqlite, schemaVersion, applied } = await openDb(dir, 'test.sqlite');
    expect(applied).toBeGreaterThan(0);
    expect(schemaVersion).toBe(applied);
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    const tables = sqlite
      .prepare("select name from sqlite_master where type='table'")
      .all()
      .map((r: any) => r.name);
    for (const t of [
      'users',
      'tokens',
      'administrators',
      'reference_data',
      'fund_requests',
      'fund_codes',
      'recipients',
      'saved_filters',
      'trail',
      'import_files',
      'fund_files',
      'processes',
      'mappings',
      'export_files',
      'test_runs',
      'settings',
    ]) {
      expect(tables).toContain(t);
    }
    sqlite.close();
    const again = await openDb(dir, 'test.sqlite');
    expect(again.applied).toBe(0);
    again.sqlite.close();
  });

  it('backs the database up before a schema upgrade and rolls a failed upgrade back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-db-'));
    const migrations = join(dir, 'migrations');
    cpSync(migrationsDir(), migrations, { recursive: true });
    const first = await openDb(dir, 'up.sqlite', migrations);
    first.sqlite.prepare("insert into administrators (code, name) values ('keep_me', 'Keep Me')").run();
    first.sqlite.close();

    withExtraMigration(migrations, '9001_broken', 'ALTER TABLE administrators ADD COLUMN note text;--> statement-breakpoint\nTHIS IS NOT SQL;');
    await expect(openDb(dir, 'up.sqlite', migrations)).rejects.toThrow();

    // fix the migration: the column from the failed attempt must not exist (rolled back)
    writeFileSync(join(migrations, '9001_broken.sql'), 'ALTER TABLE administrators ADD COLUMN note text;');
    const upgraded = await openDb(dir, 'up.sqlite', migrations);
    expect(upgraded.applied).toBe(1);
    expect(upgraded.backup && existsSync(upgraded.backup)).toBeTruthy();
    expect(readdirSync(join(dir, 'backups')).length).toBeGreaterThanOrEqual(1);
    const row = upgraded.sqlite.prepare("select code, note from administrators where code = 'keep_me'").get() as any;
    expect(row).toEqual({ code: 'keep_me', note: null });
    upgraded.sqlite.close();
  });
});
