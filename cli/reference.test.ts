import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../server/paths.js';
import { runCli } from './testing.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1' };
const run = (args: string[]) => runCli(args, env);
const ECB = join(fixturesDir(), 'ecb', 'eurofxref-hist_2022-12_2024-02.csv');

describe('fund-audit reference fx import | list', () => {
  it('loads an ECB eurofxref-hist csv and lists the dates the loaded rates cover', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-fx-'));
    const imported = run(['-d', dir, 'reference', 'fx', 'import', ECB]);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toMatch(/^Loaded eurofxref-hist_2022-12_2024-02\.csv: \d+ rates of \d+ currencies on 319 dates from 2022-12-01 to 2024-02-29\n$/);
    const list = run(['-d', dir, '--json', 'reference', 'fx', 'list']);
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        file: 'eurofxref-hist_2022-12_2024-02.csv',
        format: 'ECB eurofxref-hist',
        firstDate: '2022-12-01',
        lastDate: '2024-02-29',
        dates: 319,
      }),
    ]);
    const table = run(['-d', dir, 'reference', 'fx', 'list']);
    expect(table.stdout).toMatch(/eurofxref-hist_2022-12_2024-02\.csv\s+ECB eurofxref-hist\s+01\/12\/2022\s+29\/02\/2024\s+319/);

    const bad = join(dir, 'rates.csv');
    writeFileSync(bad, 'Date,USD,SEK,\n2024-01-31,1.0837,abc,\n');
    const refused = run(['-d', dir, 'reference', 'fx', 'import', bad]);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain('rates.csv line 2: bad SEK rate "abc"');
  });
});
