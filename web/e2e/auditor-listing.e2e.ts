/**
 * Auditor Funds Listing and Fund details modal on the demo data (four real fund requests, all
 * Pending), as the administrator switched to the auditor view: default sort and header sort
 * cycle, column order saved per user and restored after a reload, Open, Close and Issue disabled
 * for a selection of only pending funds, Close on an open and a pending fund ('*' on the pending
 * one and the warning), Open on a closed fund, the details modal (dates as DD/MM/YYYY, comment
 * saved, recipient added, an emptied PM listed under 'You have validation errors' with no 'Save
 * changes', unsaved-changes question, read-only rows of an open fund), and Delete with its
 * confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { pageApi } from './page-api';
import { AuditorPage } from './pages/auditor-page';
import { ShellPage } from './pages/shell-page';
import { openSignedIn } from './support/signed-in';

const WARNING = 'Warning! Funds marked with * cannot move into the state you have selected. Reselect separately and retry.';
const GS = 'Goldman Sachs Bond Fund';
const AST = 'AST Bond Portfolio 2022';

describe('auditor funds listing and fund details', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    aud = new AuditorPage(page);
    await new ShellPage(page).sider.getByRole('button', { name: 'Switch to auditor' }).click();
    await page.locator('[data-frame="auditor"]').waitFor();
    await aud.nav('Data Platform');
    await aud.dataTab('Funds Listing');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the funds by data due date, newest first, and cycles the sort on header clicks', async () => {
    expect(await aud.fundNames()).toEqual([GS, 'Kentucky Tax-Free Short-to-Medium Series', 'Kentucky Tax-Free Short-to-Medium Series', AST]);
    expect(await aud.cell(GS, 'dueDate')).toBe('30/04/2023');
    expect(await aud.cell(GS, 'dataStatus')).toContain('Late');
    const due = aud.listing.locator('th', { hasText: 'Data due date' });
    expect(await due.getAttribute('aria-sort')).toBe('descending');
    const name = aud.listing.locator('th', { hasText: 'Fund name' });
    await name.click();
    await expect.poll(() => name.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => aud.fundNames()).toEqual(['Kentucky Tax-Free Short-to-Medium Series', 'Kentucky Tax-Free Short-to-Medium Series', GS, AST]);
    await name.click();
    await expect.poll(() => aud.fundNames()).toEqual([AST, GS, 'Kentucky Tax-Free Short-to-Medium Series', 'Kentucky Tax-Free Short-to-Medium Series']);
    await name.click();
    await expect.poll(() => name.getAttribute('aria-sort')).toBe('none');
    await expect.poll(() => aud.fundNames()).toEqual([GS, 'Kentucky Tax-Free Short-to-Medium Series', 'Kentucky Tax-Free Short-to-Medium Series', AST]);
  });

  it('saves the column order per user and restores it after a reload', async () => {
    const before = await aud.headers();
    expect(before.slice(0, 3)).toEqual(['Fund name', 'Client', 'Type']);
    await aud.listing.locator('th', { hasText: 'Client' }).dragTo(aud.listing.locator('th', { hasText: 'Fund name' }));
    await expect.poll(async () => (await aud.headers()).slice(0, 2)).toEqual(['Client', 'Fund name']);
    const saved = await page.evaluate(() => localStorage.getItem('fa.auditor.funds.columns.1'));
    expect(JSON.parse(saved ?? '{}').columnOrder.slice(0, 2)).toEqual(['client', 'name']);
    await page.reload();
    await aud.fundNames();
    expect((await aud.headers()).slice(0, 2)).toEqual(['Client', 'Fund name']);
    // back to the default order for the screenshots
    await page.evaluate(() => localStorage.removeItem('fa.auditor.funds.columns.1'));
    await page.reload();
    await aud.fundNames();
    expect((await aud.headers()).slice(0, 2)).toEqual(['Fund name', 'Client']);
  });

  it('keeps Open, Close and Issue disabled for a selection of only pending funds', async () => {
    for (const a of ['Open', 'Close', 'Issue', 'Delete']) expect(await aud.action(a).isDisabled()).toBe(true);
    await aud.select(GS);
    await aud.select(AST);
    for (const a of ['Open', 'Close', 'Issue']) expect(await aud.action(a).isDisabled()).toBe(true);
    expect(await aud.action('Delete').isEnabled()).toBe(true);
    await page.screenshot({ path: screenshotPath('auditor-listing-pending-selection.png') });
    await aud.select(GS);
    await aud.select(AST); // unselect both
  });

  it("closes an open fund and marks the pending one '*' with the warning", async () => {
    // the delivery team opened Goldman Sachs meanwhile
    const { rows } = await pageApi(page).get<{ rows: Array<{ id: number; name: string }> }>('/user/funds/0/100');
    const gs = rows.find((r) => r.name === GS)!.id;
    await pageApi(page).post('/fund/approve', { ids: [gs], requestedBy: 'Delivery' });
    await page.reload();
    await expect.poll(() => aud.status(GS)).toBe('Approved');
    await aud.select(GS);
    await aud.select(AST);
    // Open: one fund is open already and the other pending, so no fund can move
    expect(await aud.action('Open').isDisabled()).toBe(true);
    expect(await aud.action('Close').isEnabled()).toBe(true);
    expect(await aud.action('Issue').isEnabled()).toBe(true);
    await aud.action('Close').click();
    await expect.poll(() => aud.status(GS)).toBe('Completed - Fund Closed');
    await expect.poll(() => aud.status(AST)).toBe('Pending*');
    expect(await page.getByTestId('unchanged-warning').innerText()).toBe(WARNING);
    // the warning shows once: above the grid, not again as a notification beside the success one
    await aud.toast('1 fund request closed').waitFor();
    expect(await page.locator('.p-toast-message').allInnerTexts()).toEqual([expect.stringContaining('1 fund request closed')]);
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-listing-warning.png') });
    await aud.select(AST); // unselect
  });

  it('opens a closed fund', async () => {
    expect(await aud.action('Close').isDisabled()).toBe(true); // already closed
    await aud.action('Open').click();
    await expect.poll(() => aud.status(GS)).toBe('Approved');
    await aud.toast('1 fund request opened').waitFor();
    expect(await page.getByTestId('unchanged-warning').count()).toBe(0);
    // every selected fund is open now: Open is disabled, Close allowed
    expect(await aud.action('Open').isDisabled()).toBe(true);
    expect(await aud.action('Close').isEnabled()).toBe(true);
    await aud.select(GS); // unselect
  });

  it('edits a comment and a recipient of a pending fund and saves them', async () => {
    await aud.row(AST).locator('[data-col="name"]').dblclick();
    const dialog = aud.details;
    await aud.dialog(`Fund details - ${AST}`).waitFor();
    expect(await dialog.locator('[data-field="fund_code"]').innerText()).toBe('S000030880');
    expect(await dialog.locator('[data-field="administrator"]').innerText()).toBe('Keystone Administration');
    expect(await dialog.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    // dates read and typed as DD/MM/YYYY, whatever the browser's locale
    const periodEnd = dialog.getByLabel('Period end', { exact: true });
    expect(await periodEnd.inputValue()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(await periodEnd.getAttribute('placeholder')).toBe('DD/MM/YYYY');
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-fund-details.png') });

    await aud.detailsTab('Comments');
    await dialog.getByLabel('Audit comments', { exact: true }).fill('Holdings confirmed with the custodian');
    await aud.detailsTab('Recipients');
    await dialog.getByRole('button', { name: 'Add recipient' }).click();
    await dialog.getByLabel('Full name of recipient 1').fill('Sam Senior');
    await dialog.getByLabel('Email of recipient 1').fill('sam.senior@example.com');
    expect(await dialog.getByTestId('recipients').locator('.p-dropdown-label').first().innerText()).toBe('Auditor');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await aud.toast('Fund request saved').waitFor();
    await expect.poll(() => dialog.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    await aud.detailsFooter.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // saved on the server: the details action shows them again
    await aud.select(AST);
    await aud.action('Details').click();
    await aud.detailsTab('Comments');
    await expect.poll(() => dialog.getByLabel('Audit comments', { exact: true }).inputValue()).toBe('Holdings confirmed with the custodian');
    await aud.detailsTab('Recipients');
    expect(await dialog.getByLabel('Email of recipient 1').inputValue()).toBe('sam.senior@example.com');
    await dialog.getByLabel('Search recipients').fill('AUDITOR');
    expect(await dialog.getByLabel('Email of recipient 1').inputValue()).toBe('sam.senior@example.com');
    await dialog.getByLabel('Search recipients').fill('nobody');
    await dialog.getByText('No recipient matches the search.').waitFor();
  });

  it("lists an emptied PM under 'You have validation errors' without 'Save changes', and asks before dropping the change", async () => {
    const dialog = aud.details;
    // a save that fails on the server is said once, in the dialog: no notification repeating it
    await aud.dismissToasts();
    await page.route('**/api/v2.0/fund/validate', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, payload: null, errors: ['fund store unavailable'] }),
      }),
    );
    await aud.detailsTab('Comments');
    await dialog.getByLabel('Audit comments', { exact: true }).fill('Holdings confirmed, custodian letter filed');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const failure = dialog.getByTestId('validation-errors');
    await expect.poll(() => failure.innerText()).toMatch(/^Action failed\s+fund store unavailable$/);
    expect(await page.getByText('fund store unavailable').count()).toBe(1);
    expect(
      await page
        .locator('.p-toast-message')
        .filter({ hasText: /fund store unavailable|Action failed/ })
        .count(),
    ).toBe(0);
    await page.unroute('**/api/v2.0/fund/validate');
    await aud.detailsTab('Materialities');
    expect(await dialog.getByLabel('PM', { exact: true }).inputValue()).toBe('1');
    await dialog.getByLabel('TE', { exact: true }).fill('250');
    expect(await dialog.getByLabel('TE', { exact: true }).inputValue()).toBe('100');
    await dialog.getByLabel('TE', { exact: true }).fill('0.75');
    await dialog.getByLabel('PM', { exact: true }).fill('');
    const errors = dialog.getByTestId('validation-errors');
    await errors.waitFor();
    expect(await errors.innerText()).toMatch(/You have validation errors[\s\S]*PM is required/);
    expect(await dialog.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-fund-details-errors.png') });

    await aud.detailsFooter.getByRole('button', { name: 'Close', exact: true }).click();
    const ask = aud.dialog('You have made changes');
    await ask.getByText('They will be lost if not saved').waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.getByLabel('PM', { exact: true }).waitFor();
    await aud.detailsFooter.getByRole('button', { name: 'Close', exact: true }).click();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await aud.select(AST); // unselect
  });

  it('keeps the rows of an open fund read-only but its comments editable', async () => {
    await aud
      .row(GS)
      .getByRole('button', { name: `Fund details of ${GS}` })
      .click();
    const dialog = aud.details;
    await dialog.getByText('Only comments and recipients can be changed because the fund request is Open').waitFor();
    expect(await dialog.locator('#fa-fd-country').count()).toBe(0); // no control, the text only
    expect(await dialog.locator('[data-field="country"]').innerText()).toBe('United States of America');
    await aud.detailsTab('Materialities');
    expect(await dialog.locator('[data-field="PM"]').innerText()).toBe('1%');
    await aud.detailsTab('Comments');
    expect(await dialog.getByLabel('Delivery comments', { exact: true }).isEditable()).toBe(true);
    await aud.detailsFooter.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('deletes a fund request after the confirmation', async () => {
    await aud.select('Demo TPA');
    await aud.action('Delete').click();
    const confirm = aud.dialog('Delete fund requests');
    await confirm.getByText('This will permanently remove these fund requests').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await aud.fundNames()).length).toBe(3);
    expect(await aud.listing.innerText()).not.toContain('Demo TPA');
    expect(pageErrors).toEqual([]);
  });
});
