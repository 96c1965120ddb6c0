import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../server/jobs/engine.js';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { startServer } from '../server/http/server.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { exportStageHandler } from '../server/jobs/exports/job.js';
import { seedExportFund, zipNames } from '../server/testing/export-fund.js';
import { ensureAdmin } from '../server/services/users/users.js';
import { runCli, runCliAsync } from './testing/cli.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1' };
const run = (args: string[]) => runCli(args, env);
const runAsync = (args: string[]) => runCliAsync(args, env);

/** A data directory with one fund that has files of every stage. */
async function seeded() {
  const dir = mkdtempSync(join(tmpdir(), 'fa-export-cli-'));
  const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
  await bootstrap(ctx);
  const fund = await seedExportFund(ctx);
  return { dir, ctx, fund };
}

describe('fund-audit export', () => {
  it('writes the zip locally (exit 0), refuses an unknown fund (exit 3)', async () => {
    const { dir, ctx, fund } = await seeded();
    ctx.close();
    const out = join(dir, 'out.zip');
    const r = run(['-d', dir, 'export', '--funds', String(fund.id), '--stages', 'visualization,calculations', '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Build zip: done \(4 files\)/);
    expect(zipNames(out)).toEqual([
      `${fund.prefix}_work_papers.xlsx`,
      `${fund.prefix}_calculations.csv`,
      `${fund.prefix}_logs.csv`,
      `${fund.prefix}_errors.csv`,
    ]);

    const json = run(['-d', dir, '--json', 'export', '--funds', String(fund.id), '--stages', 'all', '--reviewed-only', '-o', join(dir, 'all.zip')]);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'done', files: 8, file: join(dir, 'all.zip') });

    const bad = run(['-d', dir, 'export', '--funds', '999', '--stages', 'calculations', '-o', join(dir, 'bad.zip')]);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain('No such fund request with id: 999');
    expect(existsSync(join(dir, 'bad.zip'))).toBe(false);
    expect(run(['-d', dir, 'export', '--funds', 'x', '--stages', 'calculations', '-o', join(dir, 'x.zip')]).status).toBe(3);
    expect(run(['-d', dir, 'export', '--funds', String(fund.id), '--stages', 'nope', '-o', join(dir, 'x.zip')]).stderr).toContain('Unknown stage: nope');
  });

  it('exits 1 with the error when the export fails', async () => {
    const { dir, ctx, fund } = await seeded();
    ctx.sqlite.prepare("delete from fund_files where kind = 'work_paper'").run();
    ctx.sqlite.prepare('update fund_files set validation = null').run();
    ctx.sqlite.prepare('delete from orchestration_logs').run();
    ctx.close();
    const r = run(['-d', dir, 'export', '--funds', String(fund.id), '--stages', 'visualization', '-o', join(dir, 'none.zip')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Error: Export \d+ failed: Nothing to export/);
    expect(readdirSync(dir).filter((f) => f.startsWith('none.zip'))).toEqual([]);
  });

  it('queues, waits and downloads from a server with --server and --token', async () => {
    const { dir, ctx, fund } = await seeded();
    const server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    const engine = new Engine(ctx, { export: exportStageHandler }, { workers: 1, pollMs: 100 });
    engine.start();
    try {
      const key = (await issueToken(ctx, (await ensureAdmin(ctx, ctx.config.adminEmail)).user.id, 'api', 60_000)).token;
      const out = join(dir, 'remote.zip');
      const r = await runAsync([
        '--server',
        server.url,
        '--token',
        key,
        '--json',
        'export',
        '--funds',
        String(fund.id),
        '--stages',
        'import,fundRequest',
        '-o',
        out,
      ]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'done', files: 4 });
      expect(zipNames(out)).toEqual(['fund_list.csv', `${fund.prefix}_input_files/holdings 2024.csv`, `${fund.prefix}_logs.csv`, `${fund.prefix}_errors.csv`]);
      const bad = await runAsync(['--server', server.url, '--token', key, 'export', '--funds', '999', '--stages', 'calculations', '-o', join(dir, 'bad.zip')]);
      expect(bad.status).toBe(3);
      expect(bad.stderr).toContain('No such fund request with id: 999');
    } finally {
      await engine.stop();
      await server.close();
      ctx.close();
    }
  });
});
