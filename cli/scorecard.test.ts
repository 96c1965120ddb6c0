/**
 * `fund-audit scorecard` on a data directory and through a server: the ranking and one TPA's
 * figures as tables, --json equal to the API's answer, --csv, the funds behind a figure, the xlsx
 * workbook, and clear errors with their exit codes.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext, type AppContext } from '../server/context.js';
import { startServer } from '../server/http/server.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { insertAdministrator } from '../server/testing/fund-factory.js';
import { daysAgo, insertAnsweredChase, insertDeliveredFund } from '../server/testing/scorecard-deliveries.js';
import { runCliAsync } from './testing/cli.js';

const env = { FUND_AUDIT_SEED_DEMO_DATA: 'false', FUND_AUDIT_SERVER: '', FUND_AUDIT_TOKEN: '' };
let dir: string;
let ctx: AppContext;
let server: Awaited<ReturnType<typeof startServer>>;
let key: string;
const from = daysAgo(70).slice(0, 7);
const to = new Date().toISOString().slice(0, 7);
const run = (args: string[]) => runCliAsync(['-d', dir, 'scorecard', ...args, '--from', from, '--to', to], env);
const remote = (args: string[]) => runCliAsync(['--server', server.url, '--token', key, 'scorecard', ...args, '--from', from, '--to', to], env);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fa-scorecard-'));
  ctx = await createContext({ dataDir: dir, flags: { seedDemoData: false, logLevel: 'silent' }, terminalLog: false });
  const admin = (await bootstrap(ctx)).admin;
  const north = await insertAdministrator(ctx, 'north_admin', 'North Administration');
  const south = await insertAdministrator(ctx, 'south_admin', 'South Administration');
  await insertDeliveredFund(ctx, { administratorId: north, client: 'Orion Capital', dueDate: daysAgo(40), lateBy: -1, passed: true, fundCode: 'NOR1' });
  await insertDeliveredFund(ctx, { administratorId: south, client: 'Orion Capital', dueDate: daysAgo(45), lateBy: 5, passed: true, fundCode: 'SOU1' });
  const failed = await insertDeliveredFund(ctx, {
    administratorId: south,
    client: 'Helix Partners',
    dueDate: daysAgo(30),
    lateBy: 2,
    passed: false,
    fundCode: 'SOU2',
  });
  await insertAnsweredChase(ctx, failed, `${daysAgo(27)}T08:00:00.000Z`, `${daysAgo(25)}T08:00:00.000Z`);
  key = (await issueToken(ctx, admin.id, 'api', 600_000)).token;
  server = await startServer(ctx, { host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await server?.close();
  ctx?.close();
});

describe('fund-audit scorecard', { timeout: 90_000 }, () => {
  it('ranks every TPA worst first, and gives one TPA with its months; the same through a server', async () => {
    const all = await run([]);
    expect(all.stderr).toBe('');
    expect(all.status).toBe(0);
    expect(all.stdout).toContain(`TPA scorecard: every TPA, data due ${from} to ${to}`);
    const ranked = all.stdout.slice(all.stdout.indexOf('TPAs ranked, worst first:'));
    expect(ranked.indexOf('South Administration')).toBeLessThan(ranked.indexOf('North Administration'));

    const one = await run(['--tpa', 'south_admin', '--json']);
    const card = JSON.parse(one.stdout);
    expect(card.group).toEqual({ key: 'south_admin', name: 'South Administration' });
    expect(card.figures).toMatchObject({
      requests: 2,
      onTimeRate: 0,
      meanDaysLate: 3.5,
      p90DaysLate: 5,
      firstTimeRightRate: 50,
      chasesSent: 1,
      medianDaysToAnswer: 2,
    });
    const viaServer = await remote(['--tpa', 'South Administration', '--json']);
    expect(viaServer.status).toBe(0);
    expect(JSON.parse(viaServer.stdout)).toEqual(card);

    const table = await run(['--tpa', 'south_admin']);
    expect(table.stdout).toMatch(/On-time rate\s+0\.0%/);
    expect(table.stdout).toMatch(/Median days from chase to answer\s+2 days/);
  });

  it('prints CSV: the ranking without a name, the months and a total with one', async () => {
    const ranking = (await run(['--client', '--csv'])).stdout.split('\r\n');
    expect(ranking[0]).toMatch(/^rank,client,requests,onTimeRate,/);
    expect(ranking.slice(1, 3).map((l) => l.split(',')[1])).toEqual(['Helix Partners', 'Orion Capital']);
    const months = (await run(['--tpa', 'north_admin', '--csv'])).stdout.trim().split('\r\n');
    expect(months[0]).toMatch(/^month,requests,/);
    expect(months.at(-1)).toMatch(/^total,1,100,/);
  });

  it('lists the funds behind a figure, and writes the workbook', async () => {
    const late = await run(['--tpa', 'south_admin', '--funds', 'late']);
    expect(late.stdout).toContain('Late: 2 fund request(s)');
    expect(late.stdout).toMatch(/SOU2\s.*Helix Partners/);
    const file = join(dir, 'south.xlsx');
    const written = await remote(['--tpa', 'south_admin', '--xlsx', file]);
    expect(written.stdout).toContain(`Wrote ${file}`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(readFileSync(file)).buffer);
    expect(wb.getWorksheet('Funds')!.rowCount).toBe(3);
  });

  it('refuses an unknown TPA, a bad month and an unknown filter with exit codes 4 and 3', async () => {
    const unknown = await run(['--tpa', 'nobody']);
    expect(unknown.status).toBe(4);
    expect(unknown.stderr).toContain("No TPA has the code or name 'nobody'");
    const bad = await runCliAsync(['-d', dir, 'scorecard', '--from', '2025-13'], env);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain('from must be a month written YYYY-MM');
    const filter = await run(['--funds', 'slow']);
    expect(filter.status).toBe(3);
    expect(filter.stderr).toContain('--funds slow is not a filter');
  });

  it('links a Client user to their client (whose requests alone their scorecards count), and refuses another role', async () => {
    const cli = (args: string[]) => runCliAsync(['-d', dir, ...args], env);
    expect((await cli(['users', 'add', '--email', 'cfo@orion.example.com', '--name', 'Orion CFO', '--role', 'Client'])).status).toBe(0);
    const linked = await cli(['users', 'client', 'cfo@orion.example.com', 'Orion Capital']);
    expect(linked.stdout).toBe('cfo@orion.example.com sees the fund requests of Orion Capital\n');
    const { getUserByEmail } = await import('../server/services/users/users.js');
    const user = await getUserByEmail(ctx, 'cfo@orion.example.com');
    const token = (await issueToken(ctx, user.id, 'api', 60_000)).token;
    const own = await runCliAsync(['--server', server.url, '--token', token, '--json', 'scorecard', '--client', '--from', from, '--to', to], env);
    expect(JSON.parse(own.stdout).ranking.map((r: { key: string }) => r.key)).toEqual(['Orion Capital']);
    expect((await cli(['users', 'client', 'cfo@orion.example.com'])).stdout).toBe('cfo@orion.example.com is linked to no client\n');
    const admin = await cli(['users', 'client', 'admin@fund-audit.local', 'Orion Capital']);
    expect(admin.status).toBe(3);
    expect(admin.stderr).toContain('only Client users are linked to a client');
  });
});
