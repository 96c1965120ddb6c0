/**
 * Delivery Fund details on the demo funds: the browser's Back button asks about unsaved changes
 * (Keep editing stays with the values, Discard changes goes back), goes back at once without
 * changes and after a save; the Recipients tab shows names read-only, needs a role, and a
 * recipient added by e-mail gets the name of that user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { FundDetailsPage } from './pages/fund-details-page';
import { openSignedIn } from './support/signed-in';

const GS = 'Goldman Sachs Bond Fund';

describe('delivery fund details: leaving and recipients', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  const pageErrors: string[] = [];
  const path = () => new URL(page.url()).pathname;

  /** Opens the fund from the Dashboard by double-click, as a user does. */
  const openFromDashboard = async () => {
    await new DashboardPage(page).row(GS).locator('td').nth(3).dblclick();
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
  };
  const editComment = async (text: string) => {
    await fd.button('Edit').click();
    await fd.tab('Comments');
    await page.getByLabel('Audit comments', { exact: true }).fill(text);
    // the page has taken the change in (Save offered) before anything else is done, as for a person
    await expect.poll(() => fd.button('Save').isEnabled()).toBe(true);
  };

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    fd = new FundDetailsPage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('asks before the Back button leaves unsaved changes; Keep editing stays, Discard changes goes back', async () => {
    await openFromDashboard();
    const fundPath = path();
    await editComment('Not saved yet');
    await page.goBack();
    const ask = fd.dialog('You have made changes');
    await ask.getByText('They will be lost if not saved').waitFor();
    expect(path()).toBe(fundPath);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-back.png') });
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await page.getByLabel('Audit comments', { exact: true }).inputValue()).toBe('Not saved yet');
    expect(path()).toBe(fundPath);

    await page.goBack();
    await fd.dialog('You have made changes').getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(path).toBe('/');
    await new DashboardPage(page).row(GS).waitFor();
  });

  it('goes back at once without changes, and after saving them', async () => {
    await openFromDashboard();
    await page.goBack();
    await expect.poll(path).toBe('/');
    expect(await fd.dialog('You have made changes').count()).toBe(0);

    await openFromDashboard();
    await editComment('Saved before leaving');
    await fd.button('Save').click();
    await fd.toast('Fund request saved').waitFor();
    await page.goBack();
    await expect.poll(path).toBe('/');
    expect(await fd.dialog('You have made changes').count()).toBe(0);
  });

  it('shows recipient names read-only, needs a role, and names a recipient added by e-mail after the user', async () => {
    await openFromDashboard();
    await fd.button('Edit').click();
    await fd.tab('Recipients');
    const recipients = page.getByTestId('recipients');
    await recipients.getByRole('button', { name: 'Add recipient' }).click();
    expect(await recipients.getByRole('textbox', { name: /Full name/ }).count()).toBe(0);
    expect(await recipients.locator('[data-field="full_name"]').first().innerText()).toBe('From the user with this e-mail, when saved');
    await recipients.getByText('A role is required').waitFor();
    await recipients.getByRole('textbox', { name: 'Email of recipient 1' }).fill('admin@fund-audit.local');
    await fd.button('Save').click();
    await fd.validationErrors.waitFor();
    expect(await fd.validationErrors.innerText()).toContain('Recipient 1 (admin@fund-audit.local) needs a role');

    await recipients.locator('tbody tr').first().locator('.p-dropdown').click();
    await page
      .locator('.p-dropdown-item', { hasText: /^Auditor$/ })
      .first()
      .click();
    await fd.button('Save').click();
    // the previous test's save notice may still be showing: the newest one is the last
    await fd.toast('Fund request saved').last().waitFor();
    const table = fd.table('Recipients');
    await expect
      .poll(async () => (await table.locator('tbody tr td').allInnerTexts()).map((t) => t.trim()))
      .toEqual(['Fund Audit Administrator', 'admin@fund-audit.local', 'Auditor']);
    // editing again: the name stays text
    await fd.button('Edit').click();
    expect(await recipients.locator('[data-field="full_name"]').first().innerText()).toBe('Fund Audit Administrator');
    expect(await recipients.getByRole('textbox', { name: /Full name/ }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-recipients.png') });
    expect(pageErrors).toEqual([]);
  });
});
