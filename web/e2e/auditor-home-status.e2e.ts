/**
 * Auditor area for a user added with the Auditor role, on the demo data (four real fund requests,
 * all late): the Home page with the 'What's New' release of CHANGELOG.md, the WAM Wiki sections
 * (and the error when wiki.json is broken), and the Status Reporting tab (counts, tooltip, donuts
 * with Clients/TPA legends, 'View full list', 'New request', the failed-report state).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { ShellPage } from './pages/shell-page';
import { openSignedIn } from './support/signed-in';

describe('auditor home, wiki and status reporting', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ user: { email: 'ann.auditor@example.com', name: 'Ann Auditor', role: 'Auditor' }, pageErrors }));
    aud = new AuditorPage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the welcome and the releases of the changelog under What's New", async () => {
    const shell = new ShellPage(page);
    expect(await shell.frameKind()).toBe('auditor');
    expect(await shell.tabLabels()).toEqual(['Home', 'Data Platform', 'WAM Tools', 'WAM Wiki', 'Scorecards']);
    await aud.main.getByRole('heading', { name: 'Welcome, Ann' }).waitFor();
    await aud.main.getByRole('heading', { name: "What's New" }).waitFor();
    const releases = page.getByTestId('release');
    // the product's own release, then the data platform's releases it carries on
    expect(await releases.count()).toBe(3);
    expect(await releases.locator('h3').allInnerTexts()).toEqual([
      'Version 1.15.223 - 22/11/2026',
      'Version 2.9.1 - October 2024',
      'Version 2.6 - January 2021',
    ]);
    const release = await releases.first().innerText();
    expect(release).toMatch(/Version 1\.15\.223/);
    expect(release).toMatch(/22\/11\/2026/);
    for (const topic of ['one-time links', 'Bulk upload', 'Funds listing', 'N-PORT', 'Exports', 'Mappings', 'Self-onboarding', 'Demo mode']) {
      expect(release).toContain(topic);
    }
    await page.screenshot({ path: screenshotPath('auditor-home.png'), fullPage: true });
  });

  it('shows the wiki sections with links and mail items', async () => {
    await aud.nav('WAM Wiki');
    await expect.poll(() => new ShellPage(page).pageTitle.innerText()).toBe('WAM Wiki');
    const sections = page.getByTestId('wiki-section');
    await sections.first().waitFor();
    expect(await sections.locator('h2').allInnerTexts()).toEqual(['Getting started', 'Data delivery', 'Data sandbox', 'Sample outputs']);
    expect(await aud.main.getByRole('link', { name: 'Delivery team' }).getAttribute('href')).toBe('mailto:delivery@fund-audit.local');
    // the standard data model link downloads the onboarding guide served by the product
    const download = page.waitForEvent('download');
    await aud.main.getByRole('link', { name: /Standard data model/ }).click();
    const guide = await download;
    expect(guide.suggestedFilename()).toBe('onboarding.md');
    const guideText = readFileSync((await guide.path()) as string, 'utf8');
    expect(guideText).toMatch(/^# Onboarding a TPA/);
    expect(guideText).toContain('| `market_value_base` | number | yes, unless `market_value_local` is mapped |');
    await aud.main.getByRole('link', { name: /Bulk upload template/ }).waitFor();
    await page.screenshot({ path: screenshotPath('auditor-wiki.png'), fullPage: true });
    // an in-app link stays in the application
    await aud.main.getByRole('link', { name: /Demo TPA demo_test/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/tools');
    await aud.main.getByRole('heading', { name: 'WAM Tools' }).waitFor();
  });

  it('says so when the wiki content is broken', async () => {
    const file = join(server.dataDir, 'wiki.json');
    const good = existsSync(file) ? readFileSync(file, 'utf8') : null;
    writeFileSync(file, '{ not json');
    try {
      await aud.dismissToasts();
      await aud.nav('WAM Wiki');
      // said once, in place of the wiki, with the reason (no notification repeating it)
      const alert = aud.main
        .getByRole('alert')
        .filter({ hasText: /^The wiki could not be loaded: wiki\.json in the data directory is not valid JSON: .+\. Try again$/ });
      await alert.waitFor();
      expect(await page.getByText(/wiki\.json in the data directory is not valid JSON/).count()).toBe(1);
      expect(await page.locator('.p-toast-message').count()).toBe(0);
      await page.screenshot({ path: screenshotPath('auditor-wiki-broken.png') });
    } finally {
      if (good === null) rmSync(file, { force: true });
      else writeFileSync(file, good);
    }
    // once the operator fixed the file, Try again shows the wiki
    await aud.main.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('wiki-section').first().waitFor();
    expect(await aud.main.getByRole('alert').count()).toBe(0);
  });

  it('shows the active count, the tooltip and the late and on-time donuts', async () => {
    await aud.nav('Data Platform');
    await aud.statusReporting.waitFor();
    expect(await aud.main.locator('.p-tabview-nav').first().getByRole('tab').allInnerTexts()).toEqual([
      'Status Reporting',
      'Funds Listing',
      'Bulk Upload',
      'Downloads Queue',
      'Custom Mapping',
    ]);
    const count = page.getByTestId('active-count');
    expect((await count.innerText()).replace(/\s+/g, ' ')).toMatch(/^4 \/ 4 active fund requests/);
    expect(await count.locator('[data-pr-tooltip]').getAttribute('data-pr-tooltip')).toBe(
      'Fund requests where "Data Due Date" is in the past and are not "Issued"',
    );
    await count.locator('[data-pr-tooltip]').hover();
    await page.locator('.p-tooltip', { hasText: 'Data Due Date' }).waitFor();

    await aud.donut('late').locator('canvas').waitFor();
    expect(await aud.legend('late')).toEqual(['Dupree Mutual Funds 2', 'Advanced Series Trust 1', 'GOLDMAN SACHS TRUST 1']);
    await aud.donut('late').getByRole('tab', { name: 'TPA' }).click();
    expect(await aud.legend('late')).toEqual(['Keystone Administration 2', 'Demo TPA 1', 'Meridian Fund Services 1']);
    expect(await aud.donut('on-time').innerText()).toContain('No data');
    expect(await aud.donut('on-time').getByRole('button', { name: 'View full list' }).isDisabled()).toBe(true);
    await page.mouse.move(0, 0);
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-status-reporting.png'), fullPage: true });

    await aud.donut('late').getByRole('button', { name: 'View full list' }).click();
    const list = aud.dialog('Late funds');
    await list.waitFor();
    expect(await list.locator('tbody tr').count()).toBe(4);
    expect(await list.innerText()).toContain('AST Bond Portfolio 2022');
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
  });

  it("switches to Bulk Upload with 'New request'", async () => {
    await aud.statusReporting.getByRole('button', { name: 'New request' }).click();
    await aud.bulk.getByText('Follow the steps below to bulk upload funds').waitFor();
    expect(new URL(page.url()).search).toBe('?tab=bulk');
    expect(await aud.main.getByRole('tab', { name: 'Bulk Upload' }).getAttribute('aria-selected')).toBe('true');
    await page.goBack();
    await aud.statusReporting.waitFor();
  });

  it('offers to try again when the report cannot be loaded', async () => {
    await page.route('**/api/v2.0/user/status-report', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, payload: null, errors: ['report store unavailable'] }),
      }),
    );
    await page.reload();
    // said once, in place of the report, with the reason (no notification repeating it)
    await aud.main.getByRole('alert').filter({ hasText: 'The status report could not be loaded: report store unavailable.' }).waitFor();
    expect(await page.getByText('report store unavailable').count()).toBe(1);
    expect(await page.locator('.p-toast-message').count()).toBe(0);
    await page.unroute('**/api/v2.0/user/status-report');
    await aud.main.getByRole('button', { name: 'Try again' }).click();
    await aud.statusReporting.waitFor();
    expect(pageErrors).toEqual([]);
  });
});
