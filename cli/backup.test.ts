/**
 * Backup and restore of a running install: a backup is taken while a real delivery is being
 * processed; restoring it is refused into the directory the server uses, and into a new directory
 * gives a working install (intact database, every stored file present with its hash, the server
 * starts, takes over the interrupted jobs and finishes the delivery like the original). A damaged
 * archive is refused without touching the target.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../server/paths.js';
import { listZip } from '../server/services/backup/zip-reader.js';
import { runCli, runCliAsync, startServe, until, type Served } from './testing/cli.js';

const env = { FUND_AUDIT_WORKERS: '1', FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: '200000000' };
const COPIES = 40;

/** The delivery's standardized rows once every job has ended (null while jobs remain). */
function finished(dbFile: string): { rows: number; failed: string[] } | null {
  const db = new Database(dbFile, { readonly: true });
  try {
    const open = db.prepare("select count(*) n from processes where status in ('pending', 'running')").get() as { n: number };
    if (open.n) return null;
    const failed = (
      db.prepare("select stage || ' ' || status s from processes where status not in ('done', 'success', 'ignored')").all() as Array<{ s: string }>
    ).map((r) => r.s);
    const std = db
      .prepare(
        "select f.row_count c, (select sum(row_count) from sdm_chunks r where r.fund_file_id = f.id) n from fund_files f join fund_files i on i.id = f.source_file_id where f.kind = 'standardization' and i.file_name = 'MFS_HOLDINGS_BIG.csv'",
      )
      .get() as { c: number; n: number } | undefined;
    if (!std) return null;
    expect(std.n).toBe(std.c);
    return { rows: std.n, failed };
  } finally {
    db.close();
  }
}

describe('backup and restore', () => {
  it('a backup taken during an import restores to a consistent, working install', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-backup-'));
    expect(runCli(['-d', dir, 'users', 'list'], env).status).toBe(0); // demo TPAs and funds
    const src = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8').split('\r\n');
    const positions = src.slice(4).filter(Boolean);
    const delivery = join(dir, 'MFS_HOLDINGS_BIG.csv');
    writeFileSync(
      delivery,
      [src[0], `${src[1]} (large delivery)`, ...src.slice(2, 4), ...Array.from({ length: COPIES }, () => positions).flat(), ''].join('\r\n'),
    );
    const serve: Served = await startServe(dir, ['--no-signin-link'], env);
    let restored: Served | undefined;
    const zip = join(dir, '..', `${dir.split('/').pop()}-backup.zip`);
    const target = mkdtempSync(join(tmpdir(), 'fa-restored-'));
    try {
      expect(runCli(['-d', dir, 'import', '--tpa', 'meridian_fund_services', '--no-wait', delivery], env).status).toBe(0);
      const live = new Database(join(dir, 'fund-audit.sqlite'), { readonly: true });
      await until('a pipeline job to run', () => live.prepare("select 1 from processes where status = 'running'").get(), 60_000);
      live.close();

      // the backup, while the server works on the delivery
      const backup = await runCliAsync(['-d', dir, '--json', 'backup', '--to', zip], env);
      expect(backup.status, backup.stderr).toBe(0);
      const summary = JSON.parse(backup.stdout);
      expect(summary).toMatchObject({ file: zip, damagedBlobs: [] });
      expect(summary.blobs).toBeGreaterThan(0);
      expect(existsSync(`${zip}.part`)).toBe(false);

      // refused while the server uses the directory
      const refused = runCli(['restore', zip, '--data-dir', dir], env);
      expect(refused.status).toBe(5);
      expect(refused.stderr).toMatch(/is using .* Stop it before restoring/);

      // a new directory: restored and checked
      const done = runCli(['--json', 'restore', zip, '--data-dir', target], env);
      expect(done.status, done.stderr).toBe(0);
      expect(JSON.parse(done.stdout)).toMatchObject({ dataDir: target, missingBlobs: [], blobs: summary.blobs });
      const db = new Database(join(target, 'fund-audit.sqlite'));
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      // taken mid-import: the delivery's jobs were not all finished in the copy
      expect((db.prepare("select count(*) n from processes where status in ('pending', 'running')").get() as { n: number }).n).toBeGreaterThan(0);
      expect(db.prepare('select count(*) n from nodes').get()).toEqual({ n: 0 });
      const keys = db
        .prepare("select sha256 k from import_files union select blob_key from fund_files where blob_key is not null and kind != 'staging'")
        .all() as Array<{ k: string }>;
      db.close();
      for (const { k } of keys) {
        const blob = join(target, 'blobs', k.slice(0, 2), k);
        expect(existsSync(blob), k).toBe(true);
        expect(createHash('sha256').update(readFileSync(blob)).digest('hex')).toBe(k);
      }

      // the restored install serves, takes over the interrupted jobs and ends where the original does
      restored = await startServe(target, ['--no-signin-link'], env);
      const health = await fetch(`${restored.url}/api/health`);
      expect(health.status).toBe(200);
      expect((await health.json()).payload).toMatchObject({ live: true, checks: { migrations: { ok: true } } });
      const original = await until('the original to finish', () => finished(join(dir, 'fund-audit.sqlite')), 180_000);
      const copy = await until('the restored install to finish', () => finished(join(target, 'fund-audit.sqlite')), 180_000);
      expect(copy).toEqual(original);
      expect(copy.failed).toEqual([]);
      expect(copy.rows).toBe(positions.length * COPIES);
    } finally {
      await serve.stop();
      await restored?.stop();
    }

    // a damaged archive is refused and leaves the target untouched
    const bytes = readFileSync(zip);
    const entry = (await listZip(zip)).find((e) => e.name.startsWith('blobs/') && e.method === 0 && e.size > 100)!;
    const at = entry.headerOffset + 30 + entry.name.length + 50;
    bytes[at] ^= 0xff;
    const damaged = join(dir, 'damaged.zip');
    writeFileSync(damaged, bytes);
    const fresh = join(mkdtempSync(join(tmpdir(), 'fa-damaged-')), 'install');
    const bad = runCli(['restore', damaged, '--data-dir', fresh], env);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain(`${entry.name}: `);
    expect(existsSync(join(fresh, 'fund-audit.sqlite'))).toBe(false);
  }, 400_000);
});
