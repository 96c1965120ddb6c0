/** Page object: the message pages (/404, /unauthorized, /authenticate, /signup). */
import type { Locator, Page } from 'playwright-core';

export class MessagePages {
  constructor(readonly page: Page) {}

  get notFoundHeading(): Locator {
    return this.page.getByRole('heading', { name: 'Page not found' });
  }

  get homeLink(): Locator {
    return this.page.getByRole('link', { name: 'Go to the home page' });
  }

  get unauthorizedMessage(): Locator {
    return this.page.getByTestId('unauthorized-message');
  }

  get authenticateHeading(): Locator {
    return this.page.getByRole('heading', { name: 'Sign in' });
  }

  /** The path of the current URL. */
  path(): string {
    return new URL(this.page.url()).pathname;
  }
}
