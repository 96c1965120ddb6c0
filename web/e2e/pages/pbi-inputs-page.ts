/** Page object: PowerBI inputs (/pbi-inputs). */
import type { Locator, Page } from 'playwright-core';

export class PbiInputsPage {
  constructor(readonly page: Page) {}

  get grid(): Locator {
    return this.page.locator('.fa-pbi-grid');
  }

  get rows(): Locator {
    return this.grid.locator('tbody.p-datatable-tbody > tr:not(.p-datatable-emptymessage)');
  }

  row(fileName: string): Locator {
    return this.rows.filter({ hasText: fileName }).first();
  }

  /** Cells of a file's row (Input Type, File Name, SAS Token, Uploaded By, Token Expiry Date, Upload Date). */
  async cells(fileName: string): Promise<string[]> {
    return (await this.row(fileName).locator('td').allInnerTexts()).map((t) => t.trim());
  }

  get fileInput(): Locator {
    return this.page.locator('.fa-upload input[type="file"]');
  }

  async chooseType(label: string): Promise<void> {
    await this.page.locator('.fa-pbi-type').click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  /** Chooses a file and presses Upload. */
  async upload(path: string): Promise<void> {
    await this.fileInput.setInputFiles(path);
    await this.page.locator('.fa-upload').getByRole('button', { name: 'Upload' }).click();
  }

  /** The download address shown once after a save. */
  savedAddress(fileName: string): Locator {
    return this.page.getByRole('textbox', { name: `Download address of ${fileName}` });
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.p-toast-message').filter({ hasText: text });
  }
}
