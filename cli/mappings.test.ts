import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { insertAdministrator } from '../server/testing/fund-factory.js';
import { createMapping } from '../server/services/mappings/mappings.js';
import { ensureAdmin } from '../server/services/users/users.js';
import { runCli } from './testing/cli.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1' };
const run = (args: string[]) => runCli(args, env);

const V1 = 'source_code,target_code,description\nCASH,CASH_EQUIVALENT,Cash at bank\nEQ,EQUITY,Shares\nBOND,DEBT,Bonds\n';
const V2 = 'source_code,target_code,description\nCASH,CASH_EQUIVALENT,Cash at bank\nEQ,EQUITY,Listed shares\nLOAN,LOAN,Loans\n';

/** A data directory with a master instrument mapping uploaded twice (versions 1 and 2). */
async function seeded() {
  const dir = mkdtempSync(join(tmpdir(), 'fa-mappings-'));
  const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
  await bootstrap(ctx);
  await insertAdministrator(ctx, 'acme_admin', 'Acme Administration');
  const { user } = await ensureAdmin(ctx, ctx.config.adminEmail);
  const upload = (csv: string, rationale: string) =>
    createMapping(ctx, user, {
      administrator: 'acme_admin',
      mappingType: 'instrument_mapping',
      mappingMode: 'master',
      rationale,
      fileName: 'instrument_mapping.csv',
      bytes: Buffer.from(csv),
    });
  await upload(V1, 'first delivery');
  const m = await upload(V2, 'loans are debt');
  ctx.close();
  return { dir, id: m.id };
}

describe('fund-audit mappings history | diff | download --at-version', () => {
  it('lists the versions, shows the rows changed between two, and writes an earlier version', async () => {
    const { dir, id } = await seeded();
    const list = run(['-d', dir, '--json', 'mappings', 'list']);
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject([{ id, version: 2, description: 'acme_admin_instrument_mapping' }]);

    const history = run(['-d', dir, 'mappings', 'history', String(id)]);
    expect(history.stderr).toBe('');
    expect(history.status).toBe(0);
    expect(history.stdout).toContain('acme_admin_instrument_mapping (id 1, master instrument_mapping of acme_admin), current version 2');
    expect(history.stdout).toMatch(/2 \(current\).*loans are debt/);
    expect(history.stdout).toMatch(/\b1\b.*first delivery/);
    const json = JSON.parse(run(['-d', dir, '--json', 'mappings', 'history', String(id)]).stdout);
    expect(json.versions.map((v: any) => [v.version, v.reason, v.rowCount, v.current])).toEqual([
      [2, 'loans are debt', 3, true],
      [1, 'first delivery', 3, false],
    ]);

    const diff = run(['-d', dir, 'mappings', 'diff', String(id), '1', '2']);
    expect(diff.status).toBe(0);
    expect(diff.stdout.trim().split('\n')).toEqual([
      'acme_admin_instrument_mapping (id 1): version 1 -> 2: 1 added, 1 removed, 1 changed, 1 unchanged',
      '+ loan: source_code=LOAN target_code=LOAN description=Loans',
      '- bond: source_code=BOND target_code=DEBT description=Bonds',
      '~ eq: description Shares -> Listed shares',
    ]);

    const out = join(dir, 'v1.csv');
    const dl = run(['-d', dir, 'mappings', 'download', String(id), '--at-version', '1', '-o', out]);
    expect(dl.status).toBe(0);
    expect(readFileSync(out, 'utf8').replace(/\r\n/g, '\n')).toBe(
      '\ufeffsource_code,target_code,description\nCASH,CASH_EQUIVALENT,Cash at bank\nEQ,EQUITY,Shares\nBOND,DEBT,Bonds\n',
    );

    const missing = run(['-d', dir, 'mappings', 'diff', String(id), '1', '9']);
    expect(missing.status).toBe(4);
    expect(missing.stderr).toContain('Mapping acme_admin_instrument_mapping (id 1) has no version 9; it has versions 1 to 2');
    const bad = run(['-d', dir, 'mappings', 'history', 'abc']);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain("mapping id must be a positive whole number, not 'abc'");
  });
});
