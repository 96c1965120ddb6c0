/**
 * Delivery Fund details follows what happens to the fund without a reload, and shows its files
 * the way the spec names them: Rerun workpapers on an open fund brings the rerun's processes, the
 * replaced work paper and the reviewed files' 'Ready rerun' status onto the page as they happen; a
 * newer holdings delivery lists the replaced one with 'Replaced by' and only the current holdings
 * standardization; every file status is one of the spec's; every date reads DD/MM/YYYY (with
 * HH:mm:ss for a timestamp), and the Dashboard's date filter takes DD/MM/YYYY in a Calendar.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from './browser';
import type { ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { FundDetailsPage } from './pages/fund-details-page';
import { pageApi } from './page-api';
import { openSignedIn } from './support/signed-in';
import { GS, INPUTS, MFS } from './support/meridian-delivery';

/** The spec's file statuses (auditor spec section 4 "File status"). */
const FILE_STATUSES = ['Pending', 'Ready', 'Ready rerun', 'In review', 'Not applicable'];
const TIMESTAMP = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;

describe('delivery fund details, live and to the spec', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let fd: FundDetailsPage;
  let http: ReturnType<typeof pageApi>;
  let gs = 0;
  const pageErrors: string[] = [];

  const processRows = () => fd.table('Processes').locator('tbody tr');

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    await page.setViewportSize({ width: 1440, height: 900 });
    fd = new FundDetailsPage(page);
    http = pageApi(page);
    gs = (await http.fundIds())[`${GS}|meridian_fund_services`]!;
    await http.importFiles('meridian_fund_services', join(MFS, 'inputs'), INPUTS);
    await http.waitForWorkPaper(gs);
    await http.call('POST', '/fund/approve', { ids: [gs], requestedBy: 'e2e' });
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows every file date as DD/MM/YYYY HH:mm:ss and every file status as the spec names it', async () => {
    await page.goto(`${server.url}/fund/${gs}`);
    await expect.poll(() => fd.heading.innerText()).toBe(GS);
    expect(await fd.status.innerText()).toBe('Open');
    const dates = await page.locator('[data-testid="fund-files"] tbody tr td:nth-child(2)').allInnerTexts();
    expect(dates.length).toBeGreaterThanOrEqual(10);
    expect(dates.filter((d) => !TIMESTAMP.test(d))).toEqual([]);
    for (const grid of ['Input files', 'Standardization files', 'Calculation files'] as const) {
      const statuses = await fd.files(grid).locator('[data-col="status"]').allInnerTexts();
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => !FILE_STATUSES.includes(s))).toEqual([]);
    }
  });

  it('follows a rerun without a reload: its processes, the replaced work paper and the Ready rerun status', async () => {
    const input = INPUTS[0]!;
    await fd
      .files('Input files')
      .getByRole('button', { name: `Review ${input}`, exact: true })
      .click();
    await expect.poll(() => fd.fileStatus('Input files', input)).toBe('Ready');
    await fd.tab('Processes');
    await expect.poll(() => processRows().count()).toBeGreaterThan(0);
    const before = await processRows().count();
    expect((await processRows().locator('td:nth-child(3)').allInnerTexts()).filter((d) => !TIMESTAMP.test(d))).toEqual([]);
    const navigations: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations.push(f.url()));

    await fd.button('Rerun workpapers').click();
    await fd.toast('Rerun queued').waitFor();
    // the rerun's processes appear and finish on the open tab
    await expect.poll(() => processRows().count(), { timeout: 30_000 }).toBeGreaterThan(before);
    await expect
      .poll(
        async () =>
          (
            await processRows()
              .locator('[data-status]')
              .evaluateAll((tags) => tags.map((t) => t.getAttribute('data-status')))
          ).sort(),
        {
          timeout: 90_000,
          interval: 1000,
        },
      )
      .not.toContain('pending');
    await expect.poll(async () => (await processRows().locator('[data-status="running"]').count()) === 0, { timeout: 90_000 }).toBe(true);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-live-processes.png'), fullPage: true });

    // the Files tab shows the rerun's outcome: the replaced work paper, and the reviewed file is Ready rerun
    await fd.tab('Files');
    await page.getByTestId('previous-work-paper').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => fd.fileStatus('Input files', input), { timeout: 30_000 }).toBe('Ready rerun');
    expect(navigations).toEqual([]);
    await page.screenshot({ path: screenshotPath('delivery-fund-details-live-files.png'), fullPage: true });
  });

  it("lists a replaced delivery with 'Replaced by' and only the current holdings standardization", async () => {
    const stdRows = fd.files('Standardization files').locator('tbody tr');
    expect(await stdRows.count()).toBe(4);
    const replaced = 'MFS_HOLDINGS_S000013795_20230331.csv';
    const newer = 'MFS_HOLDINGS_unknown_instrument.csv';
    await http.importFiles('meridian_fund_services', join(MFS, 'broken'), [newer]);
    // the page follows the new delivery live
    await expect.poll(() => fd.files('Input files').locator('tbody tr').count(), { timeout: 60_000 }).toBe(5);
    // its standardization replaces the old one: the unknown instrument makes the holdings Invalid
    const holdings = fd.files('Standardization files').locator('tbody tr', { hasText: 'holdings' });
    await expect.poll(() => holdings.locator('[data-col="validation"]').allInnerTexts(), { timeout: 90_000, interval: 1000 }).toEqual(['Invalid']);
    expect(await fd.files('Input files').locator(`tr[data-file="${replaced}"]`).getByTestId('replaced-by').innerText()).toBe(`Replaced by ${newer}`);
    expect(await stdRows.count()).toBe(4);
    const standardized = await stdRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-file') ?? ''));
    expect(standardized.filter((f) => /HOLDINGS/i.test(f))).toHaveLength(1);
    for (const grid of ['Input files', 'Standardization files'] as const) {
      const statuses = await fd.files(grid).locator('[data-col="status"]').allInnerTexts();
      expect(statuses.filter((s) => !FILE_STATUSES.includes(s))).toEqual([]);
    }
    await page.screenshot({ path: screenshotPath('delivery-fund-details-replaced.png'), fullPage: true });
  }, 180_000);

  it('filters the Dashboard by a date typed as DD/MM/YYYY in a Calendar', async () => {
    await page.goto(`${server.url}/`);
    const dash = new DashboardPage(page);
    await expect.poll(async () => (await dash.fundNames()).includes(GS)).toBe(true);
    const form = await dash.openFilter('Period end');
    const from = form.locator('#fa-filter-period_end-from');
    expect(await from.getAttribute('placeholder')).toBe('DD/MM/YYYY');
    await from.pressSequentially('31/03/2023');
    await form.locator('#fa-filter-period_end-to').pressSequentially('31/03/2023');
    expect(await from.inputValue()).toBe('31/03/2023');
    expect(await form.locator('#fa-filter-period_end-to').inputValue()).toBe('31/03/2023');
    // the picker opens from its button, on the typed month
    await form.getByRole('button', { name: 'Choose Date' }).first().click();
    await expect.poll(() => form.locator('.p-datepicker-title').first().innerText()).toMatch(/March\s*2023/);
    await page.screenshot({ path: screenshotPath('delivery-dashboard-date-filter.png') });
    // a click beside the picker closes it, the filter stays open
    await form.locator('.fa-col-filter-title').click();
    await form.locator('.p-datepicker').first().waitFor({ state: 'hidden' });
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => dash.fundNames()).toContain(GS);
    const i = await dash.columnIndex('period_end');
    const periods = await dash.rows.evaluateAll((trs, n) => trs.map((tr) => (tr.children[n] as HTMLElement).innerText.trim()), i);
    expect(periods.length).toBeGreaterThan(0);
    expect(periods.filter((p) => p !== '31/03/2023')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
