/** Page object: the sign-in flow (redeem link, negotiation, privacy notice). */
import type { Locator, Page } from 'playwright-core';

export class SignInPage {
  constructor(readonly page: Page) {}

  get processing(): Locator {
    return this.page.getByText('Processing sign in...');
  }

  get negotiating(): Locator {
    return this.page.getByText('Negotiating sign in...');
  }

  get privacyDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Privacy notice' });
  }

  get privacyText(): Locator {
    return this.page.getByTestId('privacy-scroll');
  }

  get acceptButton(): Locator {
    return this.privacyDialog.getByRole('button', { name: 'Accept' });
  }

  get rejectButton(): Locator {
    return this.privacyDialog.getByRole('button', { name: 'Reject' });
  }

  /** Opens a one-time sign-in link. */
  async open(link: string): Promise<void> {
    await this.page.goto(link);
  }

  /** Scrolls the notice text so that `pxFromBottom` pixels remain below the view. */
  async scrollPrivacyTo(pxFromBottom: number): Promise<void> {
    await this.privacyText.evaluate((el, rest) => {
      el.scrollTop = Math.max(0, el.scrollHeight - el.clientHeight - rest);
      el.dispatchEvent(new Event('scroll'));
    }, pxFromBottom);
  }

  /** Scrolls the notice text to its end. */
  async scrollPrivacyToBottom(): Promise<void> {
    await this.scrollPrivacyTo(0);
  }

  /** Whether the notice text is long enough to need scrolling. */
  async privacyScrolls(): Promise<boolean> {
    return this.privacyText.evaluate((el) => el.scrollHeight - el.clientHeight > 50);
  }

  /** Full sign-in: open the link, accept the privacy notice, wait for the frame. */
  async signIn(link: string): Promise<void> {
    await this.open(link);
    await this.privacyDialog.waitFor();
    await this.scrollPrivacyToBottom();
    await this.acceptButton.click();
    await this.page.locator('[data-frame]').waitFor();
  }
}
