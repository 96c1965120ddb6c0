/** Page object: the test identity provider's pages (login form, logout confirmation). */
import type { Locator, Page } from 'playwright-core';

export class IdentityProviderPage {
  constructor(readonly page: Page) {}

  get loginInput(): Locator {
    return this.page.locator('input[name="login"]');
  }

  get signOutButton(): Locator {
    return this.page.getByRole('button', { name: 'Yes, sign me out' });
  }

  /** Signs in on the provider's login form (any password). */
  async signIn(login: string): Promise<void> {
    await this.loginInput.waitFor();
    await this.loginInput.fill(login);
    await this.page.locator('input[name="password"]').fill('any password');
    await this.page.getByRole('button', { name: 'Sign-in' }).click();
  }
}
