/**
 * Settings and the Key generator on a local server with developer tools, impersonation and
 * branch changes on (demo data): the Options tab with each setting's source; dev info (branches,
 * a refused branch change with the server's validation error, the pipeline switched off, the
 * top running funds with who created and reran them); clearing and populating the database after
 * confirmation; a user token; the log files with a tail and a download; service keys that work at
 * once and stop when replaced, copied to the clipboard; the buttons disabled and the key
 * generator gone when the environment is not local; dropping every table while staying signed
 * in; impersonating an auditor.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { repoRoot, runCli, sessionOf, startServer, type ServerHandle } from './harness';
import { KeyGeneratorPage, SettingsPage } from './pages/dev-tools-page';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';
import { pageApi } from './page-api';

const VERSION = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

describe('settings and key generator', () => {
  let server: ServerHandle;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let settings: SettingsPage;
  let shell: ShellPage;
  let http: ReturnType<typeof pageApi>;
  const pageErrors: string[] = [];

  /** Calls the API from Node with a token (as a service using a key would). */
  const callWith = (token: string, path: string) =>
    fetch(`${server.url}/api/v2.0${path}`, { method: 'POST', headers: { 'x-access-token': token, 'content-type': 'application/json' }, body: '{}' });
  const go = async (entry: string, title: string) => {
    await shell.sider.getByRole('link', { name: entry }).click();
    await expect.poll(() => shell.pageTitle.innerText()).toBe(title);
  };

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
    writeFileSync(
      join(dataDir, 'config.json'),
      JSON.stringify({ devToolsEnabled: true, devToolsLocal: true, impersonateEnabled: true, branchChangeEnabled: true }),
    );
    server = await startServer({ dataDir });
    browser = await launchBrowser();
    context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    settings = new SettingsPage(page);
    shell = new ShellPage(page);
    await new SignInPage(page).signIn(server.signInLink);
    http = pageApi(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows every setting with its value and where it came from', async () => {
    await go('Settings', 'Settings');
    await page.getByRole('tab', { name: 'Developer logs' }).waitFor();
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Options', 'Developer tools', 'Developer logs']);
    expect(await settings.rowCells('Settings', 'devToolsEnabled')).toEqual(['devToolsEnabled', 'true', 'config file', 'FUND_AUDIT_DEV_TOOLS_ENABLED']);
    expect(await settings.rowCells('Settings', 'logLevel')).toEqual(['logLevel', 'warn', 'command line', 'FUND_AUDIT_LOG_LEVEL']);
    expect(await settings.rowCells('Settings', 'sessionTtlHours')).toEqual(['sessionTtlHours', '12', 'default', 'FUND_AUDIT_SESSION_TTL_HOURS']);
    expect((await settings.rowCells('Input types', 'trial_balance'))[1]).toBe('fund_code, as_of, account_code, balance_base');
    await page.screenshot({ path: screenshotPath('delivery-settings-options.png'), fullPage: true });
  });

  it('shows the branches as the installed version and the server validation error of a branch change', async () => {
    await settings.tab('Developer tools');
    expect(await settings.branchFact('Configurations branch', 'branch')).toBe(`installed-${VERSION}`);
    expect(await settings.branchFact('Configurations branch', 'behind')).toBe('0 commits');
    expect(await settings.branchFact('Configurations branch', 'latestCommit')).toMatch(/^[0-9a-f]{12} TPA configurations shipped with Fund Audit/);
    expect(await settings.branchFact('Testing branch', 'branch')).toBe(`installed-${VERSION}`);
    // updating the installed branch is off (branchUpdateEnabled): its button is disabled
    const conf = settings.region('Configurations branch');
    expect(await conf.getByRole('button', { name: 'Update' }).isDisabled()).toBe(true);
    await conf.getByRole('textbox').fill('develop');
    await conf.getByRole('button', { name: 'Update' }).click();
    const toast = settings.toast('Configuration branch update failed');
    await toast.waitFor();
    expect(await toast.innerText()).toContain(`There is no branch 'develop': this installation only has installed-${VERSION}`);
  });

  it('switches the pipeline off and lists the top running funds with who created and reran them', async () => {
    await settings.serviceSwitch('Pipeline').click();
    await expect.poll(async () => (await http.get<Record<string, string>>('/dev-tools/services')).pipeline).toBe('off');
    // with the pipeline off, a rerun stays queued
    const ids = Object.values(await http.fundIds());
    await http.post('/fund/approve', { ids, requestedBy: 'Fund Audit Administrator' });
    await http.post('/fund/rerun', { ids });
    await settings.region('Ongoing processes').getByRole('button', { name: 'Reload the ongoing processes' }).click();
    const table = settings.table('Ongoing processes');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(4);
    const cells = (await table.locator('tbody tr').first().locator('td').allInnerTexts()).map((t) => t.trim());
    expect(cells.slice(2, 6)).toEqual(['calculations', 'pending', 'Fund Audit Administrator', 'Fund Audit Administrator']);
    expect(cells[0]).toMatch(/^S\d+/);
    expect(cells[6]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    await page.screenshot({ path: screenshotPath('delivery-settings-dev-tools.png'), fullPage: true });
  });

  it('clears the database after confirmation, then loads the demo data again', async () => {
    await settings.dbButton('Clear').click();
    const ask = settings.dialog('Clear the database');
    await ask.getByText(/Remove every fund request/).waitFor();
    await ask.getByRole('button', { name: 'Clear' }).click();
    await settings.toast(/Database cleared: \d+ rows removed/).waitFor();
    expect(Object.keys(await http.fundIds())).toHaveLength(0);
    await settings.dbButton('Populate').click();
    await settings.toast('Demo data loaded: 0 administrators, 0 master mappings, 4 fund requests').waitFor();
    expect(Object.keys(await http.fundIds())).toHaveLength(4);
  });

  it('generates a user token that signs in as that user', async () => {
    await settings.choose('fa-dev-key-user', 'admin@fund-audit.local');
    await settings.region('User token').getByRole('button', { name: 'Generate token' }).click();
    const key = settings.region('User token').getByRole('textbox', { name: 'API key of admin@fund-audit.local' });
    await key.waitFor();
    expect((await callWith(await key.inputValue(), '/funds/listing')).status).toBe(200);
  });

  it('lists the log files, tails the server log (100 lines by default) and downloads it', async () => {
    await settings.tab('Developer logs');
    const files = settings.table('Log files');
    await files.getByText('fund-audit.log').waitFor();
    expect(await page.locator('#fa-dev-tail-count').inputValue()).toBe('100');
    await page.getByRole('button', { name: 'Show last lines' }).click();
    const tail = page.getByRole('log', { name: 'Last lines of fund-audit.log' });
    await tail.waitFor();
    expect(await tail.innerText()).toContain('database cleared');
    await page.locator('#fa-dev-tail-count').fill('1');
    await page.getByRole('button', { name: 'Show last lines' }).click();
    await expect.poll(async () => (await tail.innerText()).split('\n').length).toBe(1);
    const download = page.waitForEvent('download');
    await files.getByRole('button', { name: 'Download fund-audit.log' }).click();
    expect((await download).suggestedFilename()).toBe('fund-audit.log');
    await page.screenshot({ path: screenshotPath('delivery-settings-logs.png'), fullPage: true });
  });

  it('generates service keys that work at once and stop working when replaced, and copies one', async () => {
    await go('Key generator', 'Key generator');
    const keys = new KeyGeneratorPage(page);
    expect(await keys.sectionTitles()).toEqual(['Sweeper', 'Canvas', 'Worker', 'Test user key', 'Test runner key']);
    const first = await keys.generate('Sweeper');
    expect((await callWith(first, '/import/list')).status).toBe(200);
    // a service key reaches only what its service needs
    expect((await callWith(first, '/funds/listing')).status).toBe(403);
    expect(await keys.section('Sweeper').innerText()).toContain('Signs in as Sweeper Service (sweeper@service.fund-audit.local, DeliveryTeamMember)');
    const second = await keys.generate('Sweeper');
    expect(second).not.toBe(first);
    expect(await keys.section('Sweeper').innerText()).toContain('1 earlier key was revoked.');
    expect((await callWith(first, '/import/list')).status).toBe(401);
    expect((await callWith(second, '/import/list')).status).toBe(200);
    const testUser = await keys.generate('Test user key');
    expect((await callWith(testUser, '/funds/listing')).status).toBe(200);
    expect((await callWith(testUser, '/logs/list')).status).toBe(403);
    await keys.section('Sweeper').getByRole('button', { name: 'Copy' }).click();
    await keys.section('Sweeper').getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(second);
    await page.screenshot({ path: screenshotPath('delivery-key-generator.png'), fullPage: true });
  });

  it('disables the database actions and hides the key generator when the environment is not local', async () => {
    const other = await newContext(browser);
    try {
      const remote = await other.newPage();
      // the same server, seen through a session that says the environment is not local
      await remote.route('**/api/sso/login', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { payload: { config: { devTools: { isLocalEnvironment: boolean } } } };
        body.payload.config.devTools.isLocalEnvironment = false;
        await route.fulfill({ response: res, json: body });
      });
      const link = /(https?:\/\/\S+\/redeemToken\/#[\w-]+)/.exec(runCli(server, ['users', 'link', 'admin@fund-audit.local', '--base-url', server.url]))![1];
      // the administrator accepted the privacy notice already
      await new SignInPage(remote).open(link);
      await remote.locator('[data-frame]').waitFor();
      const remoteShell = new ShellPage(remote);
      expect(await remoteShell.siderEntries()).not.toContain('Key generator');
      await remoteShell.sider.getByRole('link', { name: 'Settings' }).click();
      const s = new SettingsPage(remote);
      await s.tab('Developer tools');
      await remote.getByText('Database actions are only available in a local environment.').waitFor();
      for (const name of ['Populate', 'Force master mappings', 'Clear', 'Reset', 'Drop tables']) expect(await s.dbButton(name).isDisabled(), name).toBe(true);
      expect(await remote.getByRole('group', { name: 'User token' }).count()).toBe(0);
      await remote.goto(`${server.url}/api-key-generator`);
      await expect.poll(() => new URL(remote.url()).pathname).toBe('/404');
    } finally {
      await other.close();
    }
  });

  it('drops every table and keeps the developer signed in on an empty database', async () => {
    await go('Settings', 'Settings');
    await settings.tab('Developer tools');
    await settings.dbButton('Drop tables').click();
    await settings.dialog('Drop all tables').getByRole('button', { name: 'Drop tables' }).click();
    await settings.toast(/tables dropped and the schema rebuilt; reloading/).waitFor();
    await page.waitForEvent('load');
    await settings.tab('Developer tools');
    await expect.poll(() => settings.table('Users').locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('admin@fund-audit.local')]);
    expect(Object.keys(await http.fundIds())).toHaveLength(0);
  });

  it('impersonates an auditor: the tab then acts as that user', async () => {
    runCli(server, ['users', 'add', '--email', 'ada@example.com', '--name', 'Ada Auditor', '--role', 'Auditor']);
    await page.reload();
    await settings.tab('Developer tools');
    await settings.choose('fa-dev-imp-user', 'ada@example.com');
    await settings.region('Impersonation').getByRole('button', { name: 'Impersonate' }).click();
    // the tab reloads as the other user: listen before the click, or a fast reload is missed
    const reloaded = page.waitForEvent('load');
    await settings.dialog('Impersonate').getByRole('button', { name: 'Impersonate' }).click();
    await reloaded;
    await expect.poll(async () => (await sessionOf(page, server.url)).user.email).toBe('ada@example.com');
    expect(pageErrors).toEqual([]);
  });
});
