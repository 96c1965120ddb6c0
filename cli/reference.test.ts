/**
 * `fund-audit reference fx list | import | remove` on a data directory and against a server: the
 * shipped ECB history with its last date, a Fed H.10 file loaded beside it, a refused file naming
 * its line, an upload removed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { startServer } from '../server/http/server.js';
import { fixturesDir } from '../server/paths.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { seedFxRates } from '../server/services/reference-data/fx-rates.js';
import { runCli, runCliAsync } from './testing/cli.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1', FUND_AUDIT_SERVER: '', FUND_AUDIT_TOKEN: '' };
const run = (args: string[]) => runCli(args, env);
const FED = join(fixturesDir(), 'fx-sources', 'fed_h10_fx_monthly.csv');
const ECB_DAILY = join(fixturesDir(), 'fx-sources', 'eurofxref_daily_2026-04-13.csv');

describe('fund-audit reference fx on a data directory', { timeout: 120_000 }, () => {
  it('lists the shipped ECB history with its last date, loads a Fed H.10 file, refuses a bad one, removes an upload', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-fx-'));
    expect(run(['-d', dir, 'init', '--no-demo-data']).status).toBe(0);
    const list = run(['-d', dir, 'reference', 'fx', 'list']);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/eurofxref-hist_2020-onwards\.csv\s+ECB eurofxref-hist\s+yes\s+02\/01\/2020\s+13\/04\/2026\s+1608/);
    expect(list.stdout).toContain('Shipped ECB history eurofxref-hist_2020-onwards.csv: 02/01/2020 to 13/04/2026');
    expect(list.stdout).toContain('A rate dated more than 5 business days before a period end is not used; default FX tolerance 0.5%');

    const imported = run(['-d', dir, 'reference', 'fx', 'import', FED]);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toMatch(/^Loaded fed_h10_fx_monthly\.csv \(Fed H\.10\): \d+ rates of \d+ currencies on \d+ dates from 1971-01-01 to 2026-06-01\n$/);
    const json = JSON.parse(run(['-d', dir, '--json', 'reference', 'fx', 'list']).stdout);
    expect(json.files.map((f: any) => [f.file, f.format, f.shipped])).toEqual([
      ['fed_h10_fx_monthly.csv', 'Fed H.10', false],
      ['eurofxref-hist_2020-onwards.csv', 'ECB eurofxref-hist', true],
    ]);

    const bad = join(dir, 'rates.csv');
    writeFileSync(bad, 'Date,USD,SEK,\n2024-01-31,1.0837,abc,\n');
    const refused = run(['-d', dir, 'reference', 'fx', 'import', bad]);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('rates.csv line 2: bad SEK rate "abc"');

    expect(run(['-d', dir, 'reference', 'fx', 'remove', 'fed_h10_fx_monthly.csv']).stdout).toBe('Removed fed_h10_fx_monthly.csv\n');
    const shipped = run(['-d', dir, 'reference', 'fx', 'remove', 'eurofxref-hist_2020-onwards.csv']);
    expect(shipped.status).toBe(3);
    expect(shipped.stderr).toContain('shipped with Fund Audit: it cannot be removed');
  });
});

describe('fund-audit reference fx against a server', { timeout: 90_000 }, () => {
  it('uploads a file of rates to the server and removes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-fx-remote-'));
    const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
    const admin = (await bootstrap(ctx)).admin;
    seedFxRates(ctx);
    const key = (await issueToken(ctx, admin.id, 'api', 60_000)).token;
    const server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    const remote = (args: string[]) => runCliAsync(['--server', server.url, '--token', key, ...args], env);
    try {
      const up = await remote(['reference', 'fx', 'import', ECB_DAILY]);
      expect(up.stderr).toBe('');
      expect(up.stdout).toMatch(
        /^Loaded eurofxref_daily_2026-04-13\.csv \(ECB eurofxref daily\): \d+ rates of \d+ currencies on 1 dates from 2026-04-13 to 2026-04-13\n$/,
      );
      const listed = JSON.parse((await remote(['--json', 'reference', 'fx', 'list'])).stdout);
      expect(listed.files.map((f: any) => f.file)).toEqual(['eurofxref_daily_2026-04-13.csv', 'eurofxref-hist_2020-onwards.csv']);
      expect(listed.shipped.lastDate).toBe('2026-04-13');
      expect((await remote(['reference', 'fx', 'remove', 'eurofxref_daily_2026-04-13.csv'])).stdout).toBe('Removed eurofxref_daily_2026-04-13.csv\n');
      const missing = await remote(['reference', 'fx', 'import', join(dir, 'none.csv')]);
      expect(missing.status).toBe(4);
      expect(missing.stderr).toContain('No such file');
    } finally {
      await server.close();
      ctx.close();
    }
  });
});
