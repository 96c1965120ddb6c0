/**
 * A server killed with `kill -9` in the middle of a pipeline job loses nothing: on restart the job
 * is picked up again and the fund's results are complete.
 * (About half a minute: two server starts, and a 101,100-row delivery standardized twice.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../server/paths.js';
import { BIN as bin, startServe, until } from './testing/cli.js';

const env = { ...process.env, FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: '100000000', CI: '1' };

describe('crash safety', () => {
  it('resumes a job interrupted by kill -9 and completes the fund', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-kill-'));
    expect(spawnSync(process.execPath, [bin, '-d', dir, 'users', 'list'], { env }).status).toBe(0); // demo TPAs, mappings, funds
    // a large holdings delivery (the Goldman Sachs positions 60 times over) keeps standardization busy
    const src = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8').split('\r\n');
    const big = join(dir, 'MFS_HOLDINGS_BIG.csv');
    writeFileSync(big, [...src.slice(0, 4), ...Array.from({ length: 60 }, () => src.slice(4).filter(Boolean)).flat(), ''].join('\r\n'));
    const expectedRows = src.slice(4).filter(Boolean).length * 60;

    const first = await startServe(dir, ['--no-signin-link'], env);
    const db = new Database(join(dir, 'fund-audit.sqlite'), { readonly: true });
    try {
      const imported = spawnSync(process.execPath, [bin, '-d', dir, '--json', 'import', '--tpa', 'meridian_fund_services', '--no-wait', big], {
        env,
        encoding: 'utf8',
      });
      expect(imported.status, imported.stderr).toBe(0);
      const running = await until(
        'a running standardization',
        () => db.prepare("select id from processes where stage = 'standardization' and status = 'running'").get() as { id: number } | undefined,
      );
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      expect((db.prepare('select status from processes where id = ?').get(running.id) as { status: string }).status).toBe('running');

      const second = await startServe(dir, ['--no-signin-link'], env);
      try {
        const done = await until('the fund to be complete', () => db.prepare("select id from fund_files where kind = 'work_paper'").get()).catch((e) => {
          console.error(JSON.stringify(db.prepare('select * from processes').all(), null, 1).slice(0, 4000));
          throw e;
        });
        expect(done).toBeTruthy();
        const p = db.prepare('select status, attempts from processes where id = ?').get(running.id) as { status: string; attempts: number };
        expect(p).toEqual({ status: 'done', attempts: 2 });
        const holdings = db.prepare("select row_count from fund_files where kind = 'standardization' and file_type = 'holdings'").all() as Array<{
          row_count: number;
        }>;
        expect(holdings).toEqual([{ row_count: expectedRows }]);
        // the rows the killed run had staged were dropped when the job ran again
        expect(db.prepare("select count(*) n from fund_files where kind = 'staging'").get()).toEqual({ n: 0 });
        const rows = db.prepare("select sum(row_count) n from sdm_chunks where sdm_type = 'holdings'").get() as { n: number };
        expect(rows.n).toBe(expectedRows);
        // the work paper is stored a moment before its job is marked done
        await until(
          'every job to finish',
          () => (db.prepare("select count(*) n from processes where status in ('pending', 'running')").get() as { n: number }).n === 0,
        );
        expect(db.prepare("select stage, status from processes where status = 'error'").all()).toEqual([]);
      } finally {
        second.child.kill('SIGTERM');
      }
    } finally {
      db.close();
    }
  }, 120_000);
});
