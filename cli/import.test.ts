import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '../server/paths.js';
import { runCli } from './testing/cli.js';

const run = (args: string[]) => runCli(args);
const inputs = (tpa: string) => readdirSync(join(fixturesDir(), 'tpas', tpa, 'inputs')).map((f) => join(fixturesDir(), 'tpas', tpa, 'inputs', f));

describe('fund-audit import', () => {
  it('imports a TPA delivery, runs the pipeline and shows what each file became', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-import-'));
    const r = run(['-d', dir, 'import', '--tpa', 'meridian_fund_services', ...inputs('meridian_fund_services')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/identification: done 4\/4/);
    expect(r.stdout).toMatch(/MFS_HOLDINGS_S000013795_20230331\.csv\s+Success\s+holdings\s+1/);
    const j = run(['-d', dir, '--json', 'import', '--tpa', 'keystone_admin', ...inputs('keystone_admin')]);
    expect(j.status).toBe(0);
    expect(JSON.parse(j.stdout).summary).toEqual([
      expect.objectContaining({ status: 'Success', identifiedAs: 'trial_balance, holdings, share_capital, prices' }),
    ]);
  });

  it('exits 3 naming the problem of a file that cannot be identified or matched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-import-'));
    const broken = join(fixturesDir(), 'tpas/meridian_fund_services/broken');
    const r = run([
      '-d',
      dir,
      'import',
      '--tpa',
      'meridian_fund_services',
      join(broken, 'MFS_HOLDINGS_wrong_layout.csv'),
      join(broken, 'MFS_HOLDINGS_unknown_fund.csv'),
    ]);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/MFS_HOLDINGS_wrong_layout\.csv could not be identified/);
    expect(r.stderr).toMatch(/no fund request matches \(NOFUND0001\)/);
    expect(run(['-d', dir, 'import', '--tpa', 'nobody', inputs('demo_test')[0]]).stderr).toMatch(/No administrator with code: nobody/);
  });

  it("names a workbook's sheet no layout matches (a 'Read Me') as not used, in the table and in --json", async () => {
    // Keystone's delivered workbook with a 'Read Me' sheet in front of its data sheets, as TPAs send it
    const workbook = 'KEYSTONE_5493006TF05454RBY690_20221231.xlsx';
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(fixturesDir(), 'tpas/keystone_admin/inputs', workbook));
    wb.addWorksheet('Read Me').addRow(['About this workbook: one sheet per report of the period end; amounts in USD.']);
    wb.worksheets.unshift(wb.worksheets.pop()!);
    const dir = mkdtempSync(join(tmpdir(), 'fa-import-'));
    const file = join(dir, workbook);
    writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
    const r = run(['-d', dir, 'import', '--tpa', 'keystone_admin', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/notUsed/);
    expect(r.stdout).toMatch(/Sheet 'Read Me' not used: /);
    // the same bytes again would be a duplicate: a second data directory
    const j = run(['-d', mkdtempSync(join(tmpdir(), 'fa-import-')), '--json', 'import', '--tpa', 'keystone_admin', file]);
    expect(JSON.parse(j.stdout).summary[0].notUsed).toMatch(/^Sheet 'Read Me' not used: \S/);
  }, 120_000);
});

describe('fund-audit mappings', () => {
  it('lists, uploads and downloads mappings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-map-'));
    const list = JSON.parse(run(['-d', dir, '--json', 'mappings', 'list', '--tpa', 'demo_test']).stdout);
    expect(list.map((m: any) => m.type).sort()).toEqual([
      'account_mapping',
      'file_layout',
      'instrument_mapping',
      'share_capital_mapping',
      'transaction_mapping',
    ]);
    const file = join(fixturesDir(), 'tpas/demo_test/mappings/instrument_mapping.csv');
    /** `mappings upload` of the demo TPA's instrument mapping as a custom one with this name and reason. */
    const uploadCustom = (name: string, reason: string) =>
      run([
        '-d',
        dir,
        'mappings',
        'upload',
        file,
        '--tpa',
        'demo_test',
        '--type',
        'instrument_mapping',
        '--mode',
        'custom',
        '--name',
        name,
        '--reason',
        reason,
      ]);
    const bad = uploadCustom('Bad Name', 'x');
    expect(bad.status).toBe(3);
    expect(bad.stderr).toMatch(/Provided name is invalid/);
    const ok = uploadCustom('demo_munis', 'municipal bonds only');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/instrument_mapping\.csv uploaded as demo_munis/);
    const id = JSON.parse(run(['-d', dir, '--json', 'mappings', 'list', '--tpa', 'demo_test']).stdout).find((m: any) => m.description === 'demo_munis').id;
    const out = join(dir, 'out.csv');
    expect(run(['-d', dir, 'mappings', 'download', String(id), '-o', out]).status).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(readFileSync(out, 'utf8')).toMatch(/^\ufeffsource_code,target_code,description/);
  });
});
