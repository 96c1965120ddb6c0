/**
 * The fund grids over more fund requests than a page counts (10,054: the demo's four and 10,050
 * generated): the Dashboard and the auditor Funds Listing read "10,000+" with a Count all button
 * that shows the exact count, step to the next and previous pages by cursor (the rows the API
 * gives for those offsets), jump to a page by its number, and go to the real last page past the cap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshotPath } from './browser';
import { startServer, type ServerHandle } from './harness';
import { pageApi } from './page-api';
import { AuditorPage } from './pages/auditor-page';
import { DashboardPage } from './pages/dashboard-page';
import { ShellPage } from './pages/shell-page';
import { SignInPage } from './pages/sign-in-page';
import { seedFunds } from './seed-funds';

const FUNDS = 10_054;
type Row = { name: string };
type Listing = { rows: Row[]; pagination: { count: number; countCapped: boolean } };

describe('fund grids past the counted 10,000', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let dash: DashboardPage;
  const pageErrors: string[] = [];
  /** the cursors the grids sent, in order (null: a page asked for by its offset) */
  const cursors: Array<string | null> = [];

  beforeAll(async () => {
    server = await startServer();
    seedFunds(server, FUNDS - 4);
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() === 'POST' && url.pathname.endsWith('/funds/listing')) cursors.push((r.postDataJSON() as { cursor?: string }).cursor ?? null);
      if (r.method() === 'GET' && /\/user\/funds\/\d+\/\d+$/.test(url.pathname)) cursors.push(url.searchParams.get('cursor'));
    });
    dash = new DashboardPage(page);
    await new SignInPage(page).signIn(server.signInLink);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const report = (grid: Locator) => grid.locator('[data-testid="page-report"]');
  const pagerButton = (grid: Locator, name: string) => grid.locator('.p-paginator').getByRole('button', { name, exact: true });
  const names = async (grid: Locator) => (await grid.locator('tbody [data-col="name"]').allInnerTexts()).map((t) => t.trim());
  const dashboardPage = (offset: number) =>
    pageApi(page).post<Listing>('/funds/listing', { filters: [], sorting: [], search: null, offset, pagination: { limit: 100 } });
  /** Whether the rows in view (the grids render only those) are the first of `expected`, in order. */
  const startsWith = (shown: string[], expected: Row[]) => shown.length > 10 && shown.every((n, i) => n === expected[i]?.name);
  /** Waits for the page report to read `text`, then for the grid to stop loading. */
  const reads = async (grid: Locator, text: string) => {
    await expect.poll(() => report(grid).innerText(), { timeout: 20_000 }).toBe(text);
    await page.waitForFunction(() => !document.querySelector('.p-datatable-loading-overlay'));
  };

  it('Dashboard: shows 10,000+ and pages next and previous by cursor, a page jump by offset', async () => {
    await dash.settled();
    await reads(dash.grid, '1 - 100 of 10,000+');
    await expect.poll(() => page.getByTestId('listing-count').innerText()).toMatch(/^10,000\+ fund requests\s*Count all$/);
    expect(await dash.grid.locator('.p-paginator').getByRole('button', { name: 'Count all' }).isVisible()).toBe(true);
    const first = await dashboardPage(0);
    expect(first.pagination).toMatchObject({ count: 10_000, countCapped: true });
    await page.screenshot({ path: screenshotPath('delivery-dashboard-capped-count.png') });

    cursors.length = 0;
    await pagerButton(dash.grid, 'Next Page').click();
    await reads(dash.grid, '101 - 200 of 10,000+');
    const second = await dashboardPage(100);
    await expect.poll(async () => startsWith(await dash.fundNames(), second.rows)).toBe(true);
    await pagerButton(dash.grid, 'Previous Page').click();
    await reads(dash.grid, '1 - 100 of 10,000+');
    await expect.poll(async () => startsWith(await dash.fundNames(), first.rows)).toBe(true);
    // both steps went by cursor
    expect(cursors.filter((c) => c !== null)).toHaveLength(2);

    cursors.length = 0;
    await pagerButton(dash.grid, 'Page 4').click();
    await reads(dash.grid, '301 - 400 of 10,000+');
    // the grid asked for the jump by its offset (checked before this test's own call below)
    expect(cursors).toEqual([null]);
    const fourth = await dashboardPage(300);
    await expect.poll(async () => startsWith(await dash.fundNames(), fourth.rows)).toBe(true);
  });

  it('Dashboard: Count all shows the exact count, and the last page is the real one', async () => {
    await dash.grid.getByRole('button', { name: 'Count all' }).click();
    await reads(dash.grid, `301 - 400 of ${FUNDS.toLocaleString('en-US')}`);
    await expect.poll(() => page.getByTestId('listing-count').innerText()).toBe('10,054 fund requests');
    await pagerButton(dash.grid, 'Last Page').click();
    await reads(dash.grid, '10,001 - 10,054 of 10,054');
    expect((await dash.fundNames()).length).toBeGreaterThan(10);
    await page.screenshot({ path: screenshotPath('delivery-dashboard-counted-last-page.png') });
  });

  it('Dashboard: past the cap, the last-page button counts and goes to the last page; a search resets the count', async () => {
    const searched = await pageApi(page).post<Listing>('/funds/listing', {
      filters: [],
      sorting: [],
      search: 'Bench Fund 1',
      offset: 0,
      pagination: { limit: 100 },
    });
    expect(searched.pagination.countCapped).toBe(false);
    await dash.searchBox.fill('Bench Fund 1');
    await reads(dash.grid, `1 - 100 of ${searched.pagination.count.toLocaleString('en-US')}`);
    await dash.searchBox.fill('');
    await reads(dash.grid, '1 - 100 of 10,000+');
    await pagerButton(dash.grid, 'Last Page').click();
    await reads(dash.grid, '10,001 - 10,054 of 10,054');
    // from the last page back by cursor
    cursors.length = 0;
    await pagerButton(dash.grid, 'Previous Page').click();
    await reads(dash.grid, '9,901 - 10,000 of 10,054');
    expect(cursors.filter((c) => c !== null)).toHaveLength(1);
    expect(startsWith(await dash.fundNames(), (await dashboardPage(9_900)).rows)).toBe(true);
  });

  it('auditor Funds Listing: 10,000+, next page by cursor, Count all', async () => {
    const aud = new AuditorPage(page);
    await new ShellPage(page).sider.getByRole('button', { name: 'Switch to auditor' }).click();
    await page.locator('[data-frame="auditor"]').waitFor();
    await aud.nav('Data Platform');
    await aud.dataTab('Funds Listing');
    await reads(aud.listing, '1 - 100 of 10,000+');
    await expect.poll(() => aud.listing.getByText('10,000+ fund requests').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('auditor-listing-capped-count.png') });

    cursors.length = 0;
    await pagerButton(aud.listing, 'Next Page').click();
    await reads(aud.listing, '101 - 200 of 10,000+');
    const { rows } = await pageApi(page).get<Listing>('/user/funds/100/100');
    await expect.poll(async () => startsWith(await names(aud.listing), rows)).toBe(true);
    expect(cursors.filter((c) => c !== null)).toHaveLength(1);

    await aud.listing.locator('.p-paginator').getByRole('button', { name: 'Count all' }).click();
    await reads(aud.listing, '101 - 200 of 10,054');
    await pagerButton(aud.listing, 'Last Page').click();
    await reads(aud.listing, '10,001 - 10,054 of 10,054');
    expect((await names(aud.listing)).length).toBeGreaterThan(10);
    await page.screenshot({ path: screenshotPath('auditor-listing-counted-last-page.png') });
    expect(pageErrors).toEqual([]);
  });
});
