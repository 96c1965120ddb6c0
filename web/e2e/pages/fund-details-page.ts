/** Page object of the delivery Fund details page (/fund/{id}, /fund/create). */
import type { Locator, Page } from 'playwright-core';

export class FundDetailsPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.locator('.fa-fd-header h2');
  }

  get status(): Locator {
    return this.page.getByTestId('fund-status');
  }

  button(name: string): Locator {
    return this.page.getByRole('toolbar', { name: 'Fund actions' }).getByRole('button', { name, exact: true });
  }

  /** Opens a tab of the page (top-level tab bar). */
  async tab(name: string | RegExp): Promise<void> {
    await this.page.locator('.fa-fd-tabs').getByRole('tab', { name, exact: true }).first().click();
  }

  /** A file grid of the Files tab. */
  files(title: 'Input files' | 'Standardization files' | 'Calculation files' | 'Work papers'): Locator {
    return this.page.getByRole('table', { name: title });
  }

  /** The status cell of a file row. */
  async fileStatus(title: 'Input files' | 'Standardization files' | 'Calculation files' | 'Work papers', fileName: string): Promise<string> {
    return (await this.files(title).locator(`tr[data-file="${fileName}"] td[data-col="status"]`).innerText()).trim();
  }

  /** A table of a log tab by its label. */
  table(label: string): Locator {
    return this.page.getByRole('table', { name: label });
  }

  dialog(name: string): Locator {
    return this.page.getByRole('alertdialog', { name }).or(this.page.getByRole('dialog', { name }));
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.p-toast-message').filter({ hasText: text });
  }
}
