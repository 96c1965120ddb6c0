/**
 * Test runner screen: schedule the demo TPA's suite, watch the run finish in 'Test suites
 * listing', open its details (tests, steps, results); an unknown test id is refused with a message
 * naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { openSignedIn } from './support/signed-in';

describe('test runner screen', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn());
    await page.goto(`${server.url}/test-runner`);
    await page.getByRole('tab', { name: 'Test suites listing' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('schedules a run of the demo suite and shows its passing tests and steps', async () => {
    await page.getByRole('tab', { name: 'Schedule run' }).click();
    await page.locator('#tr-admins-select').click();
    await page.getByRole('option', { name: /Demo TPA/ }).click();
    await page.keyboard.press('Escape');
    await page.locator('#tr-ids').fill('1, 2');
    await page.getByRole('button', { name: 'Save' }).click();
    const detail = page.getByRole('region', { name: /Test run \d+/ });
    await detail.getByText(/Run \d+: done/).waitFor({ timeout: 30_000 });
    await expect(detail.getByText('Test 1: Partial delivery', { exact: false }).isVisible()).resolves.toBe(true);
    await detail.getByText(/Test 2: Demo mode delivery/).click();
    await detail.getByRole('cell', { name: 'compare-checks' }).first().waitFor();
    const row = page.getByRole('row').filter({ hasText: 'demo_test' }).first();
    await expect(row.innerText()).resolves.toMatch(/1, 2\s+No\s+done/);
    await page.screenshot({ path: screenshotPath('test-runner-done.png') });
  });

  it('refuses an unknown test id, naming it', async () => {
    await page.getByRole('tab', { name: 'Schedule run' }).click();
    await page.locator('#tr-admins-select').click();
    await page.getByRole('option', { name: /Demo TPA/ }).click();
    await page.keyboard.press('Escape');
    await page.locator('#tr-ids').fill('99');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText(/99/)
      .filter({ hasText: /unknown|not|no such/i })
      .first()
      .waitFor({ timeout: 10_000 });
  });
});
