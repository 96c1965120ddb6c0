/**
 * The first start on an empty data directory shows the main job done: `serve` loads the demo data
 * and its demo deliveries go through the real pipeline in the job threads, so within a minute of
 * the start a newcomer opens a fund with its input files and a work paper free of 'Incomplete
 * data' (Keystone's workbook), another with failed checks in the QA Validations popover (Meridian's
 * holdings with an unknown instrument type), and the pipeline's logs.
 * `--no-demo-data` still starts empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { pageApi } from './page-api';
import { FundDetailsPage } from './pages/fund-details-page';
import { SignInPage } from './pages/sign-in-page';
import { openSignedIn } from './support/signed-in';

const KENTUCKY = 'Kentucky Tax-Free Short-to-Medium Series';
const GS = 'Goldman Sachs Bond Fund';

interface FundLike {
  inputFiles: Array<{ filename: string; validation_status: string | null }>;
  workPapers: Array<{ filename: string; qa: { failed: Array<{ name: string }> } }>;
}

describe('first start on an empty data directory', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let started: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    started = Date.now();
    ({ server, browser, page } = await openSignedIn({ server: { demoDeliveries: true } }));
    Object.assign(ids, await pageApi(page).fundIds());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says the demo deliveries are on their way and has work papers within a minute', async () => {
    expect(server.output()).toContain('2 demo files are going through the pipeline: open a fund for its work papers.');
    const http = pageApi(page);
    for (const key of [`${KENTUCKY}|keystone_admin`, `${GS}|meridian_fund_services`]) {
      expect(ids[key], key).toBeDefined();
      await expect
        .poll(async () => (await http.get<FundLike>(`/fund/${ids[key]}`)).workPapers.length, {
          timeout: Math.max(1000, 60_000 - (Date.now() - started)),
          interval: 500,
        })
        .toBe(1);
    }
    console.log(`work papers of the two demo deliveries ${((Date.now() - started) / 1000).toFixed(1)} s after the start`);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 70_000);

  it("shows Keystone's delivery of the Kentucky fund: its input files and a work paper with no failed check", async () => {
    const fd = new FundDetailsPage(page);
    await page.goto(`${server.url}/fund/${ids[`${KENTUCKY}|keystone_admin`]}`);
    await expect.poll(() => fd.heading.innerText()).toBe(KENTUCKY);
    const inputs = fd.files('Input files');
    await inputs.locator('tbody tr').first().waitFor();
    // one input file per sheet of Keystone's workbook
    for (const sheet of ['GL Balances', 'Portfolio Valuation', 'Capital Stock Activity', 'Security Prices'])
      expect(await inputs.innerText()).toContain(`KEYSTONE_5493006TF05454RBY690_20221231.xlsx#${sheet}`);
    const papers = fd.files('Work papers');
    expect(await papers.locator('tbody tr').count()).toBe(1);
    expect(await papers.innerText()).toMatch(/fund_S000012000_.*_work_papers\.xlsx/);
    expect(await papers.getByRole('button', { name: /QA validations of .*failed/ }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('first-start-work-paper.png'), fullPage: true });
  });

  it("shows the Meridian delivery's incomplete data and the checks it could not perform in the QA Validations popover", async () => {
    const fd = new FundDetailsPage(page);
    await page.goto(`${server.url}/fund/${ids[`${GS}|meridian_fund_services`]}`);
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    // the unknown instrument makes the work paper's data incomplete
    const button = fd.files('Work papers').getByRole('button', { name: /QA validations of .*: Incomplete data, .*\d+ not performed$/ });
    await button.waitFor();
    expect(await button.getAttribute('data-qa')).toBe('fail');
    await button.click();
    const popover = page.getByRole('dialog', { name: 'QA Validations' });
    expect(await popover.getByRole('region', { name: 'Incomplete data' }).locator('li').allInnerTexts()).toEqual([
      'MFS_HOLDINGS_unknown_instrument.csv (holdings): 1 unmapped code, 0 row errors',
    ]);
    // no trial balance was delivered: its check is not performed, never failed
    const notPerformed = await popover.getByRole('region', { name: 'Not performed' }).locator('li').allInnerTexts();
    expect(notPerformed.join('\n')).toContain('Trial balance sums to zero: no trial balance rows delivered');
    const failed = await popover.getByRole('region', { name: 'Failed' }).locator('li').allInnerTexts();
    expect(failed.join('\n')).not.toContain('Trial balance sums to zero');
    await page.locator('.p-overlaypanel-enter-done').waitFor();
    await page.screenshot({ path: screenshotPath('first-start-failed-check.png') });
    await page.keyboard.press('Escape');
  });

  it("shows the pipeline's orchestration logs of the delivery", async () => {
    const fd = new FundDetailsPage(page);
    await fd.tab('Logs');
    await page.getByRole('tab', { name: 'Orchestration logs' }).click();
    const logs = fd.table('Orchestration logs');
    await expect.poll(() => logs.locator('tbody tr').count()).toBeGreaterThan(0);
    const text = await logs.innerText();
    for (const stage of ['identification', 'standardization', 'calculations']) expect(text).toContain(stage);
    await page.screenshot({ path: screenshotPath('first-start-logs.png') });
  });

  it('starts empty with --no-demo-data', async () => {
    const empty = await startServer({ args: ['--no-demo-data'], demoDeliveries: true });
    const context = await newContext(browser);
    try {
      const other = await context.newPage();
      await new SignInPage(other).signIn(empty.signInLink);
      expect(empty.output()).not.toContain('Demo data loaded');
      expect(await pageApi(other).fundIds()).toEqual({});
      expect((await pageApi(other).post<{ rows: unknown[] }>('/import/list', {})).rows).toEqual([]);
    } finally {
      await context.close();
      await empty.stop();
    }
  }, 60_000);
});
