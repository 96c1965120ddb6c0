/**
 * Two processes on one data directory - a server and a `fund-audit worker` - take jobs by lease,
 * while one of them is killed with `kill -9` at a random point of each of 24 deliveries and started
 * again. In the end every job is done, each triggered stage reached `done` exactly once, nothing
 * failed (no constraint errors), the standardized rows are complete and the database is intact.
 * (About a minute: 24 deliveries, 24 restarts.)
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../server/paths.js';
import { runCli, startServe, startWorker, until, type Served } from './testing/cli.js';

const RUNS = 24;
const env = { FUND_AUDIT_JOB_LEASE_SECONDS: '3', FUND_AUDIT_WORKERS: '1', FUND_AUDIT_IDENTIFICATION_LIMIT_BYTES: '100000000' };
const killed = (c: ChildProcess) =>
  new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));

describe('jobs across processes', () => {
  it('run every triggered stage to done exactly once while processes are killed and restarted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-once-'));
    expect(runCli(['-d', dir, 'users', 'list'], env).status).toBe(0); // demo TPAs, mappings and funds
    const src = readFileSync(join(fixturesDir(), 'tpas/meridian_fund_services/inputs/MFS_HOLDINGS_S000013795_20230331.csv'), 'utf8').split('\r\n');
    const positions = src.slice(4).filter(Boolean);
    let serve: Served = await startServe(dir, ['--no-signin-link'], env);
    let worker: ChildProcess = await startWorker(dir, [], env);
    const db = new Database(join(dir, 'fund-audit.sqlite'), { readonly: true });
    const expectedRows: number[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        // a delivery of its own (a distinct title line, so it is processed): the positions 5 to 12 times over
        const copies = 5 + (run % 8);
        const file = join(dir, `MFS_HOLDINGS_RUN${run}.csv`);
        const title = [src[0], `${src[1]} (delivery ${run + 1})`, ...src.slice(2, 4)];
        writeFileSync(file, [...title, ...Array.from({ length: copies }, () => positions).flat(), ''].join('\r\n'));
        expectedRows.push(positions.length * copies);
        const imported = runCli(['-d', dir, '--json', 'import', '--tpa', 'meridian_fund_services', '--no-wait', file], env);
        expect(imported.status, imported.stderr).toBe(0);
        await new Promise((r) => setTimeout(r, Math.random() * 1500));
        if (run % 2 === 0) {
          serve.child.kill('SIGKILL');
          await killed(serve.child);
          serve = await startServe(dir, ['--no-signin-link'], env);
        } else {
          worker.kill('SIGKILL');
          await killed(worker);
          worker = await startWorker(dir, [], env);
        }
      }
      await until(
        'every job to end',
        () => (db.prepare("select count(*) n from processes where status in ('pending', 'running')").get() as { n: number }).n === 0,
        120_000,
      );

      const jobs = db.prepare('select id, stage, status, payload, attempts from processes').all() as Array<{
        id: number;
        stage: string;
        status: string;
        payload: string;
        attempts: number;
      }>;
      expect(jobs.filter((j) => j.status !== 'done').map((j) => `${j.stage} ${j.id} ${j.status}: ${JSON.parse(j.payload).error ?? ''}`)).toEqual([]);
      // one identification per delivery, each done once
      const identifications = jobs.filter((j) => j.stage === 'identification').map((j) => JSON.parse(j.payload).importFileId as number);
      expect(identifications.sort((a, b) => a - b)).toEqual([...new Set(identifications)].sort((a, b) => a - b));
      expect(identifications).toHaveLength(RUNS);
      const imports = db.prepare('select status, count(*) n from import_files group by status').all();
      expect(imports).toEqual([{ status: 'Success', n: RUNS }]);
      expect(db.prepare("select count(*) n from fund_files where kind = 'input' and file_name like 'MFS_HOLDINGS_RUN%'").get()).toEqual({ n: RUNS });
      // every standardization is complete and made once per input; the newest delivery's is the fund's
      const std = db
        .prepare(
          "select f.source_file_id s, f.row_count, (select coalesce(sum(row_count), 0) from sdm_chunks r where r.fund_file_id = f.id) n from fund_files f where f.kind = 'standardization' and f.file_type = 'holdings' order by f.source_file_id",
        )
        .all() as Array<{ s: number; row_count: number; n: number }>;
      expect(std.filter((f) => f.row_count !== f.n)).toEqual([]);
      expect(new Set(std.map((f) => f.s)).size).toBe(std.length);
      const newest = db.prepare("select id from fund_files where kind = 'input' and file_type = 'holdings' order by id desc limit 1").get() as { id: number };
      expect(std.find((f) => f.s === newest.id)).toMatchObject({ row_count: expectedRows[RUNS - 1] });
      expect(db.prepare("select count(*) n from fund_files where kind = 'staging'").get()).toEqual({ n: 0 });
      expect(db.prepare("select count(*) n from fund_files where kind = 'work_paper'").get()).toEqual({ n: 1 });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const log = readFileSync(join(dir, 'logs', 'fund-audit.log'), 'utf8');
      expect(log).not.toMatch(/constraint failed/);
      // the kills did land on running jobs: some were taken over
      expect(jobs.some((j) => j.attempts > 1)).toBe(true);
    } finally {
      db.close();
      worker.kill('SIGTERM');
      await serve.stop();
    }
  }, 300_000);
});
