/**
 * Error destinations: unknown path -> /404, no token -> /authenticate, a real 403 answer ->
 * /unauthorized, a revoked token (401) -> /authenticate, gated and role-restricted routes, and a
 * failing call shown through the default error notification.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { addUserWithLink, sessionOf, startServer, type ServerHandle } from './harness';
import { MessagePages } from './pages/message-pages';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('error destinations', () => {
  let server: ServerHandle;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends an unknown path to /404 and a protected path without a token to /authenticate', async () => {
    const page = await (await newContext(browser)).newPage();
    const messages = new MessagePages(page);
    await page.goto(`${server.url}/no/such/page`);
    await messages.notFoundHeading.waitFor();
    expect(messages.path()).toBe('/404');
    await messages.homeLink.click();
    await messages.authenticateHeading.waitFor();
    expect(messages.path()).toBe('/authenticate');

    await page.goto(`${server.url}/import`);
    await messages.authenticateHeading.waitFor();
    expect(messages.path()).toBe('/authenticate');
    expect(await page.evaluate(() => sessionStorage.getItem('fa.lastRoute'))).toBe('/import');
    await page.context().close();
  });

  it('is not offered the delivery view as a Client, and answers a forbidden call with /unauthorized (real 403 from the server)', async () => {
    const email = 'auditor.to.client@example.com';
    const link = addUserWithLink(server, { email, name: 'Cleo Client', role: 'Auditor' });
    const page = await (await newContext(browser)).newPage();
    const shell = new ShellPage(page);
    await new SignInPage(page).signIn(link);
    expect(await shell.frameKind()).toBe('auditor');
    expect(await shell.header.innerText()).toContain('Marketplace');
    expect(await shell.tabLabels()).toContain('Data Platform');
    // an administrator makes the signed-in auditor a Client: the page still offers the tabs it had
    const db = new Database(join(server.dataDir, 'fund-audit.sqlite'));
    db.pragma('busy_timeout = 10000');
    db.prepare("UPDATE users SET role = 'Client', original_role = 'Client' WHERE email = ?").run(email);
    db.close();
    // the server reads the role on each call: once it answers the change, the page still shows the old tabs
    const token = await page.evaluate(() => sessionStorage.getItem('fa.token'));
    const statusOf = async () => (await fetch(`${server.url}/api/v2.0/user/status-report`, { headers: { 'x-access-token': token ?? '' } })).status;
    await expect.poll(statusOf, { timeout: 15_000 }).toBe(403);
    // the auditor area's status report is not a Client's to read: the server refuses it
    const forbidden = page.waitForResponse((r) => r.url().endsWith('/api/v2.0/user/status-report'));
    await shell.auditorTabs.getByRole('link', { name: 'Data Platform' }).click();
    expect((await forbidden).status()).toBe(403);
    const messages = new MessagePages(page);
    await messages.unauthorizedMessage.waitFor();
    expect(messages.path()).toBe('/unauthorized');
    expect(await messages.unauthorizedMessage.innerText()).toBe('Welcome to WAMapps - click here to begin your session.');
    await page.screenshot({ path: screenshotPath('unauthorized.png') });

    await page.context().close();
  });

  it('switches an administrator to the auditor view and keeps delivery-only and gated routes out', async () => {
    const page = await (await newContext(browser)).newPage();
    const shell = new ShellPage(page);
    const signIn = new SignInPage(page);
    await signIn.signIn(server.signInLink);
    expect(await shell.frameKind()).toBe('delivery');
    const { config } = await sessionOf(page, server.url);

    if (!config.devTools.enabled) {
      await page.goto(`${server.url}/dev-tools`);
      await new MessagePages(page).notFoundHeading.waitFor();
      expect(pathOf(page)).toBe('/404');
      await page.goto(`${server.url}/`);
      await shell.frameKind();
    }

    await shell.switchToAuditor();
    await expect.poll(() => page.locator('[data-frame]').getAttribute('data-frame')).toBe('auditor');
    expect(await shell.tabLabels()).toEqual(['Home', 'Data Platform', 'WAM Tools', 'WAM Wiki', 'Scorecards']);
    await expect.poll(() => shell.pageTitle.innerText()).toBe('Home');

    await shell.auditorTabs.getByRole('link', { name: 'Data Platform' }).click();
    const tabs = page.locator('.p-tabview-nav li[role="presentation"], .p-tabview-nav li').filter({ hasText: /\w/ });
    await tabs.first().waitFor();
    const labels = (await tabs.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(labels).toEqual(['Status Reporting', 'Funds Listing', 'Bulk Upload', 'Downloads Queue', ...(config.customMappings ? ['Custom Mapping'] : [])]);
    await page.screenshot({ path: screenshotPath('auditor-data-platform.png') });

    // a delivery-only route in the auditor view goes to the auditor home
    await page.goto(`${server.url}/import`);
    await expect.poll(() => pathOf(page), { timeout: 10_000 }).toBe('/');
    await expect.poll(() => shell.pageTitle.innerText()).toBe('Home');

    await shell.switchToDelivery();
    await expect.poll(() => page.locator('[data-frame]').getAttribute('data-frame')).toBe('delivery');
    await page.context().close();
  });

  it('sends a revoked session (401) to /authenticate', async () => {
    const link = addUserWithLink(server, { email: 'dtm@example.com', name: 'Dana Team', role: 'DeliveryTeamMember' });
    const page = await (await newContext(browser)).newPage();
    await new SignInPage(page).signIn(link);
    const token = await page.evaluate(() => sessionStorage.getItem('fa.token'));
    const res = await fetch(`${server.url}/api/sso/logout`, { method: 'POST', headers: { 'x-access-token': token ?? '' } });
    expect(res.status).toBe(200);
    await page.reload();
    const messages = new MessagePages(page);
    await messages.authenticateHeading.waitFor();
    expect(messages.path()).toBe('/authenticate');
    expect(await page.evaluate(() => sessionStorage.getItem('fa.token'))).toBeNull();
    await page.context().close();
  });
});

describe('default error handling (demo server)', () => {
  let server: ServerHandle;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer(['--demo']);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the demo widget and a failing demo call as an error notification', async () => {
    const page = await (await newContext(browser)).newPage();
    await new SignInPage(page).signIn(server.signInLink);
    const widget = page.getByRole('complementary', { name: 'Live demo' });
    await widget.waitFor();
    expect((await widget.getByRole('button').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      '1 Demo fund request',
      '2 Demo input files',
      '3 Reset demo data',
    ]);
    expect(await page.getByRole('button', { name: 'Switch to auditor' }).count()).toBe(0);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v2.0/demo/fund-request'));
    await widget.getByRole('button', { name: /Demo fund request/ }).click();
    // the demo data's own request of the demo TPA would go: the widget asks first
    const question = page.getByRole('dialog', { name: 'Create the demo fund request?' });
    await question.waitFor();
    await question.getByRole('button', { name: 'Remove and create' }).click();
    const res = await answer;
    const body = (await res.json()) as { success: boolean; errors: string[]; message?: string };
    const toast = page.locator('.p-toast-message');
    if (res.ok() && body.success) {
      // the server has the demo calls now: nothing to report as an error
      expect(await toast.filter({ hasText: 'error' }).count()).toBe(0);
    } else {
      await toast.first().waitFor();
      const expected = body.message || body.errors[0] || 'An error occurred';
      expect(await toast.first().innerText()).toContain(expected);
      await page.screenshot({ path: screenshotPath('error-toast.png') });
    }
    await page.context().close();
  });
});
