/** Page object of the delivery Bulk upload screen (/funds/upload). */
import type { Locator, Page } from 'playwright-core';

export class BulkUploadPage {
  constructor(readonly page: Page) {}

  get fileInput(): Locator {
    return this.page.locator('.fa-upload input[type="file"]');
  }

  /** Chooses one file and presses Upload. */
  async upload(path: string): Promise<void> {
    await this.fileInput.setInputFiles(path);
    await this.page.locator('.fa-upload').getByRole('button', { name: 'Upload' }).click();
  }

  /** The approved grid or the requires-action / declined grid. */
  grid(name: 'Approved' | 'Requires action and declined'): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }

  /** Data rows of a grid (the empty-message row left out). */
  rows(name: 'Approved' | 'Requires action and declined'): Locator {
    return this.grid(name).locator('tbody tr:not(.p-datatable-emptymessage)');
  }

  /** The row of a fund code in a grid. */
  row(name: 'Approved' | 'Requires action and declined', fundCode: string): Locator {
    return this.rows(name).filter({ hasText: fundCode });
  }

  /** Fund codes listed in a grid, in order. */
  async codes(name: 'Approved' | 'Requires action and declined'): Promise<string[]> {
    return (await this.rows(name).locator('td:nth-child(8)').allInnerTexts()).map((t) => t.trim());
  }

  /** Ticks or unticks a row. */
  async tick(name: 'Approved' | 'Requires action and declined', fundCode: string): Promise<void> {
    await this.row(name, fundCode).locator('.p-checkbox').first().click();
  }

  button(label: string): Locator {
    return this.page.getByRole('button', { name: label });
  }
}
