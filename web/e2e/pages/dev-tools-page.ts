/** Page objects: Settings (/dev-tools) and Key generator (/api-key-generator). */
import type { Locator, Page } from 'playwright-core';
import { chooseById } from '../support/dropdown';

/** Settings with its three tabs. */
export class SettingsPage {
  constructor(readonly page: Page) {}

  async tab(name: 'Options' | 'Developer tools' | 'Developer logs'): Promise<void> {
    await this.page.getByRole('tab', { name, exact: true }).click();
  }

  /** A card or group by its accessible name ('Dev info', 'Configurations branch', 'Database', ...). */
  region(name: string): Locator {
    return this.page
      .getByRole('region', { name, exact: true })
      .or(this.page.getByRole('group', { name, exact: true }))
      .first();
  }

  table(name: string): Locator {
    return this.page.getByRole('table', { name, exact: true });
  }

  /** Cells of the row of a table whose text contains `text`. */
  async rowCells(table: string, text: string): Promise<string[]> {
    const row = this.table(table).locator('tbody tr').filter({ hasText: text }).first();
    await row.waitFor();
    return (await row.locator('td').allInnerTexts()).map((t) => t.trim());
  }

  /** A fact of a branch ('branch', 'behind', 'latestCommit'). */
  branchFact(branch: 'Configurations branch' | 'Testing branch', field: string): Promise<string> {
    return this.region(branch).locator(`[data-field="${field}"]`).innerText();
  }

  /** A service switch by its label ('Pipeline', 'Inbox sweeper'). */
  serviceSwitch(label: string): Locator {
    return this.page.locator(`.p-inputswitch:has(input[id="${label === 'Pipeline' ? 'fa-service-pipeline' : 'fa-service-sweeper'}"])`);
  }

  dbButton(name: string): Locator {
    return this.page.getByRole('toolbar', { name: 'Database actions' }).getByRole('button', { name, exact: true });
  }

  /** Picks an option of a dropdown by the id of its input. */
  async choose(inputId: string, option: string | RegExp): Promise<void> {
    await chooseById(this.page, inputId, option);
  }

  dialog(name: string): Locator {
    return this.page.getByRole('alertdialog', { name }).or(this.page.getByRole('dialog', { name }));
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.p-toast-message').filter({ hasText: text });
  }
}

/** The key generator. */
export class KeyGeneratorPage {
  constructor(readonly page: Page) {}

  section(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  async sectionTitles(): Promise<string[]> {
    await this.page.locator('.fa-key-section h2').first().waitFor();
    return (await this.page.locator('.fa-key-section h2').allInnerTexts()).map((t) => t.trim());
  }

  /** Presses 'Generate new key' in a section and confirms; answers the key shown. */
  async generate(title: string): Promise<string> {
    const before = (await this.keyField(title).count()) ? await this.keyField(title).inputValue() : '';
    await this.section(title).getByRole('button', { name: 'Generate new key' }).click();
    const ask = this.page.getByRole('alertdialog', { name: `New ${title} key` }).or(this.page.getByRole('dialog', { name: `New ${title} key` }));
    await ask.getByRole('button', { name: 'Generate', exact: true }).click();
    const field = this.keyField(title);
    await field.waitFor();
    for (let i = 0; i < 50 && (await field.inputValue()) === before; i++) await this.page.waitForTimeout(100);
    return field.inputValue();
  }

  keyField(title: string): Locator {
    return this.section(title).getByRole('textbox', { name: `${title} key` });
  }
}
