/**
 * The auditor Funds Listing fits a 1440 x 900 window: every default column (Data status, Work
 * papers and Parent included) and the details button show without scrolling sideways, long names
 * wrap within their row; in a narrower window the details button stays in view (it is frozen at
 * the right) and the sideways scrollbar sits inside the window, above the paginator.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshotPath } from './browser';
import { addUserWithLink, startServer, type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { SignInPage } from './pages/sign-in-page';
import { seedFunds } from './seed-funds';

describe('auditor Funds Listing width', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    aud = new AuditorPage(page);
    await new SignInPage(page).signIn(addUserWithLink(server, { email: 'ann@example.com', name: 'Ann Auditor', role: 'Auditor' }));
    await aud.nav('Data Platform');
    await aud.dataTab('Funds Listing');
    await aud.fundNames();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Whether a locator's box lies inside the window. */
  const inWindow = async (l: ReturnType<Page['locator']>) => {
    const box = (await l.boundingBox())!;
    const { width, height } = page.viewportSize()!;
    return box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
  };
  const wrapper = () => aud.listing.locator('.p-virtualscroller');

  it('shows every column and the details button at 1440 px without scrolling', async () => {
    for (const header of ['Fund name', 'Client', 'TPA', 'Data due date', 'Fund status', 'Data request', 'Data status', 'Work papers', 'Parent'])
      expect(await inWindow(aud.listing.locator('th', { hasText: header })), header).toBe(true);
    expect(await inWindow(page.getByRole('button', { name: 'Fund details of Goldman Sachs Bond Fund' }))).toBe(true);
    expect(await wrapper().evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    // a long name wraps within its row rather than being cut to a few letters
    const name = aud.row('Kentucky Tax-Free').locator('[data-col="name"]');
    expect(await name.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true);
    await page.screenshot({ path: screenshotPath('auditor-listing-1440.png') });
  });

  it('keeps the details button and the sideways scrollbar in a narrower window', async () => {
    await page.setViewportSize({ width: 1100, height: 800 });
    await expect.poll(() => wrapper().evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await inWindow(page.getByRole('button', { name: 'Fund details of Goldman Sachs Bond Fund' }))).toBe(true);
    // the grid's scroll area, its sideways scrollbar at its bottom, ends inside the window
    expect(await inWindow(wrapper())).toBe(true);
    await wrapper().evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    expect(await inWindow(aud.listing.locator('th', { hasText: 'Parent' }))).toBe(true);
    await page.screenshot({ path: screenshotPath('auditor-listing-1100.png') });
  });

  it('keeps the sideways scrollbar and the paginator in the window with a full page of 100 funds', async () => {
    seedFunds(server, 150);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await aud.fundNames();
    await expect.poll(() => aud.listing.locator('.p-paginator').innerText()).toContain('1 - 100 of 154');
    // the rows scroll inside the grid: the page itself never scrolls down to its scrollbar
    expect(await wrapper().evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    expect(await inWindow(wrapper())).toBe(true);
    expect(await inWindow(aud.listing.locator('.p-paginator'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true);
    await page.setViewportSize({ width: 1100, height: 800 });
    await expect.poll(() => wrapper().evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await inWindow(wrapper())).toBe(true);
    expect(await inWindow(aud.listing.locator('.p-paginator'))).toBe(true);
    expect(
      await inWindow(
        aud.listing
          .locator('tbody tr')
          .first()
          .getByRole('button', { name: /^Fund details of / }),
      ),
    ).toBe(true);
    await page.screenshot({ path: screenshotPath('auditor-listing-full-page.png') });
  });
});
