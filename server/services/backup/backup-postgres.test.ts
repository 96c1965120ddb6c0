/**
 * Backup and restore are of a SQLite data directory: on an install whose database is PostgreSQL
 * they are refused with the way there (pg_dump, pg_restore), before anything is written.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describePg, openDialectDatabase, type DialectDatabase } from '../../testing/dialects.js';
import { ValidationError } from '../../errors.js';
import { errorOf } from '../../testing/context.js';
import { createBackup } from './backup.js';
import { restoreBackup } from './restore.js';
import { runScheduledBackup, startBackupSchedule } from './schedule.js';

const URL = 'postgres://fund_audit:secret@db.example.com:5432/fund_audit';

describe('backup and restore of an install on PostgreSQL', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fund-audit-backup-pg-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a backup, naming pg_dump, and writes nothing', async () => {
    const to = join(dir, 'b.zip');
    const err = await errorOf<ValidationError>(() => createBackup({ dataDir: dir, dbName: 'fund-audit.db', databaseUrl: URL }, to));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('Cannot back up this install: backup and restore are of a SQLite data directory, and its database is PostgreSQL (databaseUrl)');
    expect(err.errors?.[0]).toMatch(/^Back up a PostgreSQL database with pg_dump .* and restore it with pg_restore$/);
    expect(existsSync(to)).toBe(false);
  });

  it('refuses a restore the same way', async () => {
    const err = await errorOf<ValidationError>(() => restoreBackup(join(dir, 'missing.zip'), dir, { databaseUrl: URL }));
    expect(err.message).toMatch(/^Cannot restore this install: backup and restore are of a SQLite data directory/);
  });
});

describePg('scheduled backups on a PostgreSQL context', () => {
  let database: DialectDatabase;
  beforeEach(async () => {
    database = await openDialectDatabase('postgres', { backupSchedule: '0 2 * * *' });
  });
  afterEach(() => database.dispose());

  it('are refused at start and when run, naming pg_dump', async () => {
    expect(errorOf<ValidationError>(() => startBackupSchedule(database.ctx)).errors?.[0]).toMatch(/pg_dump/);
    expect((await errorOf(() => runScheduledBackup(database.ctx))).message).toMatch(/^Cannot back up this install/);
  });
});
