/**
 * Settings the screens show, on a server with a support e-mail, a WAM Sampling Wizard address and
 * a 50 MB upload limit: /signup gives the contact e-mail; the frame's footer has a 'Support' link
 * that does not show the address; Import files states the configured maximum upload size; every
 * page shown sends its page information (`POST /data-layer/navigate`); a download request shows
 * its 4-second notice; the WAM Sampling Wizard tab links to the configured address.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';

const SUPPORT = 'fund-audit-support@example.com';
const WIZARD = 'https://sampling.example.com/wizard';

describe('contacts, limits and notices', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let shell: ShellPage;
  const navigations: Array<{ page: string; path: string }> = [];

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
    writeFileSync(join(dataDir, 'config.json'), JSON.stringify({ supportEmail: SUPPORT, samplingWizardUrl: WIZARD, maxUploadBytes: 50 * 1024 * 1024 }));
    server = await startServer({ dataDir });
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    shell = new ShellPage(page);
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v2.0/data-layer/navigate')) navigations.push(r.postDataJSON());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('gives the support e-mail on /signup', async () => {
    const anonymous = await (await newContext(browser)).newPage();
    await anonymous.goto(`${server.url}/signup`);
    await anonymous.getByText('You do not currently have access to the WAMapps portal.').waitFor();
    const contact = anonymous.getByTestId('signup-contact');
    await contact.getByRole('link', { name: SUPPORT }).waitFor();
    expect(await contact.getByRole('link', { name: SUPPORT }).getAttribute('href')).toBe(`mailto:${SUPPORT}`);
    await anonymous.screenshot({ path: screenshotPath('signup-contact.png') });
    await anonymous.close();
  });

  it('has a support contact in the frame that does not show the address', async () => {
    await new SignInPage(page).signIn(server.signInLink);
    const support = page.getByTestId('support-contact');
    await support.waitFor();
    expect((await support.innerText()).trim()).toBe('Support');
    expect(await support.getAttribute('href')).toBe(`mailto:${SUPPORT}`);
    expect(await page.locator('footer').innerText()).not.toContain(SUPPORT);
  });

  it('states the configured maximum upload size on Import files and sends the page information', async () => {
    await expect.poll(() => navigations.some((n) => n.page === 'dashboard' && n.path === '/')).toBe(true);
    await shell.sider.getByRole('link', { name: 'Import files' }).click();
    await page.getByText('Maximum size 50 MB per upload; larger files go by the MOVEit transfer service.').waitFor();
    await expect.poll(() => navigations.at(-1)).toEqual({ page: 'import', path: '/import' });
    await page.screenshot({ path: screenshotPath('import-files-max-size.png') });
  });

  it('shows the 4-second notice of a download request', async () => {
    await shell.sider.getByRole('link', { name: 'Bulk upload' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download template' }).click();
    await download;
    const notice = page.locator('.p-toast-message', { hasText: 'Your download is starting' });
    await notice.waitFor();
    const shownAt = Date.now();
    await notice.waitFor({ state: 'detached', timeout: 8000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2500);
  });

  it('links the WAM Sampling Wizard tab to the configured address, in a new window', async () => {
    await shell.sider.getByRole('button', { name: 'Switch to auditor' }).click();
    await page.locator('[data-frame="auditor"]').waitFor();
    await page.getByTestId('auditor-tabs').getByRole('link', { name: 'WAM Tools', exact: true }).click();
    await page.getByRole('tab', { name: /WAM Sampling Wizard/ }).click();
    const link = page.getByRole('link', { name: /Open WAM Sampling Wizard/ });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(WIZARD);
    expect(await link.getAttribute('target')).toBe('_blank');
    await expect.poll(() => navigations.at(-1)?.page).toBe('tools');
  });
});
