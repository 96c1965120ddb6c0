/**
 * Auditor Fund details modal on data produced by the real pipeline: Meridian's deliveries for the
 * Goldman Sachs Bond Fund go through identification, standardization, calculations and work
 * papers; the modal's QA Validations popover then shows the calculation checks of the work paper
 * (orange: eight securities held twice) and, after a holdings file with an unmapped asset class,
 * the red mapping failure naming column and file. Also the Children tab's links and a
 * 'Duplicate Fund' error opening the other fund.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { AuditorPage } from './pages/auditor-page';
import { ShellPage } from './pages/shell-page';
import { pageApi } from './page-api';
import { openSignedIn } from './support/signed-in';
import { AST, GS, INPUTS, MFS } from './support/meridian-delivery';

const KENTUCKY = 'Kentucky Tax-Free Short-to-Medium Series';

interface FundLike {
  id: number;
  name: string;
  administrator: { code: string } | null;
  workPapers: Array<{ qa: { warnings: unknown[] }; outcome: string | null }>;
  standardizationFiles: Array<{ fileType: string; validation_status: string | null; qa: { failed: unknown[] } }>;
  [key: string]: unknown;
}

describe('auditor fund details on pipeline data', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let aud: AuditorPage;
  const pageErrors: string[] = [];
  const ids: Record<string, number> = {};

  let http: ReturnType<typeof pageApi>;
  const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => http.call<T>(method, path, body);
  const importFiles = (administrator: string, dir: string, names: string[]) => http.importFiles(administrator, dir, names);
  const fund = (id: number) => api<FundLike>('GET', `/fund/${id}`);

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    aud = new AuditorPage(page);
    http = pageApi(page);
    Object.assign(ids, await http.fundIds());
    ids.gs = ids[`${GS}|meridian_fund_services`];
    ids.ast = ids[`${AST}|keystone_admin`];

    // Meridian delivers the Goldman Sachs Bond Fund; the pipeline produces its work paper
    await importFiles('meridian_fund_services', join(MFS, 'inputs'), INPUTS);
    await http.waitForWorkPaper(ids.gs);

    await new ShellPage(page).sider.getByRole('button', { name: 'Switch to auditor' }).click();
    await page.locator('[data-frame="auditor"]').waitFor();
    await aud.nav('Data Platform');
    await aud.dataTab('Funds Listing');
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const openDetails = async (name: string) => {
    await aud
      .row(name)
      .getByRole('button', { name: `Fund details of ${name}` })
      .first()
      .click();
    await aud.dialog(`Fund details - ${name}`).waitFor();
  };
  const closeDetails = async () => {
    await aud.detailsFooter.getByRole('button', { name: 'Close', exact: true }).click();
    await aud.details.waitFor({ state: 'hidden' });
  };
  const workPaperQa = () => aud.details.getByRole('table', { name: 'Work papers' }).locator('tbody tr').first().locator('td').last();

  it("shows the work paper's calculation checks in the QA Validations popover: warnings in orange, checks not performed as such", async () => {
    await openDetails(GS);
    await aud.detailsTab('Run parameters');
    const cell = workPaperQa();
    // the 8 securities held twice are warnings; the FX test of the 32 CLP / TWD positions (no ECB rate) is NOT PERFORMED
    const button = cell.getByRole('button', { name: /QA validations of .*: 8 warnings, \d+ not performed$/ });
    await button.waitFor();
    expect(await button.getAttribute('data-qa')).toBe('warning');
    const wp = aud.details.getByRole('table', { name: 'Work papers' }).locator('tbody tr').first();
    // the auditor spec's file status values: a produced work paper nobody reviewed yet is In review
    expect(await wp.locator('[data-col="status"]').innerText()).toBe('In review');
    // the work paper's Summary: every check passed or warned on complete data
    expect(await wp.locator('[data-col="outcome"]').innerText()).toBe('WARNING');
    await button.click();
    const popover = page.getByRole('dialog', { name: 'QA Validations' });
    await popover.waitFor();
    const warnings = await popover.getByRole('region', { name: 'Warnings' }).locator('li').allInnerTexts();
    expect(warnings).toHaveLength(8);
    expect(warnings.every((text) => /^\S+: .*security also held on line\(s\) \d+/.test(text))).toBe(true);
    const notPerformed = await popover.getByRole('region', { name: 'Not performed' }).locator('li').allInnerTexts();
    // FX testing names each currency it could not test: the CLP and TWD positions have no ECB rate
    expect(notPerformed.some((text) => text.includes('CLP'))).toBe(true);
    expect(notPerformed.some((text) => text.includes('TWD'))).toBe(true);
    expect(await popover.getByRole('region', { name: 'Failed' }).count()).toBe(0);
    expect(await popover.getByRole('region', { name: 'Incomplete data' }).count()).toBe(0);
    // the standardization files all passed their mapping checks: green
    const std = aud.details.getByRole('table', { name: 'Standardization files' });
    expect(await std.locator('[data-qa="clear"]').count()).toBe(4);
    await page.locator('.p-overlaypanel-enter-done').waitFor();
    await page.screenshot({ path: screenshotPath('auditor-qa-warnings.png') });
    await page.keyboard.press('Escape');
    await closeDetails();
  });

  it('shows an unmapped asset class in red, naming the column and the file', async () => {
    // a delivery-team import (the auditor view cannot import): switch, import, switch back
    await api('POST', '/user/switch-role', { view: 'delivery' });
    await importFiles('meridian_fund_services', join(MFS, 'broken'), ['MFS_HOLDINGS_unknown_instrument.csv']);
    await api('POST', '/user/switch-role', { view: 'auditor' });
    await expect
      .poll(async () => (await fund(ids.gs)).standardizationFiles.find((f) => f.fileType === 'holdings')?.qa.failed.length, { timeout: 60_000, interval: 1000 })
      .toBe(1);
    await openDetails(GS);
    await aud.detailsTab('Run parameters');
    const std = aud.details.getByRole('table', { name: 'Standardization files' });
    const holdings = std.locator('tbody tr', { hasText: 'holdings' });
    const button = holdings.getByRole('button', { name: /QA validations of .*: 1 failed/ });
    expect(await button.getAttribute('data-qa')).toBe('fail');
    expect(await holdings.locator('td').nth(3).innerText()).toBe('In review');
    await button.click();
    const popover = page.getByRole('dialog', { name: 'QA Validations' });
    const failed = await popover.getByRole('region', { name: 'Failed' }).locator('li').allInnerTexts();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('Asset Class - MFS_HOLDINGS_unknown_instrument.csv (BANK LOAN)');
    await page.locator('.p-overlaypanel-enter-done').waitFor();
    await page.screenshot({ path: screenshotPath('auditor-qa-failed.png') });
    await page.keyboard.press('Escape');
    await closeDetails();
  });

  it("says 'Incomplete data' where the work paper does, naming the standardization behind it", async () => {
    // the pipeline writes the work paper again over the incomplete holdings
    await expect.poll(async () => (await fund(ids.gs)).workPapers[0]?.outcome, { timeout: 60_000, interval: 1000 }).toBe('Incomplete data');
    await openDetails(GS);
    await aud.detailsTab('Run parameters');
    const wp = aud.details.getByRole('table', { name: 'Work papers' }).locator('tbody tr').first();
    expect(await wp.locator('[data-col="outcome"]').innerText()).toBe('Incomplete data');
    // the replaced holdings delivery says what replaced it; only the current holdings standardization is listed
    const inputs = aud.details.getByRole('table', { name: 'Input files' });
    expect(await inputs.locator('tbody tr', { hasText: 'MFS_HOLDINGS_S000013795_20230331.csv' }).locator('[data-col="file"]').innerText()).toContain(
      'Replaced by MFS_HOLDINGS_unknown_instrument.csv',
    );
    const std = aud.details.getByRole('table', { name: 'Standardization files' });
    expect(await std.locator('tbody tr').count()).toBe(4);
    expect(await std.locator('tbody tr', { hasText: 'holdings' }).count()).toBe(1);
    const statuses = await aud.details.locator('[data-testid="fund-files"] [data-col="status"]').allInnerTexts();
    expect(statuses.filter((t) => !['Pending', 'Ready', 'Ready rerun', 'In review', 'Not applicable'].includes(t))).toEqual([]);
    const button = workPaperQa().getByRole('button', { name: /QA validations of .*: Incomplete data, / });
    expect(await button.getAttribute('data-qa')).toBe('fail');
    await button.click();
    const popover = page.getByRole('dialog', { name: 'QA Validations' });
    const incomplete = popover.getByRole('region', { name: 'Incomplete data' });
    await incomplete.waitFor();
    expect(await incomplete.locator('li').allInnerTexts()).toEqual(['MFS_HOLDINGS_unknown_instrument.csv (holdings): 1 unmapped code, 0 row errors']);
    await page.locator('.p-overlaypanel-enter-done').waitFor();
    await page.screenshot({ path: screenshotPath('auditor-qa-incomplete.png') });
    await page.keyboard.press('Escape');
    await closeDetails();
  });

  it('lists the children of a parent fund and opens a child from the Children tab', async () => {
    await api('POST', '/fund', { id: ids.ast, fund: { parentId: ids.gs } });
    await page.reload();
    await aud.fundNames();
    await openDetails(GS);
    await aud.detailsTab('Children (1)');
    const link = aud.details.getByRole('button', { name: `S000030880 - ${AST}` });
    await link.click();
    await aud.dialog(`Fund details - ${AST}`).waitFor();
    expect(await aud.details.locator('[data-field="fund_code"]').innerText()).toBe('S000030880');
    // a fund with no children has no Children tab
    expect(await aud.details.getByRole('tab', { name: /Children/ }).count()).toBe(0);
    await closeDetails();
  });

  it("answers a duplicate with 'Duplicate Fund' and opens the other fund from its link", async () => {
    // a second Keystone request for the Kentucky series, one day before the real period end
    const kentucky = Object.entries(ids).find(([k]) => k === `${KENTUCKY}|keystone_admin`)?.[1];
    expect(kentucky).toBeDefined();
    const original = await fund(kentucky!);
    const copy = await api<{ id: number }>('POST', '/fund', {
      fund: {
        name: `${KENTUCKY} (stub period)`,
        client: original.client,
        administrator: 'keystone_admin',
        fund_codes: [{ code: 'S000012000', main: true }],
        period_end: '2022-12-30',
        period_start: original.period_start,
        currency: original.currency,
        request_date: original.request_date,
        country: original.country,
        due_date: original.due_date,
        audit_start_date: original.audit_start_date,
        nav_close_date: original.nav_close_date,
        PM: 1,
        TE: 0.75,
        SAD: 0.05,
      },
    });
    await page.reload();
    await aud.fundNames();
    await openDetails(`${KENTUCKY} (stub period)`);
    await aud.detailsTab('Fund info');
    // dates are typed as DD/MM/YYYY in the auditor views
    await aud.details.locator('#fa-fd-period_end').fill('31/12/2022');
    await aud.details.getByRole('button', { name: 'Save changes' }).click();
    const errors = aud.details.getByTestId('validation-errors');
    await errors.waitFor();
    expect(await errors.innerText()).toContain('You have validation errors');
    expect(await errors.innerText()).toContain('Duplicate Fund: ');
    const link = errors.getByRole('button', { name: `Open fund ${kentucky}` });
    await aud.dismissToasts();
    await page.screenshot({ path: screenshotPath('auditor-duplicate-fund.png') });
    await link.click();
    await aud.dialog('You have made changes').getByRole('button', { name: 'Discard changes' }).click();
    await aud.dialog(`Fund details - ${KENTUCKY}`).waitFor();
    expect(await aud.details.locator('#fa-fd-period_end').inputValue()).toBe('31/12/2022');
    expect(copy.id).not.toBe(kentucky);
    await closeDetails();
    expect(pageErrors).toEqual([]);
  });
});
