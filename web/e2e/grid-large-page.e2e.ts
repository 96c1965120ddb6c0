/**
 * The fund grids with a page of 200 rows over 454 fund requests (the demo's four and 450
 * generated): the Dashboard and the auditor Funds Listing put only the rows in view in the page,
 * show every row of the page when scrolled (in the server's order), keep Tab through the row
 * checkboxes and Space selection working past the rows first in view, keep the selection column in view when
 * scrolled sideways, and tick a row by keyboard in the auditor listing.
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

const FUNDS = 454;
type Row = { fundCode: string; name: string };

describe('fund grids with a page of 200 rows', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let dash: DashboardPage;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    seedFunds(server, FUNDS - 4);
    browser = await launchBrowser();
    page = await (await newContext(browser)).newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    dash = new DashboardPage(page);
    await new SignInPage(page).signIn(server.signInLink);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Chooses 200 rows a page in a grid's paginator. */
  const pageOf200 = async (grid: Locator) => {
    await grid.locator('.p-paginator .p-dropdown').click();
    await page.getByRole('option', { name: '200', exact: true }).click();
  };
  /** Scrolls a grid's rows to the top or the bottom, and sideways to the right end with `right`. */
  const scrollGrid = (grid: Locator, to: 'top' | 'bottom', right = false) =>
    grid.locator('.p-virtualscroller').evaluate(
      (el, { to, right }) => {
        el.scrollTop = to === 'top' ? 0 : el.scrollHeight;
        if (right) el.scrollLeft = el.scrollWidth;
        el.dispatchEvent(new Event('scroll'));
      },
      { to, right },
    );

  /** Whether `row` is wholly inside the visible part of its grid's scroller. */
  const wholeInView = async (grid: Locator, row: Locator) => {
    const view = await grid.locator('.p-virtualscroller').boundingBox();
    const box = await row.boundingBox();
    return !!view && !!box && box.y >= view.y - 1 && box.y + box.height <= view.y + view.height + 1;
  };

  it('renders the rows in view of a 200-row page and shows its last row when scrolled to the end', async () => {
    await dash.settled();
    await pageOf200(dash.grid);
    await expect.poll(() => dash.grid.locator('.p-paginator-current').innerText()).toBe(`1 - 200 of ${FUNDS}`);
    await dash.settled();
    const { rows } = await pageApi(page).post<{ rows: Row[] }>('/funds/listing', {
      filters: [],
      sorting: [],
      search: null,
      offset: 0,
      pagination: { limit: 200 },
    });
    expect(rows).toHaveLength(200);
    const inPage = await dash.rows.count();
    expect(inPage).toBeGreaterThan(10);
    expect(inPage).toBeLessThan(60);
    const shown = await dash.rows.allInnerTexts();
    shown.forEach((text, i) => expect(text).toContain(rows[i].fundCode));

    await scrollGrid(dash.grid, 'bottom');
    await expect.poll(async () => (await dash.rows.allInnerTexts()).at(-1)).toContain(rows[199].fundCode);
    expect(await wholeInView(dash.grid, dash.row(rows[199].fundCode))).toBe(true);
    await page.screenshot({ path: screenshotPath('delivery-dashboard-200-rows-end.png') });
    await scrollGrid(dash.grid, 'top');
    await expect.poll(async () => (await dash.rows.allInnerTexts())[0]).toContain(rows[0].fundCode);
  });

  it('moves through the row checkboxes with Tab past the rows first in view and ticks with Space', async () => {
    const { rows } = await pageApi(page).post<{ rows: Row[] }>('/funds/listing', {
      filters: [],
      sorting: [],
      search: null,
      offset: 0,
      pagination: { limit: 200 },
    });
    // the 61st row is not in the page at first
    expect(await dash.rows.count()).toBeLessThan(61);
    const focusedRow = () => page.evaluate(() => document.activeElement?.closest('tbody tr')?.textContent ?? '');
    /** Presses `key` until the focus is in the row of `code` (at most `limit` times); whether it got there. */
    const tabTo = async (code: string, key: string, limit: number) => {
      for (let i = 0; i < limit && !(await focusedRow()).includes(code); i++) {
        await page.keyboard.press(key);
        // as a person does: the next key once the page has painted the rows the focus scrolled into view
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      }
      return (await focusedRow()).includes(code);
    };
    await dash.rowCheckbox(rows[0].fundCode).focus();
    expect(await tabTo(rows[60].fundCode, 'Tab', 120)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => dash.row(rows[60].fundCode).getAttribute('aria-selected')).toBe('true');
    expect(await dash.grid.locator('tbody tr[aria-selected="true"]').count()).toBe(1);
    await page.screenshot({ path: screenshotPath('delivery-dashboard-keyboard-row-61.png') });
    // back up with Shift+Tab, down again, and Space on the 61st clears it
    expect(await tabTo(rows[30].fundCode, 'Shift+Tab', 60)).toBe(true);
    expect(await tabTo(rows[60].fundCode, 'Tab', 60)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => dash.row(rows[60].fundCode).getAttribute('aria-selected')).toBe('false');
  });

  it('keeps the selection column in view when scrolled sideways', async () => {
    await scrollGrid(dash.grid, 'top', true);
    await expect.poll(() => dash.grid.locator('.p-virtualscroller').evaluate((el) => el.scrollLeft)).toBeGreaterThan(200);
    const scroller = await dash.grid.locator('.p-virtualscroller').boundingBox();
    const box = await dash.rows.first().locator('td').first().boundingBox();
    expect(Math.abs((box?.x ?? -100) - (scroller?.x ?? 0))).toBeLessThan(2);
    // the checkbox is not covered by the cells scrolled under it
    await dash.rows.first().locator('td').first().locator('.p-checkbox').click();
    await expect.poll(() => dash.rows.first().getAttribute('aria-selected')).toBe('true');
    await page.screenshot({ path: screenshotPath('delivery-dashboard-scrolled-sideways.png') });
    await dash.rows.first().locator('td').first().locator('.p-checkbox').click();
    await scrollGrid(dash.grid, 'top');
  });

  it('auditor Funds Listing: renders the rows in view, shows the last one when scrolled, ticks a row by keyboard', async () => {
    const aud = new AuditorPage(page);
    await new ShellPage(page).sider.getByRole('button', { name: 'Switch to auditor' }).click();
    await page.locator('[data-frame="auditor"]').waitFor();
    await aud.nav('Data Platform');
    await aud.dataTab('Funds Listing');
    await aud.fundNames();
    await pageOf200(aud.listing);
    const { rows } = await pageApi(page).get<{ rows: Row[] }>('/user/funds/0/200');
    const names = aud.listing.locator('tbody [data-col="name"]');
    await expect.poll(async () => (await names.allInnerTexts())[0]?.trim()).toBe(rows[0].name);
    await page.waitForFunction(() => !document.querySelector('[data-testid="funds-listing"] .p-datatable-loading-overlay'));
    expect(await names.count()).toBeLessThan(60);

    await scrollGrid(aud.listing, 'bottom');
    await expect.poll(async () => (await names.allInnerTexts()).at(-1)?.trim()).toBe(rows[199].name);
    expect(await wholeInView(aud.listing, aud.listing.locator('tbody tr').filter({ hasText: rows[199].name }))).toBe(true);
    await page.screenshot({ path: screenshotPath('auditor-listing-200-rows-end.png') });
    await scrollGrid(aud.listing, 'top');
    await expect.poll(async () => (await names.allInnerTexts())[0]?.trim()).toBe(rows[0].name);

    const second = aud.listing.locator('tbody tr').nth(1);
    await second.locator('input[type="checkbox"]').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => second.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => aud.listing.getByText('1 selected').count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
