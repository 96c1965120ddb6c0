import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { fixturesDir } from '../server/paths.js';
import { startServer } from '../server/http/server.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { runCli, runCliAsync } from './testing/cli.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1' };
const run = (args: string[]) => runCli(args, env);
const MERIDIAN_MAPPINGS = join(fixturesDir(), 'tpas', 'meridian_fund_services', 'mappings');

async function emptyDataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'fa-tpa-'));
  const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
  await bootstrap(ctx);
  ctx.close();
  return dir;
}

describe('fund-audit tpa create | upload-mappings', () => {
  it('creates a TPA with the real fixture mappings, then saves a changed folder as new versions', async () => {
    const dir = await emptyDataDir();
    const created = run([
      '-d',
      dir,
      'tpa',
      'create',
      'meridian_fund_services',
      '--name',
      'Meridian Fund Services',
      '--region',
      'AMER',
      '--mappings',
      MERIDIAN_MAPPINGS,
    ]);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/TPA meridian_fund_services \(Meridian Fund Services\) created with id \d+/);
    for (const t of ['account_mapping', 'file_layout', 'instrument_mapping', 'share_capital_mapping', 'transaction_mapping'])
      expect(created.stdout).toMatch(new RegExp(`${t}\\.csv saved as master ${t} \\(id \\d+, version 1\\)`));

    const list = JSON.parse(run(['-d', dir, '--json', 'mappings', 'list', '--tpa', 'meridian_fund_services']).stdout);
    expect(list.map((m: any) => m.description).sort()).toEqual([
      'meridian_fund_services_account_mapping',
      'meridian_fund_services_file_layout',
      'meridian_fund_services_instrument_mapping',
      'meridian_fund_services_share_capital_mapping',
      'meridian_fund_services_transaction_mapping',
    ]);

    const again = run(['-d', dir, 'tpa', 'create', 'meridian_fund_services', '--name', 'Meridian']);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('Administrator already exist');

    const folder = mkdtempSync(join(tmpdir(), 'fa-tpa-maps-'));
    writeFileSync(join(folder, 'instrument_mapping.csv'), 'source_code,target_code,description\nABS-MBS,DEBT,Mortgage-backed\nEQ,EQUITY,Shares\n');
    writeFileSync(join(folder, 'notes.txt'), 'not a csv: ignored');
    const uploaded = run(['-d', dir, '--json', 'tpa', 'upload-mappings', 'meridian_fund_services', folder, '--reason', 'trimmed instruments']);
    expect(uploaded.stderr).toBe('');
    expect(uploaded.status).toBe(0);
    expect(JSON.parse(uploaded.stdout).mappings).toMatchObject([{ type: 'instrument_mapping', fileName: 'instrument_mapping.csv', version: 2 }]);
    const history = JSON.parse(run(['-d', dir, '--json', 'mappings', 'history', String(JSON.parse(uploaded.stdout).mappings[0].id)]).stdout);
    expect(history.versions[0]).toMatchObject({ version: 2, reason: 'trimmed instruments', rowCount: 2 });
  });

  it('refuses a code that breaks the name rule, and a folder with a bad file without saving any', async () => {
    const dir = await emptyDataDir();
    const bad = run(['-d', dir, 'tpa', 'create', 'Meridian Fund', '--name', 'Meridian']);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toMatch(/lowercase|name/i);

    expect(run(['-d', dir, 'tpa', 'create', 'meridian_fund_services', '--name', 'Meridian Fund Services']).status).toBe(0);
    const folder = mkdtempSync(join(tmpdir(), 'fa-tpa-bad-'));
    cpSync(MERIDIAN_MAPPINGS, folder, { recursive: true });
    writeFileSync(join(folder, 'account_mapping.csv'), 'source_code,target_code\n11000,NOT_A_TARGET\n');
    writeFileSync(join(folder, 'holdings.csv'), 'a,b\n1,2\n');
    const res = run(['-d', dir, 'tpa', 'upload-mappings', 'meridian_fund_services', folder]);
    expect(res.status).toBe(3);
    expect(res.stderr).toContain('nothing was saved');
    expect(res.stderr).toMatch(/account_mapping\.csv: Line 2: .*NOT_A_TARGET/);
    expect(res.stderr).toContain('holdings.csv');
    const list = JSON.parse(run(['-d', dir, '--json', 'mappings', 'list', '--tpa', 'meridian_fund_services']).stdout);
    expect(list).toEqual([]);

    const missing = run(['-d', dir, 'tpa', 'upload-mappings', 'meridian_fund_services', join(folder, 'nope')]);
    expect(missing.status).toBe(4);
    expect(missing.stderr).toContain('Cannot read the folder');
  });

  it('works against a server: creates the TPA and saves the folder there, checking every file before sending any', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-tpa-remote-'));
    const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
    const admin = (await bootstrap(ctx)).admin;
    const key = (await issueToken(ctx, admin.id, 'api', 60_000)).token;
    const server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
    const remote = (args: string[]) =>
      runCliAsync(['--server', server.url, '--token', key, ...args], { FUND_AUDIT_SEED_DEMO_DATA: 'false', FUND_AUDIT_SERVER: '', FUND_AUDIT_TOKEN: '' });
    try {
      const bad = mkdtempSync(join(tmpdir(), 'fa-tpa-remote-bad-'));
      cpSync(MERIDIAN_MAPPINGS, bad, { recursive: true });
      writeFileSync(join(bad, 'transaction_mapping.csv'), 'source_code,target_code\nBUY,PURCHASE\n');
      const refused = await remote(['tpa', 'create', 'meridian_fund_services', '--name', 'Meridian Fund Services', '--mappings', bad]);
      expect(refused.status).toBe(3);
      expect(refused.stderr).toMatch(/transaction_mapping\.csv: Line 2: .*PURCHASE/);
      expect(ctx.sqlite.prepare("select count(*) n from administrators where code = 'meridian_fund_services'").get()).toEqual({ n: 0 });

      const created = await remote(['--json', 'tpa', 'create', 'meridian_fund_services', '--name', 'Meridian Fund Services', '--mappings', MERIDIAN_MAPPINGS]);
      expect(created.stderr).toBe('');
      expect(created.status).toBe(0);
      const out = JSON.parse(created.stdout);
      expect(out).toMatchObject({ code: 'meridian_fund_services', name: 'Meridian Fund Services' });
      expect(out.mappings.map((m: any) => [m.type, m.version])).toEqual([
        ['account_mapping', 1],
        ['file_layout', 1],
        ['instrument_mapping', 1],
        ['share_capital_mapping', 1],
        ['transaction_mapping', 1],
      ]);
      const stored = ctx.sqlite
        .prepare(
          "select m.type from mappings m join administrators a on a.id = m.administrator_id where a.code = 'meridian_fund_services' and m.kind = 'master' order by m.type",
        )
        .all()
        .map((r: any) => r.type);
      expect(stored).toEqual(['account_mapping', 'file_layout', 'instrument_mapping', 'share_capital_mapping', 'transaction_mapping']);
    } finally {
      await server.close();
      ctx.close();
    }
  });
});
