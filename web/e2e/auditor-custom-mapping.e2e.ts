/**
 * Auditor Custom Mapping tab for a user with the Auditor role on the demo data (master mappings of
 * the three demo TPAs): the Manage view (groups with count badges, the name rule, an invalid csv
 * refused with a banner, a new custom mapping uploaded, then updated: its versions and the rows
 * changed between them, as on Live mappings) and the Apply & Rerun view (the mapping applied to a
 * fund of its TPA, then reset); a failure of the history dialog is said once, in the dialog.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { repoRoot, type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { chooseByLabel } from './support/dropdown';
import { openSignedIn } from './support/signed-in';

const MAPPINGS = join(repoRoot, 'fixtures/tpas/demo_test/mappings');

describe('auditor custom mapping', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;
  const pageErrors: string[] = [];

  /** Picks an option of a PrimeReact dropdown by its label. */
  const choose = (label: string, option: string) => chooseByLabel(page, label, option);

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ user: { email: 'dee.auditor@example.com', name: 'Dee Auditor', role: 'Auditor' }, pageErrors }));
    aud = new AuditorPage(page);
    await aud.nav('Data Platform');
    await aud.dataTab('Custom Mapping');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the mappings grouped by administrator with a count badge', async () => {
    const manage = page.getByTestId('custom-mapping-manage');
    const demo = manage.getByRole('region', { name: 'Mappings of Demo TPA' });
    await demo.waitFor();
    expect(await demo.locator('.p-badge').innerText()).toBe('5');
    expect(await demo.locator('tbody tr').count()).toBe(5);
    expect(await manage.getByRole('region', { name: /^Mappings of / }).count()).toBe(3);
  });

  it('checks the name and refuses an invalid csv with a banner', async () => {
    const manage = page.getByTestId('custom-mapping-manage');
    const upload = manage.getByRole('button', { name: 'Upload mapping csv' });
    expect(await upload.isDisabled()).toBe(true);
    await choose('Administrator', 'Demo TPA');
    await choose('Mapping type', 'account_mapping');
    await manage.getByLabel('Mapping name').fill('My Accounts');
    await manage.getByText(/Provided name is invalid\. Name can contain only lowercase characters/).waitFor();
    await manage.getByLabel('Mapping name').fill('demo_accounts');
    await manage.getByLabel('Reason for creating').fill('Client chart of accounts');
    expect(await upload.isEnabled()).toBe(true);
    await page.getByTestId('custom-mapping-input').setInputFiles(join(MAPPINGS, 'file_layout.csv'));
    const banner = manage.getByRole('alert');
    await banner.getByText('file_layout.csv is not a valid account_mapping').waitFor();
    expect(await banner.innerText()).toContain('missing columns source_code, target_code');
  });

  it('uploads a new custom mapping', async () => {
    const manage = page.getByTestId('custom-mapping-manage');
    await page.getByTestId('custom-mapping-input').setInputFiles(join(MAPPINGS, 'account_mapping.csv'));
    await aud.toast('account_mapping.csv uploaded').waitFor();
    const demo = manage.getByRole('region', { name: 'Mappings of Demo TPA' });
    await expect.poll(() => demo.locator('.p-badge').innerText()).toBe('6');
    expect(await demo.locator('tbody tr', { hasText: 'demo_accounts' }).innerText()).toMatch(/account_mapping\s+custom/);
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-custom-mapping-manage.png'), fullPage: true });
  });

  it('updates the custom mapping to version 2 and shows its versions and the rows changed', async () => {
    const manage = page.getByTestId('custom-mapping-manage');
    const demo = manage.getByRole('region', { name: 'Mappings of Demo TPA' });
    const mine = demo.locator('tbody tr', { hasText: 'demo_accounts' });
    expect(await mine.locator('[data-col="version"]').innerText()).toBe('1');
    // the client's chart names cash differently and adds a receivables account
    const v1 = readFileSync(join(MAPPINGS, 'account_mapping.csv'), 'utf8');
    const v2 = `${v1.replace('A200,CASH,Bank', 'A200,CASH,Cash at bank').trimEnd()}\nA950,OTHER_ASSETS,Dividends receivable\n`;
    const file = join(mkdtempSync(join(tmpdir(), 'fa-custom-')), 'account_mapping.csv');
    writeFileSync(file, v2);
    await choose('Mode', 'Update existing');
    await choose('Custom mapping', 'demo_accounts');
    await manage.getByLabel('Reason for the change').fill('receivables split out');
    await page.getByTestId('custom-mapping-input').setInputFiles(file);
    await aud.toast('account_mapping.csv uploaded').waitFor();
    await expect.poll(() => mine.locator('[data-col="version"]').innerText()).toBe('2');

    await mine.getByRole('button', { name: 'History of demo_accounts' }).click();
    const dialog = page.getByRole('dialog', { name: /History of demo_accounts/ });
    await dialog.getByText('History of demo_accounts (Demo TPA, account_mapping)').waitFor();
    const versions = dialog.getByRole('table', { name: 'Versions' }).locator('tbody tr');
    await expect.poll(() => versions.count()).toBe(2);
    const [newest, oldest] = (await versions.allInnerTexts()).map((t) => t.split('\t').map((c) => c.trim()));
    expect([newest[0], newest[2], newest[3]]).toEqual(['2 (current)', 'Dee Auditor', 'receivables split out']);
    expect([oldest[0], oldest[3]]).toEqual(['1', 'Client chart of accounts']);
    expect(Number(newest[4])).toBe(Number(oldest[4]) + 1);
    await dialog.getByRole('button', { name: 'Compare' }).click();
    const diff = dialog.getByRole('region', { name: 'Changes from version 1 to version 2' });
    await diff.getByRole('status').waitFor();
    expect(await diff.getByRole('status').innerText()).toMatch(/^Version 1 to 2: 1 added, 0 removed, 1 changed, \d+ unchanged$/);
    const lines = (await diff.locator('tbody tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual([
      'Added a950 source_code: A950, target_code: OTHER_ASSETS, description: Dividends receivable',
      'Changed a200 description: Bank → Cash at bank',
    ]);
    await page.screenshot({ path: screenshotPath('auditor-custom-mapping-history.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('applies the custom mapping to a fund of its TPA and resets it', async () => {
    await page.getByRole('button', { name: 'Apply & Rerun' }).click();
    const apply = page.getByTestId('custom-mapping-apply');
    await apply.getByText('The funds listed are those in Pending, Open or Closed states.').waitFor();
    await choose('Administrator', 'Demo TPA');
    await choose('Mapping type', 'account_mapping');
    await choose('Mapping', 'demo_accounts');
    const row = apply.locator('tbody tr', { hasText: 'Kentucky Tax-Free Short-to-Medium Series' });
    await row.locator('.p-checkbox').click();
    await apply.getByRole('button', { name: 'Apply Selected' }).click();
    await aud.toast('Mapping applied to 1 fund request').waitFor();
    await expect.poll(() => row.innerText()).toContain('demo_accounts');
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-custom-mapping-apply.png'), fullPage: true });
    await apply.getByRole('button', { name: 'Reset Selected' }).click();
    await aud.toast('Custom mapping removed from 1 fund request').waitFor();
    await expect.poll(() => row.innerText()).not.toContain('demo_accounts');
    expect(pageErrors).toEqual([]);
  });

  it('says once, in the history dialog, when the versions cannot be compared', async () => {
    await aud.dismissToasts();
    await page.getByRole('button', { name: 'Manage' }).click();
    const mine = page.getByTestId('custom-mapping-manage').locator('tbody tr', { hasText: 'demo_accounts' });
    await mine.getByRole('button', { name: 'History of demo_accounts' }).click();
    const dialog = page.getByRole('dialog', { name: /History of demo_accounts/ });
    await dialog.getByRole('table', { name: 'Versions' }).waitFor();
    // the server cannot answer the comparison
    await page.route('**/api/v2.0/mappings/*/diff*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, payload: null, errors: ['mapping store unavailable'] }),
      }),
    );
    try {
      await dialog.getByRole('button', { name: 'Compare' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'mapping store unavailable' }).waitFor();
      // in the dialog only: no notification repeating it
      expect(await page.getByText('mapping store unavailable').count()).toBe(1);
      expect(await page.locator('.p-toast-message').count()).toBe(0);
    } finally {
      await page.unroute('**/api/v2.0/mappings/*/diff*');
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(pageErrors).toEqual([]);
  });
});
