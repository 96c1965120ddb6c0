import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../server/paths.js';
import { BIN as bin, runCliAsync, startServe } from './testing/cli.js';
import { signIn } from './testing/server.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1' };
const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, input: '' });
const csv = (name: string) => join(fixturesDir(), 'fund-requests', name);

function seedTpas(dir: string) {
  // the TPAs the real funds are administered by; created with the local CLI's own bootstrap
  const r = spawnSync(process.execPath, [bin, '-d', dir, 'users', 'list'], { encoding: 'utf8', env: { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'true' } });
  expect(r.status).toBe(0);
}

describe('fund-audit bulk-upload', () => {
  it('dry-run lists declined rows with their errors and exits 3; --json gives the rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-bulk-'));
    const r = run(['-d', dir, 'bulk-upload', csv('bad-rows.csv'), '--dry-run']);
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/Validate bad-rows\.csv: done \(0 accepted, 0 editable, 17 declined\)/);
    expect(r.stderr).toMatch(/row 4: tpa 'no_such_tpa' is not a known TPA/);
    const j = run(['-d', dir, '--json', 'bulk-upload', csv('bad-rows.csv'), '--dry-run']);
    const out = JSON.parse(j.stdout);
    expect(out).toMatchObject({ totalRows: 17, declined: 17, saved: [], dryRun: true });
    expect(out.rows[0].errors.faults[0]).toEqual({ column: 'fundName', message: 'fundName is required' });
  });

  it('saves every row (exit 0), refuses to overwrite without --overwrite (exit 3), overwrites with it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-bulk-'));
    seedTpas(dir); // first use also loads the demo fund requests
    const again = run(['-d', dir, 'bulk-upload', csv('real-funds.csv')]);
    expect(again.status).toBe(3);
    expect(again.stdout).toMatch(/0 accepted, 4 editable, 0 declined/);
    expect(again.stderr).toMatch(/add --overwrite to replace existing requests/);
    const over = run(['-d', dir, '--json', 'bulk-upload', csv('real-funds.csv'), '--overwrite', '--request-date', '03/04/2023']);
    expect(over.status).toBe(0);
    const out = JSON.parse(over.stdout);
    expect(out.saved).toHaveLength(4);
    expect(out.saved.every((s: any) => s.overwritten)).toBe(true);
  });

  it('works the same against a running server with --server and --token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-bulk-'));
    seedTpas(dir);
    const served = await startServe(dir, [], env);
    try {
      const { url, link } = { url: served.url, link: served.link! };
      const token = await signIn(url, link);
      const r = await runCliAsync(['--server', url, '--token', token, '--json', 'bulk-upload', csv('real-funds.csv'), '--overwrite'], env);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).saved).toHaveLength(4);
      const bad = spawnSync(process.execPath, [bin, '--server', url, '--token', 'wrong', 'bulk-upload', csv('real-funds.csv')], { encoding: 'utf8', env });
      expect(bad.status).toBe(6);
      expect(bad.stderr).toMatch(/token is not valid/);
    } finally {
      await served.stop();
    }
  });
});
