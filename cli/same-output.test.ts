/**
 * Every command that works both on a data directory and on a server prints the same thing either
 * way: two copies of one install, one opened locally (`-d`), the other served (`--server`), get the
 * same commands in the same order; stdout (JSON and text) and exit codes must be equal. Only the
 * clock differs between the two runs: times of day and durations are masked before comparing; and
 * an import records how its file arrived (`source`: 'cli' read from disk, 'upload' sent to the API).
 */
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../server/bootstrap.js';
import { createContext } from '../server/context.js';
import { fixturesDir } from '../server/paths.js';
import { issueToken } from '../server/services/auth/tokens.js';
import { runCliAsync, startServe, type CliResult, type Served } from './testing/cli.js';

const env = { FUND_AUDIT_SERVER: '', FUND_AUDIT_TOKEN: '', FUND_AUDIT_DEMO_DELIVERIES: 'false' };
const work = mkdtempSync(join(tmpdir(), 'fa-same-'));
const localDir = join(work, 'local');
const servedDir = join(work, 'served');
let served: Served;
let token: string;

/** Times of day and durations, which differ between two runs of the same command. */
const unclocked = (text: string) =>
  text
    .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?/g, '<time>')
    .replace(/\d{8}T?\d{6}/g, '<time>')
    .replace(/"(time|totalTime)": \d+(\.\d+)?/g, '"$1": 0')
    .replace(/"source": "(cli|upload)"/g, '"source": "<how it arrived>"')
    .replace(/ \d+\.\d s\b| \d+\.\d(?=\s)/g, ' <s>');

/** Runs a command locally, then on the server; both results, clock masked. */
async function both(args: string[], mask?: (text: string) => string): Promise<{ local: CliResult; remote: CliResult }> {
  const local = await runCliAsync(['-d', localDir, ...args], env);
  const remote = await runCliAsync(['--server', served.url, '--token', token, ...args], env);
  const m = (text: string) => (mask ? mask(unclocked(text)) : unclocked(text));
  const clean = (r: CliResult) => ({ ...r, stdout: m(r.stdout), stderr: m(r.stderr) });
  return { local: clean(local), remote: clean(remote) };
}

/** Asserts equal stdout and exit code (and stderr: error messages) for a command; returns the output. */
async function same(args: string[], status = 0, mask?: (text: string) => string): Promise<string> {
  const { local, remote } = await both(args, mask);
  expect(local.status, `${args.join(' ')} locally: ${local.stderr}`).toBe(status);
  expect(remote.stdout, args.join(' ')).toBe(local.stdout);
  expect(remote.status, `${args.join(' ')} with --server: ${remote.stderr}`).toBe(status);
  expect(remote.stderr.replace(/ --server URL and that the server is running/, ''), args.join(' ')).toBe(local.stderr);
  return local.stdout;
}

/** The same command with --json and as text. */
async function sameBothWays(args: string[], status = 0, mask?: (text: string) => string): Promise<unknown> {
  const json = JSON.parse(await same(['--json', ...args], status, mask));
  await same(args, status, mask);
  return json;
}

const inputs = (tpa: string) => readdirSync(join(fixturesDir(), 'tpas', tpa, 'inputs')).map((f) => join(fixturesDir(), 'tpas', tpa, 'inputs', f));

beforeAll(async () => {
  const ctx = await createContext({ dataDir: servedDir, flags: { demoDeliveries: false, logLevel: 'silent' }, terminalLog: false });
  token = (await issueToken(ctx, (await bootstrap(ctx)).admin.id, 'api', 3_600_000)).token;
  ctx.close();
  cpSync(servedDir, localDir, { recursive: true });
  // the rate files are listed in the developer tools
  served = await startServe(servedDir, ['--no-signin-link', '--workers', '1'], { ...env, FUND_AUDIT_DEV_TOOLS_ENABLED: 'true' });
}, 60_000);

afterAll(async () => {
  await served?.stop();
});

