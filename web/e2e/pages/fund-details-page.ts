/** Page object of the delivery Fund details page (/fund/{id}, /fund/create). */
import type { Locator, Page } from 'playwright-core';
import { chooseById } from '../support/dropdown';

export class FundDetailsPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.locator('.fa-fd-header h2');
  }

  get status(): Locator {
    return this.page.getByTestId('fund-status');
  }

  /** A button of the page's toolbar ('Edit', 'Save', 'Delete', 'More actions', ...). */
  button(name: string): Locator {
    return this.page.getByRole('toolbar', { name: 'Fund actions' }).getByRole('button', { name, exact: true });
  }

  /** Opens a tab of the page (top-level tab bar). */
  async tab(name: string | RegExp): Promise<void> {
    await this.page.locator('.fa-fd-tabs').getByRole('tab', { name, exact: true }).first().click();
  }

  /** Names of the top-level tabs, in order. */
  async tabNames(): Promise<string[]> {
    return (await this.page.locator('.fa-fd-tabs .p-tabview-nav').first().getByRole('tab').allInnerTexts()).map((t) => t.trim());
  }

  /** The read-only value (or the control's wrapper in edit mode) of a field by its key. */
  field(key: string): Locator {
    return this.page.locator(`[data-field="${key}"]`).first();
  }

  /** A PrimeReact dropdown of the form by the id of its input, and picks the first option matching `option`. */
  async choose(inputId: string, option: string | RegExp): Promise<void> {
    await chooseById(this.page, inputId, option);
  }

  /** Opens More actions and runs an item (a nested item by its group first, e.g. ['Db push', 'set']). */
  async moreAction(label: string): Promise<void> {
    await this.button('More actions').click();
    await this.page.locator('#fa-fd-more').getByRole('menuitem', { name: label, exact: true }).click();
  }

  /** A file grid of the Files tab. */
  files(title: 'Input files' | 'Standardization files' | 'Calculation files' | 'Work papers'): Locator {
    return this.page.getByRole('table', { name: title });
  }

  /** The status cell of a file row. */
  async fileStatus(title: 'Input files' | 'Standardization files' | 'Calculation files' | 'Work papers', fileName: string): Promise<string> {
    return (await this.files(title).locator(`tr[data-file="${fileName}"] td[data-col="status"]`).innerText()).trim();
  }

  /** A table of a tab by its label. */
  table(label: string): Locator {
    return this.page.getByRole('table', { name: label });
  }

  /** The 'You have validation errors' banner. */
  get validationErrors(): Locator {
    return this.page.getByTestId('validation-errors');
  }

  dialog(name: string): Locator {
    return this.page.getByRole('alertdialog', { name }).or(this.page.getByRole('dialog', { name }));
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.p-toast-message').filter({ hasText: text });
  }
}
