/**
 * Sign-in from an empty data directory: the printed link, 'Processing sign in...', the privacy
 * notice (Accept only after scrolling to the end), the delivery Dashboard frame, reload keeps the
 * session, logout returns to /authenticate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { sessionOf, startServer, type ServerHandle } from './harness';
import { MessagePages } from './pages/message-pages';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

describe('sign-in', () => {
  let server: ServerHandle;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await newContext(browser);
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('redeems the printed link and asks for the privacy notice', async () => {
    const signIn = new SignInPage(page);
    // Hold the redeem answer briefly so the processing message can be seen.
    await page.route('**/api/sso/redeemToken', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await signIn.open(server.signInLink);
    await signIn.processing.waitFor();
    await signIn.privacyDialog.waitFor();
    await page.unroute('**/api/sso/redeemToken');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => sessionStorage.getItem('fa.token'))).toMatch(/\S{20,}/);

    expect(await signIn.privacyScrolls()).toBe(true);
    expect(await signIn.acceptButton.isDisabled()).toBe(true);
    expect(await signIn.rejectButton.isEnabled()).toBe(true);
    const text = await signIn.privacyText.innerText();
    expect(text).toMatch(/2 years/);
    expect(text).toMatch(/37 months, plus 90 days/);
    expect(text).toMatch(/Analytics \(optional\)/);
    expect(text).toMatch(/Developers, platform engineering and operations: full administrative access/);
    expect(text).toMatch(/Audit teams: read, edit and delete/);

    await signIn.scrollPrivacyTo(200);
    expect(await signIn.acceptButton.isDisabled()).toBe(true);
    await signIn.scrollPrivacyTo(40);
    await expect.poll(() => signIn.acceptButton.isEnabled()).toBe(true);
  });

  it('accepts and lands on the Dashboard in the delivery frame', async () => {
    const signIn = new SignInPage(page);
    const shell = new ShellPage(page);
    await signIn.acceptButton.click();
    expect(await shell.frameKind()).toBe('delivery');
    expect(new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => shell.pageTitle.innerText()).toBe('Dashboard');
    expect(await shell.appName.innerText()).toBe('Fund Audit');
    await shell.main.getByTestId('listing-title').waitFor();
    const { config } = await sessionOf(page, server.url);
    const gated = (on: unknown, label: string) => (on ? [label] : []);
    expect(await shell.siderEntries()).toEqual([
      'Dashboard',
      'Bulk upload',
      ...gated(config.devTools.enabled, 'Settings'),
      ...gated(config.devTools.enabled && config.devTools.isLocalEnvironment, 'Key generator'),
      'Input Files',
      ...gated(config.testRunner, 'Test Runner'),
      'Import files',
      'Export files',
      ...gated(config.pbiInputs, 'PowerBI Inputs'),
      ...gated(config.mappings, 'Live mappings'),
      'Contacts',
      'Scorecards',
      'Switch to auditor',
    ]);
    await expect.poll(() => shell.connection.getAttribute('data-state'), { timeout: 10_000 }).toBe('connected');
    expect(await shell.footerConnection.innerText()).toContain('connected');
    const details = await shell.connectionDetails();
    expect(details).toEqual(expect.arrayContaining(['DevTools=disabled', 'Demo=disabled', 'fund-audit=1.15.223']));
    expect(details.some((l) => l.startsWith('Mode='))).toBe(true);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: screenshotPath('dashboard.png'), fullPage: true });
  });

  it('navigates with the sider and remembers the route across a reload', async () => {
    const shell = new ShellPage(page);
    await shell.sider.getByRole('link', { name: 'Export files' }).click();
    await expect.poll(() => shell.pageTitle.innerText()).toBe('Export files');
    expect(await page.evaluate(() => sessionStorage.getItem('fa.lastRoute'))).toBe('/export');
    await page.reload();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe('/export');
    await expect.poll(() => shell.pageTitle.innerText()).toBe('Export files');
    expect(await new SignInPage(page).privacyDialog.count()).toBe(0);
    await shell.sider.getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => shell.pageTitle.innerText()).toBe('Dashboard');
  });

  it('collapses the sider and reaches entries by keyboard', async () => {
    const shell = new ShellPage(page);
    const width = () => shell.sider.evaluate((el) => el.getBoundingClientRect().width);
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    await expect.poll(width).toBe(45);
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await expect.poll(width).toBe(175);
    await shell.sider.getByRole('link', { name: 'Bulk upload' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => shell.pageTitle.innerText()).toBe('Bulk upload');
  });

  it('shows the profile and logs out to /authenticate', async () => {
    const shell = new ShellPage(page);
    // keyboard: the connection details show on focus, the profile opens with Enter and closes with Escape
    await shell.connection.focus();
    expect(await page.locator('#fa-conn-details').isVisible()).toBe(true);
    await shell.header.locator('.fa-profile-button').focus();
    await page.keyboard.press('Enter');
    const logout = page.getByRole('button', { name: 'Logout' });
    await expect.poll(() => logout.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => logout.count()).toBe(0);

    const menu = await shell.openProfile();
    const profile = await menu.innerText();
    expect(profile).toContain('admin@fund-audit.local');
    // the address reads on one line, never broken inside a word
    expect(await shell.profileEmailLines()).toEqual(['admin@fund-audit.local']);
    expect(profile).toMatch(/First name/);
    expect(profile).toMatch(/Last name/);
    await page.keyboard.press('Escape');
    await shell.logout();
    const messages = new MessagePages(page);
    await messages.authenticateHeading.waitFor();
    expect(messages.path()).toBe('/authenticate');
    expect(await page.evaluate(() => sessionStorage.getItem('fa.token'))).toBeNull();
    expect(await page.innerText('body')).toContain('fund-audit users link EMAIL');
    expect(pageErrors).toEqual([]);
  });
});
