/**
 * Delivery Dashboard on the demo data (four real fund requests): listing, columns, search, sort by
 * header clicks, column filter, saved filters (save, apply, delete, a failing save, the save control
 * hidden at 7 filters), status
 * actions with the enabling rules and the '*' warning, delete with confirmation and undo, keyboard
 * selection, xlsx export, the failed-listing state, preferences (filter, sort, column order and
 * shown columns) kept across a reload, and double-click to the fund details.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshotPath } from './browser';
import { type ServerHandle } from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { ShellPage } from './pages/shell-page';
import { openSignedIn } from './support/signed-in';

const REAL_FUNDS = [
  'AST Bond Portfolio 2022',
  'Goldman Sachs Bond Fund',
  'Kentucky Tax-Free Short-to-Medium Series',
  'Kentucky Tax-Free Short-to-Medium Series',
];
const WARNING = 'Warning! Funds marked with * cannot move into the state you have selected. Reselect separately and retry.';

describe('delivery dashboard', () => {
  let server: ServerHandle;
  let browser: Browser;
  let page: Page;
  let dash: DashboardPage;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ server, browser, page } = await openSignedIn({ pageErrors }));
    dash = new DashboardPage(page);
  });

  /** Leaves the Dashboard for Import files and comes back (through the sider, no page load). */
  const reopenDashboard = async () => {
    const shell = new ShellPage(page);
    await shell.sider.getByRole('link', { name: 'Import files' }).click();
    await page.locator('.fa-import-grid').waitFor();
    await shell.sider.getByRole('link', { name: 'Dashboard' }).click();
    await dash.title.waitFor();
  };

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the four real fund requests with the spec columns and formats', async () => {
    await expect.poll(() => dash.title.innerText()).toBe('All');
    expect((await dash.fundNames()).sort()).toEqual([...REAL_FUNDS].sort());
    const headers = await dash.headers();
    expect(headers.slice(0, 15)).toEqual([
      'Administrator',
      'Country',
      'Request date',
      'Period end',
      'Status',
      'Error flag',
      'Process status',
      'Data status',
      'Work papers',
      'Data Requested Status',
      'Self Onboarded',
      'Client',
      'Fund Name',
      'Fund Code',
      'Alternate Codes',
    ]);
    // hidden by default; no aggregation columns without config.aggregation
    for (const h of ['Accounting standard', 'PM', 'TE', 'SAD', 'Notes', 'Price type 1', 'Is Parent', 'Parent']) expect(headers).not.toContain(h);
    expect(headers).toEqual(expect.arrayContaining(['Currency', 'Engagement Code', 'Group', 'Connected Audit', 'Data Due', 'Rerun by role']));
    expect(await dash.cell('Goldman Sachs Bond Fund', 'period_end')).toBe('31/03/2023');
    expect(await dash.cell('Goldman Sachs Bond Fund', 'selfOnboarded')).toBe('No');
    expect(await dash.status('Goldman Sachs Bond Fund')).toBe('Pending');
    expect(await dash.tags.innerText()).toMatch(/Reset[\s\S]*Pending[\s\S]*Open[\s\S]*Deleted/);
    await page.screenshot({ path: screenshotPath('delivery-dashboard.png') });
  });

  it('shows hidden columns through the column chooser', async () => {
    await page.locator('.fa-column-chooser').click();
    await page.locator('.p-multiselect-panel li', { hasText: /^PM$/ }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.p-multiselect-panel').count()).toBe(0);
    await expect.poll(() => dash.headers()).toContain('PM');
    expect(await dash.cell('Goldman Sachs Bond Fund', 'PM')).toBe('1%');
  });

  it('narrows the list with the global search', async () => {
    await dash.searchBox.fill('Goldman');
    await expect.poll(() => dash.fundNames()).toEqual(['Goldman Sachs Bond Fund']);
    await dash.searchBox.fill('no such fund at all');
    await dash.grid.getByText('No data available').waitFor();
    await dash.searchBox.fill('');
    await expect.poll(async () => (await dash.fundNames()).length).toBe(4);
  });

  it('sorts by a header click: descending, ascending, then none', async () => {
    await dash.sortBy('Fund Name');
    expect(await dash.ariaSort('name')).toBe('descending');
    await expect.poll(() => dash.fundNames()).toEqual([...REAL_FUNDS].sort().reverse());
    await dash.sortBy('Fund Name');
    expect(await dash.ariaSort('name')).toBe('ascending');
    await expect.poll(() => dash.fundNames()).toEqual([...REAL_FUNDS].sort());
    await dash.sortBy('Fund Name');
    expect(await dash.ariaSort('name')).toBe('none');
    // meta-click adds a second sort column
    await dash.sortBy('Fund Name');
    await dash.sortBy('Administrator', true);
    expect(await dash.ariaSort('name')).toBe('descending');
    expect(await dash.ariaSort('administrator')).toBe('descending');
    // a plain click sorts by that column alone again
    await dash.sortBy('Fund Name');
    expect(await dash.ariaSort('name')).toBe('ascending');
    expect(await dash.ariaSort('administrator')).toBe('none');
    await dash.sortBy('Fund Name');
    expect(await dash.ariaSort('name')).toBe('none');
  });

  it('opens and closes a column filter with the keyboard', async () => {
    const button = dash.grid.getByRole('button', { name: 'Filter Status', exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    const form = page.locator('form.fa-col-filter');
    await form.waitFor();
    // focus moves into the filter: the first status value
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.id)).toBe('fa-filter-status-Pending');
    await page.keyboard.press('Space');
    await page.keyboard.press('Escape');
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
    // nothing was applied
    expect(await button.getAttribute('aria-pressed')).toBeNull();
  });

  it('filters a column, saves the filter as a tag, applies and deletes it', async () => {
    const form = await dash.openFilter('Administrator');
    await form.getByLabel('Meridian Fund Services').check();
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => dash.fundNames()).toEqual(['Goldman Sachs Bond Fund']);

    // a name is required
    await page.getByRole('button', { name: 'Save active filter' }).click();
    await page.getByText('A filter name is required').waitFor();

    await page.getByLabel('Filter name').fill('Meridian funds');
    await page.getByRole('button', { name: 'Save active filter' }).click();
    await dash.toast('filter saved').waitFor();
    await dash.tag('Meridian funds').waitFor();
    await expect.poll(() => dash.title.innerText()).toBe('Meridian funds');

    await dash.tag('Reset').click();
    await expect.poll(() => dash.title.innerText()).toBe('All');
    await expect.poll(async () => (await dash.fundNames()).length).toBe(4);
    await dash.tag('Meridian funds').click();
    await expect.poll(() => dash.fundNames()).toEqual(['Goldman Sachs Bond Fund']);
    await page.screenshot({ path: screenshotPath('delivery-dashboard-filter.png') });

    await dash.tags.getByRole('button', { name: 'Delete filter Meridian funds' }).click();
    await dash.toast('filter deleted').waitFor();
    await expect.poll(() => dash.tag('Meridian funds').count()).toBe(0);
    await expect.poll(() => dash.title.innerText()).toBe('All');
    // fixed filters have no delete cross
    expect(await dash.tags.getByRole('button', { name: /^Delete filter/ }).count()).toBe(0);
  });

  it('removes the optimistic tag and says so when saving a filter fails', async () => {
    await page.route('**/api/v2.0/filter', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, payload: null, errors: ['At most 7 filters can be saved'], message: 'At most 7 filters can be saved' }),
      }),
    );
    await page.getByLabel('Filter name').fill('Doomed');
    await page.getByRole('button', { name: 'Save active filter' }).click();
    await dash.toast('Save filter failed').waitFor();
    expect(await dash.toast('Save filter failed').innerText()).toContain('At most 7 filters can be saved');
    await expect.poll(() => dash.tag('Doomed').count()).toBe(0);
    await page.unroute('**/api/v2.0/filter');
  });

  it('hides the save control from 7 filters on', async () => {
    const call = (path: string, body: unknown) =>
      page.evaluate(
        async ({ path, body }) => {
          const res = await fetch(`/api/v2.0${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-access-token': sessionStorage.getItem('fa.token') ?? '' },
            body: JSON.stringify(body),
          });
          return ((await res.json()) as { payload: { id: number } }).payload;
        },
        { path, body },
      );
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4]) ids.push((await call('/filter', { title: `Extra ${n}`, filter: [] })).id);
    // the tags are read when the Dashboard opens
    await reopenDashboard();
    await dash.tag('Extra 4').waitFor();
    expect(await page.getByRole('button', { name: 'Save active filter' }).count()).toBe(0);
    for (const id of ids) await call('/filter/delete', { id });
    await reopenDashboard();
    await page.getByRole('button', { name: 'Save active filter' }).waitFor();
    expect(await dash.tag('Extra 1').count()).toBe(0);
  });

  it('opens a pending fund and keeps Decline for pending funds only', async () => {
    await dash.select('Goldman Sachs Bond Fund');
    let menu = await dash.openMenu('Fund actions');
    expect(await dash.menuItemDisabled(menu, 'Decline')).toBe(false);
    expect(await dash.menuItemDisabled(menu, 'Close')).toBe(true);
    await menu.getByRole('menuitem', { name: 'Open', exact: true }).click();
    await expect.poll(() => dash.status('Goldman Sachs Bond Fund')).toBe('Open');

    // the Open fund stays selected: Decline is disabled, Close enabled, Rerun enabled
    menu = await dash.openMenu('Fund actions');
    expect(await dash.menuItemDisabled(menu, 'Decline')).toBe(true);
    expect(await dash.menuItemDisabled(menu, 'Open')).toBe(true);
    expect(await dash.menuItemDisabled(menu, 'Close')).toBe(false);
    await page.keyboard.press('Escape');
    const wp = await dash.openMenu('Work paper actions');
    expect(await dash.menuItemDisabled(wp, 'Rerun')).toBe(false);
    await page.keyboard.press('Escape');
  });

  it('marks with * the funds a bulk Close cannot move and warns', async () => {
    await dash.select('AST Bond Portfolio 2022');
    expect(await dash.grid.locator('tbody tr[aria-selected="true"]').count()).toBe(2);
    const menu = await dash.openMenu('Fund actions');
    await menu.getByRole('menuitem', { name: 'Close', exact: true }).click();
    await dash.toast(WARNING).waitFor();
    await expect.poll(() => dash.status('Goldman Sachs Bond Fund')).toBe('Closed');
    await expect.poll(() => dash.status('AST Bond Portfolio 2022')).toBe('Pending*');
    await page.screenshot({ path: screenshotPath('delivery-dashboard-warning.png') });
    await dash.clearSelection();
  });

  it('selects rows with the keyboard and sets a data-requested status', async () => {
    expect(await dash.grid.locator('tbody tr[aria-selected="true"]').count()).toBe(0);
    // Tab reaches the row checkboxes; Space ticks
    await dash.rowCheckbox('AST Bond Portfolio 2022').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => dash.row('AST Bond Portfolio 2022').getAttribute('aria-selected')).toBe('true');
    const data = await dash.openMenu('Data actions');
    // every selected fund is 'Not requested': that button is disabled
    expect(await dash.menuItemDisabled(data, 'Not requested')).toBe(true);
    await data.getByRole('menuitem', { name: 'Requested', exact: true }).click();
    await expect.poll(() => dash.cell('AST Bond Portfolio 2022', 'dataRequestStatus')).toBe('Requested');
    const again = await dash.openMenu('Data actions');
    expect(await dash.menuItemDisabled(again, 'Requested')).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('deletes after confirmation and undoes the delete from the Deleted filter', async () => {
    // AST is still selected
    await dash.toolbar.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete fund requests' }));
    await dialog.getByText('This will permanently remove this fund request, are you REALLY sure?').waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(async () => (await dash.fundNames()).length).toBe(3);

    await dash.tag('Deleted').click();
    await expect.poll(() => dash.fundNames()).toEqual(['AST Bond Portfolio 2022']);
    expect(await dash.status('AST Bond Portfolio 2022')).toBe('Deleted');
    await dash.select('AST Bond Portfolio 2022');
    expect(await dash.toolbar.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await dash.toolbar.getByRole('button', { name: 'Undo delete' }).click();
    await dash.grid.getByText('No data available').waitFor();
    await dash.tag('Reset').click();
    await expect.poll(async () => (await dash.fundNames()).length).toBe(4);
    expect(await dash.status('AST Bond Portfolio 2022')).toMatch(/^Pending/);
  });

  it('exports the listing to fundrequests.xlsx', async () => {
    const download = page.waitForEvent('download');
    await dash.toolbar.getByRole('button', { name: 'Export' }).click();
    expect((await download).suggestedFilename()).toBe('fundrequests.xlsx');
  });

  it('keeps the filter and sort across a reload', async () => {
    await dash.tag('Pending').click();
    await expect.poll(async () => (await dash.fundNames()).length).toBe(3);
    await dash.sortBy('Fund Name');
    await dash.sortBy('Fund Name');
    await expect
      .poll(() => dash.fundNames())
      .toEqual(['AST Bond Portfolio 2022', 'Kentucky Tax-Free Short-to-Medium Series', 'Kentucky Tax-Free Short-to-Medium Series']);
    // drag the Country header before Administrator
    await dash.grid
      .locator('thead th[data-col="country"]')
      .dragTo(dash.grid.locator('thead th[data-col="administrator"]'), { targetPosition: { x: 5, y: 10 } });
    await expect.poll(async () => (await dash.headers()).slice(0, 2)).toEqual(['Country', 'Administrator']);
    await page.reload();
    await expect.poll(() => dash.title.innerText(), { timeout: 10_000 }).toBe('Pending');
    expect((await dash.headers()).slice(0, 2)).toEqual(['Country', 'Administrator']);
    expect(await dash.ariaSort('name')).toBe('ascending');
    await expect
      .poll(() => dash.fundNames())
      .toEqual(['AST Bond Portfolio 2022', 'Kentucky Tax-Free Short-to-Medium Series', 'Kentucky Tax-Free Short-to-Medium Series']);
    // the column chosen earlier is still shown; the preferences are kept per user
    expect(await dash.headers()).toContain('PM');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('fa.listing.1') ?? '{}') as { sorting?: unknown; activeFilterId?: number });
    expect(stored.sorting).toEqual([{ field: 'name', order: 'asc' }]);
    expect(stored.activeFilterId).toBe(1);
  });

  it('shows a failed listing with a retry', async () => {
    await page.route('**/api/v2.0/funds/listing', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, payload: null, errors: ['An error occurred'] }) }),
    );
    await dash.tag('Reset').click();
    const error = page.getByRole('alert').filter({ hasText: 'The list could not be loaded' });
    await error.waitFor();
    await page.unroute('**/api/v2.0/funds/listing');
    await error.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(async () => (await dash.fundNames()).length).toBe(4);
  });

  it('opens the fund details on double-click', async () => {
    const id = await page.evaluate(async () => {
      const res = await fetch('/api/v2.0/funds/listing', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': sessionStorage.getItem('fa.token') ?? '' },
        body: JSON.stringify({ search: 'AST Bond' }),
      });
      return ((await res.json()) as { payload: { rows: Array<{ id: number }> } }).payload.rows[0].id;
    });
    await dash.row('AST Bond Portfolio 2022').dblclick();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/fund/${id}`);
    expect(pageErrors).toEqual([]);
  });
});
