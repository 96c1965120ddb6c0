/** Page object: the auditor area (tabs, data platform tabs, funds listing, fund details, bulk upload, downloads). */
import type { Locator, Page } from 'playwright-core';

export class AuditorPage {
  constructor(readonly page: Page) {}

  get main(): Locator {
    return this.page.locator('main#fa-main');
  }

  /** Follows an auditor navigation tab (Home, Data Platform, WAM Tools, WAM Wiki). */
  async nav(label: string): Promise<void> {
    await this.page.getByTestId('auditor-tabs').getByRole('link', { name: label, exact: true }).click();
  }

  /** Shows a data platform tab by its label. */
  async dataTab(label: string): Promise<void> {
    await this.main.getByRole('tab', { name: label, exact: true }).click();
  }

  /** The visible dialog with a header matching `name`. */
  dialog(name: string | RegExp): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /** A toast containing `text`. */
  toast(text: string | RegExp): Locator {
    return this.page.locator('.p-toast-message', { hasText: text });
  }

  /** Closes every toast (before screenshots). */
  async dismissToasts(): Promise<void> {
    for (const close of await this.page.locator('.p-toast-icon-close').all()) await close.click({ timeout: 1000 }).catch(() => undefined);
    await this.page
      .locator('.p-toast-message')
      .first()
      .waitFor({ state: 'detached', timeout: 2000 })
      .catch(() => undefined);
  }

  // --- Status Reporting

  get statusReporting(): Locator {
    return this.page.getByTestId('status-reporting');
  }

  donut(id: 'late' | 'on-time'): Locator {
    return this.page.getByTestId(`donut-${id}`);
  }

  /** Legend lines of a donut as 'name count'. */
  async legend(id: 'late' | 'on-time'): Promise<string[]> {
    return (await this.donut(id).locator('.fa-legend li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  // --- Funds Listing

  get listing(): Locator {
    return this.page.getByTestId('funds-listing');
  }

  get listingRows(): Locator {
    return this.listing.locator('tbody tr');
  }

  /** Fund names in grid order. */
  async fundNames(): Promise<string[]> {
    await this.listing.locator('tbody [data-col="name"]').first().waitFor();
    return (await this.listing.locator('tbody [data-col="name"]').allInnerTexts()).map((t) => t.trim());
  }

  /** Header texts of the data columns. */
  async headers(): Promise<string[]> {
    return (await this.listing.locator('thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  }

  /** The first listing row holding `text`. */
  row(text: string): Locator {
    return this.listingRows.filter({ hasText: text }).first();
  }

  /** Ticks the selection checkbox of a row. */
  async select(text: string): Promise<void> {
    await this.row(text).locator('td').first().locator('.p-checkbox').click();
  }

  /** The text of a row's cell in a column (by column key). */
  async cell(text: string, key: string): Promise<string> {
    return (await this.row(text).locator(`[data-col="${key}"]`).innerText()).trim();
  }

  /** The fund status cell text of a row (with '*' when unchanged). */
  async status(text: string): Promise<string> {
    return (await this.row(text).getByTestId('fund-status').innerText()).trim();
  }

  action(label: string): Locator {
    return this.page.getByRole('toolbar', { name: 'Fund actions' }).getByRole('button', { name: label, exact: true });
  }

  // --- Fund details

  get details(): Locator {
    return this.page.getByRole('dialog', { name: /^Fund details/ });
  }

  get detailsFooter(): Locator {
    return this.details.locator('.p-dialog-footer');
  }

  async detailsTab(label: string | RegExp): Promise<void> {
    await this.details.getByRole('tab', { name: label }).click();
  }

  // --- Bulk upload

  get bulk(): Locator {
    return this.page.getByTestId('bulk-upload');
  }

  /** Uploads a file through the 'Bulk upload' modal. */
  async bulkUpload(file: string): Promise<void> {
    await this.bulk.getByRole('button', { name: 'Upload', exact: true }).click();
    const modal = this.dialog('Bulk upload');
    await modal.waitFor();
    await this.page.getByTestId('bulk-file-input').setInputFiles(file);
    await modal.getByRole('button', { name: 'Upload', exact: true }).click();
    await modal.waitFor({ state: 'hidden' });
  }

  get bulkResults(): Locator {
    return this.bulk.getByRole('table').locator('tbody tr');
  }

  // --- Downloads Queue

  get queue(): Locator {
    return this.page.getByTestId('downloads-queue');
  }

  get queueRows(): Locator {
    return this.queue.locator('tbody tr');
  }
}
