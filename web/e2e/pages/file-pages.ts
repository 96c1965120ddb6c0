/** Page objects: Import files, Export files and Input files (delivery file pages). */
import type { Locator, Page } from 'playwright-core';

/** Body rows of a PrimeReact grid (the empty-message row excluded). */
function gridRows(grid: Locator): Locator {
  return grid.locator('tbody.p-datatable-tbody > tr:not(.p-datatable-emptymessage)');
}

/** Import files (/import). */
export class ImportFilesPage {
  constructor(readonly page: Page) {}

  get grid(): Locator {
    return this.page.locator('.fa-import-grid');
  }

  get rows(): Locator {
    return gridRows(this.grid);
  }

  row(fileName: string): Locator {
    return this.rows.filter({ hasText: fileName }).first();
  }

  get fileInput(): Locator {
    return this.page.locator('.fa-upload input[type="file"]');
  }

  /** Chooses an administrator by its label. */
  async chooseAdministrator(label: string): Promise<void> {
    await this.page.locator('.fa-admin-select').click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  /** Chooses files and presses Upload. */
  async upload(...paths: string[]): Promise<void> {
    await this.fileInput.setInputFiles(paths);
    await this.page.locator('.fa-upload').getByRole('button', { name: 'Upload' }).click();
  }

  /** The status text of a file's row. */
  status(fileName: string): Promise<string> {
    return this.row(fileName).locator('.fa-status-tag').innerText();
  }

  /** Cells of a file's row (Administrator, File, Type, Sub Type, Status, Date). */
  async cells(fileName: string): Promise<string[]> {
    return (await this.row(fileName).locator('td').allInnerTexts()).map((t) => t.trim());
  }

  /** Hovers a row's status and returns the tooltip text. */
  async statusTooltip(fileName: string): Promise<string> {
    await this.row(fileName).locator('.fa-status-tag').hover();
    const tip = this.page.locator('.p-tooltip');
    await tip.waitFor();
    return tip.innerText();
  }
}

/** Export files (/export). */
export class ExportFilesPage {
  constructor(readonly page: Page) {}

  get grid(): Locator {
    return this.page.locator('.fa-export-grid');
  }

  get rows(): Locator {
    return gridRows(this.grid);
  }

  row(text: string): Locator {
    return this.rows.filter({ hasText: text }).first();
  }

  status(text: string): Promise<string> {
    return this.row(text).locator('.fa-status-tag').innerText();
  }

  downloadButton(text: string): Locator {
    return this.row(text).getByRole('button', { name: /^Download / });
  }

  get deleteOldButton(): Locator {
    return this.page.getByRole('button', { name: 'Delete export files older than 90 days' });
  }
}

/** Input files (/file-list). */
export class InputFilesPage {
  constructor(readonly page: Page) {}

  tab(label: string): Locator {
    return this.page.getByRole('tab', { name: label });
  }

  /** The grid of the shown tab. */
  get grid(): Locator {
    return this.page.locator('.p-tabview-panels .p-datatable');
  }

  get rows(): Locator {
    return gridRows(this.grid);
  }

  row(fileName: string): Locator {
    return this.rows.filter({ hasText: fileName }).first();
  }

  get toolbar(): Locator {
    return this.page.getByRole('toolbar', { name: 'Actions on selected files' });
  }

  async select(fileName: string): Promise<void> {
    await this.row(fileName).locator('td').first().locator('.p-checkbox').click();
  }

  /** Picks an option of a toolbar dropdown by the dropdown's label. */
  async choose(dropdownClass: 'fa-assignee-select' | 'fa-action-select', option: string): Promise<void> {
    await this.toolbar.locator(`.${dropdownClass}`).click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  /** Text of the value of a `data-field` in a row's sheet errors. */
  sheetField(fileName: string, field: 'columns_missing' | 'closest_match' | 'column_match_percent'): Promise<string> {
    return this.row(fileName).locator(`[data-field="${field}"]`).first().innerText();
  }
}
