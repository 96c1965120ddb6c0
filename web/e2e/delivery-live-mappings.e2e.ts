/**
 * Delivery Live mappings on the demo data (the master mappings of three TPAs): the grid grouped by
 * administrator with 'No custom mappings active', master rows that cannot be selected, a broken
 * mapping file refused with the validation banner, a custom mapping uploaded and listed, the
 * report download, and 'Delete selected' after its confirmation (one call with the selected ids)
 * back to the empty state.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { repoRoot, type ServerHandle } from './harness';
import { ShellPage } from './pages/shell-page';
import { chooseByLabel } from './support/dropdown';
import { openSignedIn } from './support/signed-in';

const MAPPINGS = join(repoRoot, 'fixtures/tpas/demo_test/mappings');

describe('delivery live mappings', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const toast = (text: string | RegExp) => page.locator('.p-toast-message').filter({ hasText: text });
  const grid = () => page.locator('.fa-mappings-grid');
  const row = (text: string) => grid().locator('tbody tr', { hasText: text });
  const choose = (label: string, option: string) => chooseByLabel(page, label, option);

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    await new ShellPage(page).sider.getByRole('link', { name: 'Live mappings' }).click();
    await grid().locator('tbody tr').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('groups the master mappings by administrator; masters cannot be selected', async () => {
    await page.getByText('No custom mappings active').waitFor();
    const groups = (await grid().locator('.p-rowgroup-header').allInnerTexts()).map((t) => t.trim());
    expect(groups).toEqual(['Demo TPA (5)', 'Keystone Administration (5)', 'Meridian Fund Services (5)']);
    const master = row('meridian_fund_services_instrument_mapping');
    expect(await master.innerText()).toMatch(/instrument_mapping\s+master/);
    expect(await master.locator('.p-checkbox').first().getAttribute('data-p-disabled')).toBe('true');
    expect(await page.getByRole('button', { name: 'Delete selected' }).isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath('delivery-live-mappings.png'), fullPage: true });
  });

  it('refuses a file that is not a mapping of the chosen type with a banner', async () => {
    await choose('Administrator', 'Demo TPA');
    await choose('Mapping type', 'account_mapping');
    await choose('Mode', 'Create new');
    await page.getByLabel('Mapping name').fill('demo_accounts');
    await page.getByLabel('Reason for creating').fill('Client chart of accounts');
    await page.getByTestId('custom-mapping-input').setInputFiles(join(MAPPINGS, 'file_layout.csv'));
    const banner = page.getByRole('alert');
    await banner.getByText('file_layout.csv is not a valid account_mapping').waitFor();
    expect(await banner.innerText()).toContain('missing columns source_code, target_code');
  });

  it('uploads a custom mapping and lists it under its administrator', async () => {
    await page.getByTestId('custom-mapping-input').setInputFiles(join(MAPPINGS, 'account_mapping.csv'));
    await toast('account_mapping.csv uploaded').waitFor();
    await row('demo_accounts').waitFor();
    expect(await row('demo_accounts').innerText()).toMatch(/account_mapping\s+custom\s+demo_accounts/);
    expect(await row('demo_accounts').innerText()).toContain('Client chart of accounts');
    expect(await page.getByText('No custom mappings active').count()).toBe(0);
    expect(await grid().locator('.p-rowgroup-header').first().innerText()).toContain('Demo TPA (6)');
  });

  it('fits a 1440-px window: no column pushed out of view, the actions of every row on screen', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await row('demo_accounts').waitFor();
    const fit = await grid().evaluate((el) => {
      const wrapper = el.querySelector('.p-datatable-wrapper') as HTMLElement;
      return { grid: wrapper.scrollWidth - wrapper.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth };
    });
    expect(fit).toEqual({ grid: 0, page: 0 });
    const download = await row('demo_accounts').getByRole('button', { name: 'Download demo_accounts' }).boundingBox();
    expect(download!.x + download!.width).toBeLessThanOrEqual(1440);
    await page.screenshot({ path: screenshotPath('delivery-live-mappings-1440.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('downloads the custom mapping report', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download report' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
  });

  it('deletes the selected custom mapping after confirmation', async () => {
    await row('demo_accounts').locator('.p-checkbox').first().click();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete mappings' }));
    await confirm.getByText('Delete the custom mapping demo_accounts?').waitFor();
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v2.0/mappings/delete') && calls.push(`${new URL(r.url()).pathname} ${r.postData()}`));
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast('demo_accounts deleted').waitFor();
    // one call with the selected ids, never one per row
    expect(calls).toEqual([expect.stringMatching(/^\/api\/v2\.0\/mappings\/delete-selected-custom-mappings \{"ids":\[\d+\]\}$/)]);
    await expect.poll(() => row('demo_accounts').count()).toBe(0);
    await page.getByText('No custom mappings active').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
