/** Page object: the delivery Dashboard (fund request listing). */
import type { Locator, Page } from 'playwright-core';

export class DashboardPage {
  constructor(readonly page: Page) {}

  get title(): Locator {
    return this.page.getByTestId('listing-title');
  }

  get grid(): Locator {
    return this.page.locator('.fa-fund-grid');
  }

  /** Body rows of the grid (the empty-message row excluded). */
  get rows(): Locator {
    return this.grid.locator('tbody.p-datatable-tbody > tr[data-p-selectable-row="true"]');
  }

  /** The first row whose text contains `text`. */
  row(text: string): Locator {
    return this.rows.filter({ hasText: text }).first();
  }

  get searchBox(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search fund requests' });
  }

  get toolbar(): Locator {
    return this.page.getByRole('toolbar', { name: 'Actions on selected funds' });
  }

  get tags(): Locator {
    return this.page.getByRole('list', { name: 'Saved filters' });
  }

  tag(title: string): Locator {
    return this.tags.getByRole('button', { name: title, exact: true });
  }

  /** Waits until the grid is not loading. */
  async settled(): Promise<void> {
    await this.grid.waitFor();
    await this.page.waitForFunction(() => !document.querySelector('.fa-fund-grid .p-datatable-loading-overlay'));
  }

  /** Fund names of the rows, in order (the 'Fund Name' column). */
  async fundNames(): Promise<string[]> {
    await this.settled();
    const index = await this.columnIndex('name');
    return this.rows.evaluateAll((trs, i) => trs.map((tr) => (tr.children[i] as HTMLElement).innerText.trim()), index);
  }

  /** Header labels of the visible columns, in order. */
  async headers(): Promise<string[]> {
    return this.grid
      .locator('thead th[data-col]')
      .evaluateAll((ths) => ths.map((th) => (th.querySelector('.fa-grid-sort span, .fa-grid-label') as HTMLElement | null)?.innerText.trim() ?? ''));
  }

  /** Position (among the row's cells) of a column by key. */
  async columnIndex(key: string): Promise<number> {
    return this.grid
      .locator('thead tr')
      .first()
      .evaluate((tr, k) => [...tr.children].findIndex((th) => th.getAttribute('data-col') === k), key);
  }

  /** The text of a column's cell in the first row containing `rowText`. */
  async cell(rowText: string, key: string): Promise<string> {
    const i = await this.columnIndex(key);
    return this.row(rowText)
      .locator(`td:nth-child(${i + 1})`)
      .innerText();
  }

  /** The status cell text ('Open', 'Pending*', ...). */
  async status(rowText: string): Promise<string> {
    return (await this.row(rowText).locator('.fa-status').innerText()).replace(/\s+/g, '');
  }

  /** The selection checkbox (input) of a row. */
  rowCheckbox(rowText: string): Locator {
    return this.row(rowText).locator('td').first().locator('input[type="checkbox"]');
  }

  /** Ticks a row's checkbox. */
  async select(rowText: string): Promise<void> {
    await this.row(rowText).locator('td').first().locator('.p-checkbox').click();
  }

  /** Unticks every row through the header checkbox (ticking all first when needed). */
  async clearSelection(): Promise<void> {
    const header = this.grid.locator('thead .p-checkbox').first();
    if ((await this.grid.locator('tbody tr[aria-selected="true"]').count()) === 0) return;
    if (!(await header.locator('input').isChecked())) await header.click();
    await header.click();
  }

  /** Clicks a column's sort button (with the meta key for a multi-sort). */
  async sortBy(label: string, multi = false): Promise<void> {
    await this.grid
      .locator('thead button.fa-grid-sort', { hasText: label })
      .first()
      .click({ modifiers: multi ? ['ControlOrMeta'] : [] });
  }

  /** `aria-sort` of a column by key. */
  ariaSort(key: string): Promise<string | null> {
    return this.grid.locator(`thead th[data-col="${key}"]`).getAttribute('aria-sort');
  }

  /** Opens a column's filter overlay. */
  async openFilter(label: string): Promise<Locator> {
    await this.grid.getByRole('button', { name: `Filter ${label}`, exact: true }).click();
    const form = this.page.locator('form.fa-col-filter');
    await form.waitFor();
    return form;
  }

  /** Opens an action menu of the toolbar and returns its menu. */
  async openMenu(label: 'Fund actions' | 'Data actions' | 'Work paper actions'): Promise<Locator> {
    await this.toolbar.getByRole('button', { name: label }).click();
    const id = { 'Fund actions': 'fa-menu-fund', 'Data actions': 'fa-menu-data', 'Work paper actions': 'fa-menu-workpapers' }[label];
    const menu = this.page.locator(`#${id}`);
    await menu.waitFor();
    return menu;
  }

  /** Whether a menu item is disabled. */
  async menuItemDisabled(menu: Locator, label: string): Promise<boolean> {
    const item = menu.getByRole('menuitem', { name: label, exact: true });
    return (await item.getAttribute('aria-disabled')) === 'true';
  }

  /** Toast messages currently shown. */
  toast(text: string | RegExp): Locator {
    return this.page.locator('.p-toast-message').filter({ hasText: text });
  }
}
