/**
 * WAM Tools Self-Onboarding wizard for a user with the Auditor role on the demo data: live feedback
 * on a new TPA name (taken, invalid, new), the mapping file checks of a new TPA (wrong file name,
 * Validate, chip states, Save & Next held back until the needed types are valid), then the main
 * path for the demo TPA (its mappings exist): fund_request.csv and holdings.csv dropped, a badly
 * named file under 'Failed files', Process, and the 'Manual Self-Onboarding finished' screen; and
 * a full onboarding of a new TPA from its five mapping files to a processed fund (work paper).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { repoRoot, type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { openSignedIn } from './support/signed-in';

describe('auditor self-onboarding wizard', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;
  let dir: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fa-sdm-'));
    // the demo TPA's fund request (from the bulk fixtures) and its holdings, named after their types
    const csv = readFileSync(join(repoRoot, 'fixtures/fund-requests/real-funds.csv'), 'utf8').split('\n');
    writeFileSync(join(dir, 'fund_request.csv'), [csv[0], csv.find((l) => l.includes(',demo_test,'))].join('\n') + '\n');
    copyFileSync(join(repoRoot, 'fixtures/tpas/demo_test/inputs/demo_holdings.csv'), join(dir, 'holdings.csv'));
    // the TPA's holdings under its own name, typed by its header; a notes file no layout recognises
    copyFileSync(join(repoRoot, 'fixtures/tpas/demo_test/inputs/demo_holdings.csv'), join(dir, 'positions.csv'));
    writeFileSync(join(dir, 'notes.csv'), 'Note,Author\nDelivered late,ops\n');
    copyFileSync(join(repoRoot, 'fixtures/tpas/demo_test/mappings/file_layout.csv'), join(dir, 'file_layout.csv'));
    copyFileSync(join(repoRoot, 'fixtures/tpas/demo_test/mappings/file_layout.csv'), join(dir, 'layout.csv'));
    // a new TPA, harbor_admin, delivering the same real fund with the demo TPA's file layouts
    mkdirSync(join(dir, 'harbor'));
    for (const t of ['file_layout', 'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping']) {
      copyFileSync(join(repoRoot, `fixtures/tpas/demo_test/mappings/${t}.csv`), join(dir, 'harbor', `${t}.csv`));
    }
    writeFileSync(
      join(dir, 'harbor', 'fund_request.csv'),
      [csv[0], csv.find((l) => l.includes(',demo_test,'))!.replace(',demo_test,', ',harbor_admin,')].join('\n') + '\n',
    );
    for (const [from, to] of [
      ['demo_trial_balance.csv', 'trial_balance.csv'],
      ['demo_holdings.csv', 'holdings.csv'],
      ['demo_share_capital.csv', 'share_capital.csv'],
    ]) {
      copyFileSync(join(repoRoot, 'fixtures/tpas/demo_test/inputs', from), join(dir, 'harbor', to));
    }

    ({ server, browser, page } = await openSignedIn({ user: { email: 'cy.auditor@example.com', name: 'Cy Auditor', role: 'Auditor' }, pageErrors }));
    aud = new AuditorPage(page);
    await aud.nav('WAM Tools');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives live feedback on a new TPA name', async () => {
    const wizard = page.getByTestId('self-onboarding');
    await wizard.getByRole('button', { name: 'Create new TPA' }).click();
    const code = wizard.getByLabel('TPA code');
    const feedback = page.locator('#fa-sdm-code-check');
    await code.fill('demo_test');
    await feedback.getByText('Administrator already exist').waitFor();
    expect(await wizard.getByRole('button', { name: 'Next' }).count()).toBe(0);
    await code.fill('Harbor Admin');
    await feedback.getByText(/Provided name is invalid/).waitFor();
    expect(await wizard.getByRole('button', { name: 'Next' }).count()).toBe(0);
    await code.fill('harbor_admin');
    await feedback.getByText('New', { exact: false }).waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('sdm-mappings').waitFor();
  });

  it('checks mapping files of a new TPA before Save & Next', async () => {
    const step = page.getByTestId('sdm-mappings');
    expect(await step.getByRole('button', { name: 'Validate' }).isDisabled()).toBe(true);
    await step.getByText('In order to validate, upload mapping files').waitFor();
    await page.getByTestId('sdm-mapping-input').setInputFiles(join(dir, 'layout.csv'));
    await step.getByText('Invalid file - Please upload a .csv file that matches one of the mapping names.').waitFor();
    await page.getByTestId('sdm-mapping-input').setInputFiles(join(dir, 'file_layout.csv'));
    await expect.poll(async () => (await page.getByTestId('chip-file_layout').innerText()).trim()).toBe('uploaded');
    await step.getByRole('button', { name: 'Validate' }).click();
    await expect.poll(() => page.getByTestId('chip-file_layout').innerText()).toContain('uploaded and valid');
    expect(await page.getByTestId('chip-account_mapping').innerText()).toContain('not uploaded');
    // account and instrument mappings are still needed
    expect(await step.getByRole('button', { name: 'Save & Next' }).isDisabled()).toBe(true);
    await step.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('sdm-create-tpa').getByRole('button', { name: 'Back' }).click();
  });

  it('self-onboards files of the demo TPA through to the finished screen', async () => {
    const wizard = page.getByTestId('self-onboarding');
    await wizard.getByRole('button', { name: 'Select a TPA' }).click();
    await page.locator('.p-dropdown-item', { hasText: 'demo_test' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    const mappings = page.getByTestId('sdm-mappings');
    expect(await page.getByTestId('chip-account_mapping').innerText()).toContain('existing and unchanged');
    await mappings.getByRole('button', { name: 'Save & Next' }).click();

    const files = page.getByTestId('sdm-files');
    await files.getByText('No fund requests').waitFor();
    await files.getByText('No SDM files').waitFor();
    await page
      .getByTestId('sdm-file-input')
      .setInputFiles([join(dir, 'fund_request.csv'), join(dir, 'holdings.csv'), join(dir, 'positions.csv'), join(dir, 'notes.csv')]);
    await files
      .getByRole('region', { name: 'Failed files' })
      .getByText(/notes\.csv: its header matches none of the TPA's file layouts/)
      .first()
      .waitFor();
    await files.getByRole('table', { name: 'SDM files' }).getByText('positions.csv', { exact: true }).waitFor();
    await files.getByRole('table', { name: 'Fund requests' }).getByText('fund_request.csv').waitFor();
    await files.getByRole('table', { name: 'SDM files' }).getByText('holdings.csv', { exact: true }).waitFor();
    await page.screenshot({ path: screenshotPath('auditor-self-onboarding-files.png'), fullPage: true });

    await files.getByRole('button', { name: 'Process' }).click();
    await page.getByTestId('sdm-finished').getByText('Manual Self-Onboarding finished').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('sdm-finished').innerText()).toContain('3 files of Demo TPA uploaded');
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-self-onboarding-finished.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('onboards a new TPA from its mapping files to a processed fund', async () => {
    await page.getByTestId('sdm-finished').getByRole('button', { name: 'Start a new self-onboarding' }).click();
    const wizard = page.getByTestId('self-onboarding');
    await wizard.getByRole('button', { name: 'Create new TPA' }).click();
    await wizard.getByLabel('TPA code').fill('harbor_admin');
    await page.locator('#fa-sdm-code-check').getByText('New', { exact: false }).waitFor();
    await wizard.getByRole('button', { name: 'Next' }).click();
    const mappings = page.getByTestId('sdm-mappings');
    for (const t of ['file_layout', 'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping']) {
      await page.getByTestId('sdm-mapping-input').setInputFiles(join(dir, 'harbor', `${t}.csv`));
      // 'not uploaded' contains 'uploaded': wait for the chip's own state
      await expect.poll(async () => (await page.getByTestId(`chip-${t}`).innerText()).trim()).toBe('uploaded');
    }
    await mappings.getByRole('button', { name: 'Validate' }).click();
    await expect.poll(() => page.getByTestId('chip-instrument_mapping').innerText()).toContain('uploaded and valid');
    await mappings.getByRole('button', { name: 'Save & Next' }).click();
    const files = page.getByTestId('sdm-files');
    await files.getByText('No fund requests').waitFor();
    await page
      .getByTestId('sdm-file-input')
      .setInputFiles(['fund_request.csv', 'trial_balance.csv', 'holdings.csv', 'share_capital.csv'].map((f) => join(dir, 'harbor', f)));
    await files.getByRole('table', { name: 'SDM files' }).getByText('share_capital.csv').waitFor();
    await files.getByRole('button', { name: 'Process' }).click();
    await page.getByTestId('sdm-finished').getByText('Manual Self-Onboarding finished').waitFor({ timeout: 20_000 });
    // the server's pipeline takes the files through to the fund's work paper
    const workPapers = () =>
      page.evaluate(async () => {
        const headers = { 'x-access-token': sessionStorage.getItem('fa.token') ?? '', 'content-type': 'application/json' };
        const list = await (
          await fetch('/api/v2.0/user/fundsByTpa', { method: 'POST', headers, body: JSON.stringify({ offset: 0, limit: 10, tpa: 'harbor_admin' }) })
        ).json();
        const id = list.payload.rows[0]?.id;
        if (!id) return -1;
        const d = await (await fetch(`/api/v2.0/fund/${id}`, { headers })).json();
        return d.payload.workPapers.length;
      });
    await expect.poll(workPapers, { timeout: 30_000 }).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it("says once, in place, why an auditor may not replace an established TPA's master mapping", async () => {
    await page.goto(`${server.url}/tools`);
    const wizard = page.getByTestId('self-onboarding');
    await wizard.getByRole('button', { name: 'Select a TPA' }).click();
    await page.locator('.p-dropdown-item', { hasText: 'keystone_admin' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    const mappings = page.getByTestId('sdm-mappings');
    await page.getByTestId('sdm-mapping-input').setInputFiles(join(dir, 'file_layout.csv'));
    await mappings.getByRole('button', { name: 'Validate' }).click();
    await expect.poll(async () => (await page.getByTestId('chip-file_layout').innerText()).trim()).toBe('existing and replaced');
    await mappings.getByRole('button', { name: 'Save & Next' }).click();
    const said = 'Only the delivery team can replace the master file_layout of keystone_admin, a TPA not onboarded through this wizard';
    await page.getByTestId('sdm-save-error').getByText(said, { exact: false }).waitFor();
    // once: in the step, not again in a notification nor twice in the banner
    expect(await page.getByText(said, { exact: false }).count()).toBe(1);
    expect(await page.getByTestId('sdm-save-error').locator('li').count()).toBe(0);
    expect(await page.locator('.p-toast-message').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('auditor-self-onboarding-save-refused.png') });
    // a new file clears the refusal
    await page.getByTestId('sdm-mapping-input').setInputFiles(join(dir, 'file_layout.csv'));
    await page.getByTestId('sdm-save-error').waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });

  it('says once, in the Independent FX rates panel, when the rates cannot be read', async () => {
    await page.route('**/api/v2.0/reference/fx-rates', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, payload: null, errors: ['rate store unavailable'] }),
      }),
    );
    try {
      await page.goto(`${server.url}/tools`);
      await page.getByRole('tab', { name: 'Independent FX rates' }).click();
      await page.getByTestId('fx-rates').getByRole('alert').filter({ hasText: 'rate store unavailable' }).waitFor();
      // in the panel only: no notification repeating it
      expect(await page.getByText('rate store unavailable').count()).toBe(1);
      expect(await page.locator('.p-toast-message').count()).toBe(0);
    } finally {
      await page.unroute('**/api/v2.0/reference/fx-rates');
    }
    expect(pageErrors).toEqual([]);
  });
});
