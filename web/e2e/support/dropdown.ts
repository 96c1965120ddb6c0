/** Picking an option of a PrimeReact dropdown, as a user does: open it, click the option. */
import type { Page } from 'playwright-core';

/** Opens the dropdown around the input with this id and clicks the first option matching `option`. */
export async function chooseById(page: Page, inputId: string, option: string | RegExp): Promise<void> {
  await page.locator(`.p-dropdown:has(#${inputId})`).click();
  await page.locator('.p-dropdown-item', { hasText: option }).first().click();
}

/** The same for the dropdown whose input has this exact label. */
export async function chooseByLabel(page: Page, label: string, option: string | RegExp): Promise<void> {
  const id = await page.getByLabel(label, { exact: true }).getAttribute('id');
  if (!id) throw new Error(`dropdown '${label}' has no input id`);
  await chooseById(page, id, option);
}
