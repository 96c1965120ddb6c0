import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { insertFund } from '../server/testing/fund-factory.js';
import { runCli } from './testing/cli.js';

const env = { ...process.env, FUND_AUDIT_SEED_DEMO_DATA: 'false', CI: '1' };
const run = (args: string[]) => runCli(args, env);

describe('fund-audit adjustments', () => {
  it('adds, lists, reruns and deletes the adjustments of a fund; bad lines exit 3 naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fa-adjustments-'));
    const ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
    await bootstrap(ctx);
    const fund = (await insertFund(ctx, { name: 'Open Fund', status: 'Approved', fundCode: 'OPN2', currency: 'USD' })).id;
    ctx.close();

    /** `adjustments add` of a main adjustment "Audit fee accrual" with these `--line`s. */
    const addFeeAccrual = (...lines: string[]) =>
      run(['-d', dir, 'adjustments', 'add', String(fund), '--type', 'main', '--description', 'Audit fee accrual', ...lines.flatMap((l) => ['--line', l])]);
    const unbalanced = addFeeAccrual('EXPENSE_OTHER=25000', '20900=-2500');
    expect(unbalanced.status).toBe(3);
    expect(unbalanced.stderr).toContain('Main adjustment is a double entry: its trial balance lines must net to zero, they net to 22,500.00');
    expect(run(['-d', dir, 'adjustments', 'add', String(fund), '--type', 'main', '--description', 'x', '--line', '20900:-2500']).stderr).toContain(
      "--line '20900:-2500' is not ACCOUNT=AMOUNT or ACCOUNT=AMOUNT@SECURITY_ID",
    );

    const added = addFeeAccrual('EXPENSE_OTHER=25000', '20900=-25000');
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^Added adjustment (\d+) to fund request \d+: Main adjustment, Audit fee accrual/);
    const bond = JSON.parse(
      run([
        '-d',
        dir,
        '--json',
        'adjustments',
        'add',
        String(fund),
        '--type',
        'bond',
        '--booked',
        '--description',
        'Vendor price',
        '--line',
        '11000=-1000@US3138W7WP51',
        '--line',
        '11000=-1000',
        '--line',
        'UNREALIZED_GL=1000',
      ]).stdout,
    );
    expect(bond).toMatchObject({
      type: 'bond',
      bookedByTpa: true,
      lines: [{ target: 'holding_value', securityId: 'US3138W7WP51', amount: -1000 }, { target: 'tb_balance' }, { target: 'tb_balance' }],
    });

    const list = run(['-d', dir, 'adjustments', 'list', String(fund)]);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/Main adjustment\s+pre-calc\s+no\s+25000\.00\s+EXPENSE_OTHER=25000\.00 20900=-25000\.00\s+Audit fee accrual/);
    expect(list.stdout).toMatch(/Bond adjustment\s+pre-calc\s+yes\s+1000\.00\s+11000=-1000\.00@US3138W7WP51/);

    const rerun = JSON.parse(run(['-d', dir, '--json', 'adjustments', 'rerun', String(fund)]).stdout);
    expect(rerun).toMatchObject({ fundRequestId: fund, rerun: 'adjustments', adjustments: 2, booked: 1 });

    expect(run(['-d', dir, 'adjustments', 'delete', String(fund), String(bond.id)]).stdout).toBe(`Deleted adjustment ${bond.id} of fund request ${fund}\n`);
    expect(JSON.parse(run(['-d', dir, '--json', 'adjustments', 'list', String(fund)]).stdout)).toHaveLength(1);
    expect(run(['-d', dir, 'adjustments', 'list', '999']).status).toBe(4);
  });
});
