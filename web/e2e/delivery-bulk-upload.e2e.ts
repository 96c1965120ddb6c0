/**
 * Delivery Bulk upload on the demo data (the four real fund requests of
 * fixtures/fund-requests/real-funds.csv already exist): a file that is not a CSV; the bad-rows
 * fixture declined with its faults in the Errors tooltip; then the real funds again plus one new
 * fund (the Goldman Sachs row under a new code): the new one approved, the four repeats asking
 * to overwrite; accept one (overwrite), decline one (with the note), save after the 48-hour
 * confirmation, and find the new fund on the Dashboard.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { repoRoot, type ServerHandle } from './harness';
import { BulkUploadPage } from './pages/bulk-upload-page';
import { DashboardPage } from './pages/dashboard-page';
import { ShellPage } from './pages/shell-page';
import { openSignedIn } from './support/signed-in';

const FIXTURES = join(repoRoot, 'fixtures/fund-requests');
const OVERWRITE = 'Another request exists with same unique identifier. Do you want to overwrite?';

describe('delivery bulk upload', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let bulk: BulkUploadPage;
  let dir: string;
  const pageErrors: string[] = [];
  const toast = (text: string | RegExp) => page.locator('.p-toast-message').filter({ hasText: text });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fa-bulk-'));
    // the real funds again, plus the Goldman Sachs row under a new fund code: a new request
    const lines = readFileSync(join(FIXTURES, 'real-funds.csv'), 'utf8').trimEnd().split(/\r?\n/);
    const gs = lines.find((l) => l.startsWith('Goldman Sachs Bond Fund'))!;
    writeFileSync(
      join(dir, 'funds.csv'),
      [...lines, gs.replace('Goldman Sachs Bond Fund', 'Goldman Sachs Bond Fund II').replace(',S000013795,', ',S000099001,')].join('\n') + '\n',
    );
    writeFileSync(join(dir, 'funds.txt'), 'not a csv');
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    bulk = new BulkUploadPage(page);
    await new ShellPage(page).sider.getByRole('link', { name: 'Bulk upload' }).click();
    await page.getByText('Upload a .csv file to review its fund requests here').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a file that is not a CSV', async () => {
    await bulk.upload(join(dir, 'funds.txt'));
    await toast(/funds\.txt/).waitFor();
    expect(await bulk.rows('Approved').count()).toBe(0);
  });

  it('declines rows with faults and lists them in the Errors tooltip', async () => {
    await bulk.upload(join(FIXTURES, 'bad-rows.csv'));
    await toast('bad-rows.csv failed validation').waitFor();
    // one bad row a rule: none is approved
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'bad-rows.expected.json'), 'utf8')) as unknown[];
    await expect.poll(() => bulk.rows('Requires action and declined').count()).toBe(expected.length);
    expect(await bulk.rows('Approved').count()).toBe(0);
    const first = bulk.rows('Requires action and declined').first();
    expect(await first.innerText()).toContain('Declined');
    const errors = first.getByTestId('bulk-errors');
    expect(await errors.innerText()).toMatch(/^\d+ faults?/);
    await errors.hover();
    await page.locator('.p-tooltip', { hasText: 'Fault:' }).waitFor();
    // declined rows cannot be ticked, and nothing can be saved
    expect(await bulk.button('Save 0 fund requests').isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath('delivery-bulk-upload-declined.png') });
    await page.mouse.move(0, 0);
  });

  it('approves a new fund and asks before overwriting the ones that exist', async () => {
    await bulk.upload(join(dir, 'funds.csv'));
    await toast('funds.csv failed validation').waitFor();
    await expect.poll(() => bulk.codes('Approved')).toEqual(['S000099001']);
    expect(await bulk.codes('Requires action and declined')).toEqual(['S000013795', 'S000012000', 'S000012000', 'S000030880']);
    const gs = bulk.row('Requires action and declined', 'S000013795');
    expect(await gs.innerText()).toContain('Requires action');
    await gs.getByTestId('bulk-errors').hover();
    await page.locator('.p-tooltip', { hasText: OVERWRITE }).waitFor();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: screenshotPath('delivery-bulk-upload-review.png') });
  });

  it('accepts one repeat for overwrite and declines another with its note', async () => {
    await bulk.tick('Requires action and declined', 'S000013795');
    await bulk.button('Accept selected rows').click();
    await expect.poll(() => bulk.codes('Approved')).toEqual(['S000013795', 'S000099001']);
    expect(await bulk.row('Approved', 'S000013795').innerText()).toContain('Accepted (overwrite)');
    await bulk.tick('Requires action and declined', 'S000030880');
    await bulk.button('Decline selected rows').click();
    const ast = bulk.row('Requires action and declined', 'S000030880');
    await expect.poll(() => ast.innerText()).toContain('Declined');
    await ast.getByTestId('bulk-errors').hover();
    await page.locator('.p-tooltip', { hasText: 'will not be overwritten' }).waitFor();
    await page.mouse.move(0, 0);
  });

  it('saves the approved rows after the 48-hour confirmation and lists the new fund on the Dashboard', async () => {
    await bulk.button('Save 2 fund requests').click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Save fund requests' }));
    await confirm.getByText('The 48 hour turnaround does not apply to requests uploaded less than one week before the data due date.').waitFor();
    expect(await confirm.innerText()).toContain('overwriting the existing requests you accepted');
    await page.screenshot({ path: screenshotPath('delivery-bulk-upload-confirm.png') });
    await confirm.getByRole('button', { name: 'Save', exact: true }).click();
    await toast('Save successful').waitFor();
    await expect.poll(() => bulk.rows('Approved').count()).toBe(0);
    expect(await bulk.codes('Requires action and declined')).toEqual(['S000012000', 'S000012000', 'S000030880']);

    await new ShellPage(page).sider.getByRole('link', { name: 'Dashboard' }).click();
    await new DashboardPage(page).grid.getByText('Goldman Sachs Bond Fund II').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
