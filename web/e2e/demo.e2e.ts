/**
 * Demo mode end to end: the widget's three steps over the real demo calls. Step 1 creates the
 * demo fund request, step 2 delivers its input files through the pipeline (the fund gets its work
 * paper), step 3 resets; the tooltip names who started the demo. The widget sits beside the page
 * and never covers its content (the Live mappings download buttons included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { SignInPage } from './pages/sign-in-page';

describe('demo mode', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  const apiPost = (path: string) =>
    page.evaluate(async (p) => {
      const res = await fetch(`/api/v2.0${p}`, {
        method: 'POST',
        headers: { 'x-access-token': sessionStorage.getItem('fa.token') ?? '', 'content-type': 'application/json' },
        body: '{}',
      });
      return (await res.json()).payload;
    }, path);

  beforeAll(async () => {
    server = await startServer(['--demo']);
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    await new SignInPage(page).signIn(server.signInLink);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates the demo fund request, delivers its files through the pipeline and resets', async () => {
    const widget = page.getByRole('complementary', { name: 'Live demo' });
    await widget.waitFor();
    const step = (n: number) => widget.getByRole('button', { name: new RegExp(`^${n} `) });
    await expect.poll(() => step(1).getAttribute('aria-current')).toBe('step');

    await step(1).click();
    await expect.poll(() => step(2).getAttribute('aria-current')).toBe('step');
    await expect.poll(() => widget.getAttribute('title')).toMatch(/Live demo in progress \(started by admin@fund-audit\.local on /);
    const state = await apiPost('/demo/step');
    expect(state.fundRequestDemo).toHaveLength(1);
    const fundId = state.fundRequestDemo[0].fundRequestId;

    await step(2).click();
    await expect.poll(() => step(3).getAttribute('aria-current')).toBe('step');
    // the real pipeline turns the three demo files into the fund's work paper
    await expect
      .poll(
        async () => {
          const d = await page.evaluate(
            async (id) =>
              (await (await fetch(`/api/v2.0/fund/${id}`, { headers: { 'x-access-token': sessionStorage.getItem('fa.token') ?? '' } })).json()).payload,
            fundId,
          );
          return d.workPapers.length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.screenshot({ path: screenshotPath('demo-mode.png') });

    await step(3).click();
    await expect.poll(() => step(1).getAttribute('aria-current')).toBe('step');
    expect((await apiPost('/demo/step')).fundRequestDemo).toEqual([]);
  });

  it('keeps the widget beside the page content, never over it', async () => {
    const widget = page.getByRole('complementary', { name: 'Live demo' });
    for (const path of ['/', '/mappings']) {
      await page.goto(`${server.url}${path}`);
      await widget.waitFor();
      const main = (await page.locator('main#fa-main').boundingBox())!;
      const box = (await widget.boundingBox())!;
      expect(box.x, path).toBeGreaterThanOrEqual(main.x + main.width - 0.5);
    }
    // the download buttons of the demo TPA's mappings stay clickable
    const download = page.getByRole('button', { name: /^Download (?!report)/ }).last();
    await download.waitFor();
    await download.click({ trial: true, timeout: 5000 });
    await page.screenshot({ path: screenshotPath('demo-widget-beside-content.png') });
  });

  it('refuses a step out of order with the server message', async () => {
    const widget = page.getByRole('complementary', { name: 'Live demo' });
    await widget.getByRole('button', { name: /^2 / }).click();
    await page.getByText('Create the demo fund request first').waitFor();
  });
});