describe('local and --server output', { timeout: 300_000 }, () => {
  it('funds list and the status actions', async () => {
    const list = (await sameBothWays(['funds', 'list', '--limit', '20'])) as { rows: Array<{ id: number; status: string }> };
    expect(list.rows.length).toBeGreaterThan(0);
    const pending = list.rows.find((r) => r.status === 'Pending')!;
    await sameBothWays(['funds', 'list', '--status', 'Pending', '--search', 'Fund', '--limit', '5']);
    await same(['--json', 'funds', 'approve', String(pending.id)]);
    await same(['funds', 'approve', String(pending.id)], 3);
    await same(['funds', 'pause', String(pending.id)]);
    await sameBothWays(['funds', 'approve', '999999'], 4);
    await sameBothWays(['funds', 'list', '--status', 'Paused']);
  });

  it('import, mappings list, upload, history, diff and download, and tpa create and upload-mappings', async () => {
    const imported = (await same(['--json', 'import', '--tpa', 'meridian_fund_services', ...inputs('meridian_fund_services')])) as string;
    expect(JSON.parse(imported).summary).toContainEqual(expect.objectContaining({ status: 'Success', identifiedAs: 'holdings' }));
    await same(['import', '--tpa', 'keystone_admin', ...inputs('keystone_admin')]);
    await sameBothWays(['import', '--tpa', 'nobody', inputs('demo_test')[0]], 4);

    const mappings = (await sameBothWays(['mappings', 'list', '--tpa', 'demo_test'])) as Array<{ id: number; type: string }>;
    const instrument = mappings.find((m) => m.type === 'instrument_mapping')!;
    const csv = join(fixturesDir(), 'tpas/demo_test/mappings/instrument_mapping.csv');
    await same(['--json', 'mappings', 'upload', csv, '--tpa', 'demo_test', '--type', 'instrument_mapping', '--reason', 'same content']);
    await sameBothWays(['mappings', 'history', String(instrument.id)]);
    await sameBothWays(['mappings', 'diff', String(instrument.id), '1', '1']);
    await sameBothWays(['mappings', 'history', '999999'], 4);
    await sameBothWays(['mappings', 'download', String(instrument.id), '-o', join(work, 'mapping.csv')]);

    const folder = join(fixturesDir(), 'tpas/demo_test/mappings');
    await same(['--json', 'tpa', 'create', 'same_tpa', '--name', 'Same TPA', '--region', 'EMEA', '--mappings', folder]);
    await sameBothWays(['tpa', 'upload-mappings', 'same_tpa', folder, '--reason', 'again']);
    await sameBothWays(['tpa', 'create', 'same_tpa', '--name', 'Same TPA'], 3);
  });

  it('export, bulk-upload, adjustments and reference fx list', async () => {
    const { rows } = JSON.parse(await same(['--json', 'funds', 'list', '--status', 'Paused', '--limit', '1'])) as { rows: Array<{ id: number }> };
    const fund = String(rows[0].id);
    // a zip records when each entry was written: its size may differ by a few bytes
    const zipSize = (text: string) => text.replace(/"size": \d+/, '"size": 0').replace(/\(\d+ bytes\)/, '(0 bytes)');
    const exported = (await sameBothWays(['export', '--funds', fund, '--stages', 'all', '-o', join(work, 'out.zip')], 0, zipSize)) as { files: number };
    expect(exported.files).toBeGreaterThan(0);
    await sameBothWays(['export', '--funds', fund, '--stages', 'nothing', '-o', join(work, 'out.zip')], 3);

    const csv = (name: string) => join(fixturesDir(), 'fund-requests', name);
    await sameBothWays(['bulk-upload', csv('bad-rows.csv'), '--dry-run'], 3);
    await sameBothWays(['bulk-upload', csv('real-funds.csv')], 3);

    await sameBothWays(['adjustments', 'list', fund]);
    const add = ['adjustments', 'add', fund, '--type', 'main', '--description', 'Audit fee accrual', '--line', '20900=-2500', '--line', 'EXPENSE_OTHER=2500'];
    const added = JSON.parse(await same(['--json', ...add])) as { id: number };
    await same(add);
    await sameBothWays(['adjustments', 'list', fund]);
    await same(['adjustments', 'delete', fund, String(added.id)]);
    await same(['adjustments', 'add', fund, '--type', 'main', '--description', 'x', '--line', 'EXPENSE_OTHER=1'], 3);
    await sameBothWays(['adjustments', 'list', '999999'], 4);
    await sameBothWays(['reference', 'fx', 'list']);
  });

  it('test list and test run', async () => {
    const suites = (await sameBothWays(['test', 'list'])) as Array<{ administratorCode: string }>;
    expect(suites.map((s) => s.administratorCode)).toContain('meridian_fund_services');
    await sameBothWays(['test', 'run', '--admin', 'meridian_fund_services', '--tests', '2']);
    await sameBothWays(['test', 'run', '--admin', 'nope'], 3);
  });
});
