/**
 * Auditor Bulk Upload and Downloads Queue, for a user added with the Auditor role on the demo data:
 * the template download, a bulk upload of fixtures/fund-requests/real-funds.csv (one fund deleted
 * first, so one row is Completed with its row, client and data due date, and the three
 * still-existing funds are Incomplete duplicates whose errors link to the existing fund, in the
 * notification and in the Validation modal), the 4-second notice of a download request,
 * bad-rows.csv ('You have 17 rejected funds' and the Validation modal), a file that is not a CSV,
 * then work papers of a fund requested from the listing and seen Done in the queue with its
 * download, the CSV warning for CSV stages, and deleting old exports (and its failure).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { addUserWithLink, repoRoot, startServer, type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { SignInPage } from './pages/sign-in-page';

const FIXTURES = join(repoRoot, 'fixtures/fund-requests');
const GS = 'Goldman Sachs Bond Fund';

describe('auditor bulk upload and downloads queue', () => {
  let server: ServerHandle;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let aud: AuditorPage;
  const pageErrors: string[] = [];

  /** Calls the API with the page's session token. */
  const apiCall = (path: string, body: unknown) =>
    page.evaluate(
      async ([p, b]) => {
        const res = await fetch(`/api/v2.0${p}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-access-token': sessionStorage.getItem('fa.token') ?? '' },
          body: JSON.stringify(b),
        });
        return res.json();
      },
      [path, body] as const,
    );

  beforeAll(async () => {
    server = await startServer();
    const link = addUserWithLink(server, { email: 'bea.auditor@example.com', name: 'Bea Auditor', role: 'Auditor' });
    browser = await launchBrowser();
    context = await newContext(browser);
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    aud = new AuditorPage(page);
    await new SignInPage(page).signIn(link);
    await aud.nav('Data Platform');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('starts with an empty downloads queue', async () => {
    await aud.dataTab('Downloads Queue');
    await aud.queue.getByText('No data available').waitFor();
  });

  it('downloads the bulk upload template', async () => {
    await aud.dataTab('Bulk Upload');
    await aud.bulk.getByText('Follow the steps below to bulk upload funds').waitFor();
    const download = page.waitForEvent('download');
    await aud.bulk.getByRole('button', { name: 'Download', exact: true }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    // the download request's notice shows for 4 seconds
    const notice = aud.toast('Downloading the bulk upload template');
    await notice.waitFor();
    const shownAt = Date.now();
    await notice.waitFor({ state: 'detached', timeout: 8000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2500);
  });

  it('uploads real-funds.csv: the deleted fund is Completed again, the existing ones Incomplete', async () => {
    const removed = await apiCall('/fund/remove', { ids: [4], requestedBy: 'Auditor' });
    expect(removed.success).toBe(true);
    await aud.bulkUpload(join(FIXTURES, 'real-funds.csv'));
    await aud.page.getByTestId('bulk-review').getByText('You have 3 rejected funds').waitFor();
    await aud.toast('1 fund request saved').waitFor();
    const statuses = await aud.bulkResults.locator('td:first-child').allInnerTexts();
    expect(statuses.sort()).toEqual(['Completed', 'Incomplete', 'Incomplete', 'Incomplete']);
    expect(await aud.bulkResults.filter({ hasText: 'Completed' }).innerText()).toContain('AST Bond Portfolio 2022');
    expect(await aud.bulkResults.filter({ hasText: GS }).innerText()).toMatch(/Incomplete[\s\S]*another request exists with same unique identifier/);
    // the accepted row shows its row, client and data due date (DD/MM/YYYY)
    const done = aud.bulkResults.filter({ hasText: 'Completed' }).locator('td');
    expect((await done.nth(1).innerText()).trim()).toMatch(/^\d+$/);
    expect((await done.nth(3).innerText()).trim()).not.toBe('');
    expect((await done.nth(6).innerText()).trim()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    // the notification links each 'Duplicate Fund' error to the existing fund
    const notice = aud.toast('Bulk validation');
    // 'You have 3 rejected funds' is said once, in the Review step
    expect(await page.getByText('You have 3 rejected funds').count()).toBe(1);
    expect(await notice.getByRole('button', { name: /^Open fund \d+$/ }).count()).toBe(3);
    // the 60-second notice opens below the header: the profile menu and connection indicator stay in reach
    const headerBottom = await page.locator('.fa-header').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(await notice.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(headerBottom);
    await page.screenshot({ path: screenshotPath('auditor-bulk-duplicate-notice.png') });
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-bulk-upload.png'), fullPage: true });
    // ... and so does the Validation modal: the link opens the fund's details
    await aud.bulk.getByRole('button', { name: 'View errors' }).click();
    const modal = aud.dialog('Validation');
    const links = modal.getByRole('button', { name: /^Open fund \d+$/ });
    // the modal renders its list after it opens
    await expect.poll(() => links.count()).toBe(3);
    await modal
      .locator('li', { hasText: GS })
      .or(modal.locator('li').first())
      .first()
      .getByRole('button', { name: /^Open fund/ })
      .click();
    await aud.details.waitFor();
    await expect.poll(async () => (await aud.details.locator('.p-dialog-title').innerText()).startsWith('Fund details - ')).toBe(true);
    await aud.detailsFooter.getByRole('button', { name: 'Close', exact: true }).click();
    await aud.details.waitFor({ state: 'hidden' });
  });

  it("lists the errors of bad-rows.csv in the 'Validation' modal", async () => {
    await aud.bulkUpload(join(FIXTURES, 'bad-rows.csv'));
    await aud.page.getByTestId('bulk-review').getByText('You have 17 rejected funds').waitFor();
    expect(await aud.bulkResults.count()).toBe(17);
    await aud.toast(/Showing 5 out of \d+ errors/).waitFor();
    await aud.bulk.getByRole('button', { name: 'View errors' }).click();
    const modal = aud.dialog('Validation');
    await modal.getByText('Fix these errors then upload a new csv file').waitFor();
    const errors = await page.getByTestId('bulk-errors').innerText();
    expect(errors).toContain('Row 2: fundName is required');
    expect(errors).toMatch(/Row 10: PM/);
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-bulk-validation.png') });
    await modal.getByRole('button', { name: 'OK' }).click();
    await modal.waitFor({ state: 'hidden' });
  });

  it('takes only a .csv file in the Bulk upload modal', async () => {
    await aud.bulk.getByRole('button', { name: 'Upload', exact: true }).click();
    const modal = aud.dialog('Bulk upload');
    await modal.waitFor();
    expect(await modal.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    await page.getByTestId('bulk-file-input').setInputFiles(join(repoRoot, 'package.json'));
    await modal.getByText('package.json is not a .csv file').waitFor();
    expect(await modal.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    await page.getByTestId('bulk-file-input').setInputFiles(join(FIXTURES, 'real-funds.csv'));
    await modal.getByTestId('bulk-chosen-file').getByText('real-funds.csv').waitFor();
    await modal.getByRole('button', { name: 'Upload' }).waitFor();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'hidden' });
  });

  it('queues the work papers of a fund and downloads them from the queue', async () => {
    await aud.dataTab('Funds Listing');
    await aud.select(GS);
    await aud.action('Download').click();
    const dialog = aud.dialog('Download');
    await dialog.getByText('Work papers (visualization)').waitFor();
    expect(await dialog.locator('label').allInnerTexts()).toEqual([
      'All',
      'Work papers (visualization)',
      'Calculations',
      'Standardization',
      'Identification',
      'Raw import',
      'Fund request',
    ]);
    await dialog.getByText('Work papers (visualization)').click();
    await dialog.getByRole('button', { name: 'Download' }).click();
    await dialog.getByText('Successfully added to Queue.').waitFor();
    await dialog.getByText('View the download queue tab to see what is available.').waitFor();
    await dialog.getByRole('button', { name: 'Go to Downloads Queue' }).click();

    await aud.queue.waitFor();
    const row = aud.queueRows.first();
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toMatch(/Goldman Sachs Bond Fund \(S000013795\)[\s\S]*Done/);
    expect(await row.innerText()).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
    await aud.dismissToasts(); // the 60 s validation notice of the bulk upload covers the top right
    // The file opens in a new window that closes once the download starts, so the answer is taken from the
    // context's response event (a request's response() fails when its page is already closed).
    const fileResponse = context.waitForEvent('response', (r) => /\/api\/v2\.0\/export\/file\/\d+\?token=\S+/.test(r.url()));
    await row.getByRole('button', { name: /Download export/ }).click();
    const response = await fileResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/zip');
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-downloads-queue.png'), fullPage: true });
  });

  it('warns about CSV files before queueing CSV stages', async () => {
    await aud.dataTab('Funds Listing');
    await aud.select(GS);
    await aud.action('Download').click();
    const dialog = aud.dialog('Download');
    await dialog.getByText('All', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Download' }).click();
    const warning = aud.dialog('CSV files');
    await warning.getByText(/date and number formats inaccurately/).waitFor();
    await warning.getByRole('button', { name: 'I understand' }).click();
    await dialog.getByText('Successfully added to Queue.').waitFor();
    await dialog.getByRole('button', { name: 'Go to Downloads Queue' }).click();
    await expect.poll(() => aud.queueRows.count()).toBe(2);
    await expect.poll(() => aud.queueRows.first().innerText(), { timeout: 20_000 }).toMatch(/Done|Error/);
  });

  it('deletes old export files after confirmation, and says so when that fails', async () => {
    await aud.dismissToasts();
    await aud.queue.getByRole('button', { name: 'Delete older than 90 days' }).click();
    await aud.dialog('Delete old export files').getByRole('button', { name: 'Delete' }).click();
    await aud.toast('No export files older than 90 days').waitFor();
    expect(await aud.queueRows.count()).toBe(2);
    await aud.dismissToasts();

    await page.route('**/api/v2.0/export/files/delete-old', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, payload: null, errors: ['disk full'] }) }),
    );
    await aud.queue.getByRole('button', { name: 'Delete older than 90 days' }).click();
    await aud.dialog('Delete old export files').getByRole('button', { name: 'Delete' }).click();
    await aud.toast('Delete export files older than 90 days failed.').waitFor();
    await page.unroute('**/api/v2.0/export/files/delete-old');
    expect(pageErrors).toEqual([]);
  });
});
