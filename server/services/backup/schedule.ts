/**
 * Scheduled backups of a running server (`backupSchedule`, a cron expression; croner): each run
 * writes `fund-audit-<time>.zip` into `backupDir` (default `<dataDir>/backups/scheduled`) and then
 * deletes the oldest scheduled backups beyond `backupKeep`. A run never overlaps the previous one.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Cron } from 'croner';
import type { AppConfig } from '../../config.js';
import { ConfigError } from '../../config.js';
import type { AppContext } from '../../context.js';
import { baseStoreOf } from '../../db/dialect.js';
import { assertSqliteInstall, createBackup, type BackupSummary } from './backup.js';

const NAME = /^fund-audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.zip$/;

/** The database URL of a context on PostgreSQL (its `databaseUrl`, else a stand-in), null for a data directory's SQLite. */
function postgresUrlOf(ctx: AppContext): string | null {
  return baseStoreOf(ctx).dialect === 'postgres' ? (ctx.config.databaseUrl ?? 'postgres') : null;
}

/** The folder of scheduled backups. */
export function scheduledBackupDir(config: AppConfig): string {
  return resolve(config.dataDir, config.backupDir ?? join('backups', 'scheduled'));
}

/**
 * Deletes the oldest scheduled backups in a folder beyond `keep` (only files named like scheduled backups).
 * @returns the names deleted
 */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir)
    .filter((n) => NAME.test(n))
    .sort()
    .reverse();
  const drop = names.slice(keep);
  for (const n of drop) rmSync(join(dir, n), { force: true });
  return drop;
}

/**
 * Takes one scheduled backup now and prunes the folder.
 * @throws ValidationError on a PostgreSQL context (pg_dump is the way there)
 */
export async function runScheduledBackup(ctx: AppContext): Promise<BackupSummary & { pruned: string[] }> {
  assertSqliteInstall(postgresUrlOf(ctx), 'back up');
  const dir = scheduledBackupDir(ctx.config);
  mkdirSync(dir, { recursive: true });
  const name = `fund-audit-${new Date().toISOString().replace(/[:.]/g, '-')}.zip`;
  const summary = await createBackup({ dataDir: ctx.config.dataDir, dbName: ctx.config.dbName, blobDir: ctx.blobs.root }, join(dir, name));
  return { ...summary, pruned: pruneBackups(dir, ctx.config.backupKeep) };
}

/**
 * Starts the backup schedule when `backupSchedule` is set.
 * @returns a stop function, or null when no schedule is set
 * @throws ConfigError when the cron expression is not valid; ValidationError on a PostgreSQL context
 */
export function startBackupSchedule(ctx: AppContext): (() => void) | null {
  const pattern = ctx.config.backupSchedule;
  if (!pattern) return null;
  assertSqliteInstall(postgresUrlOf(ctx), 'back up');
  let job: Cron;
  try {
    job = new Cron(pattern, { protect: true, paused: true }, async () => {
      try {
        const done = await runScheduledBackup(ctx);
        ctx.log.info({ file: done.file, bytes: done.bytes, blobs: done.blobs, pruned: done.pruned }, 'scheduled backup written');
      } catch (err) {
        ctx.log.error({ err }, 'scheduled backup failed');
      }
    });
  } catch (err) {
    throw new ConfigError(`backupSchedule: '${pattern}' is not a cron expression (${(err as Error).message})`);
  }
  // parts of a run the previous server process did not finish (it was killed during a backup)
  const dir = scheduledBackupDir(ctx.config);
  if (existsSync(dir)) for (const n of readdirSync(dir)) if (/^fund-audit-.*\.part$/.test(n)) rmSync(join(dir, n), { force: true });
  job.resume();
  ctx.log.info(
    { schedule: pattern, next: job.nextRun()?.toISOString(), dir: scheduledBackupDir(ctx.config), keep: ctx.config.backupKeep },
    'backups scheduled',
  );
  return () => job.stop();
}
