/** Page object: the signed-in frame (header, delivery sider, auditor tabs, profile, connection). */
import type { Locator, Page } from 'playwright-core';

export class ShellPage {
  constructor(readonly page: Page) {}

  /** 'delivery' or 'auditor' once a frame is shown. */
  async frameKind(): Promise<string | null> {
    const frame = this.page.locator('[data-frame]');
    await frame.waitFor();
    return frame.getAttribute('data-frame');
  }

  get header(): Locator {
    return this.page.locator('header.fa-header');
  }

  get appName(): Locator {
    return this.header.locator('.fa-app-name');
  }

  get pageTitle(): Locator {
    return this.page.getByTestId('page-title');
  }

  get main(): Locator {
    return this.page.locator('main#fa-main');
  }

  get sider(): Locator {
    return this.page.getByTestId('delivery-sider');
  }

  get auditorTabs(): Locator {
    return this.page.getByTestId('auditor-tabs');
  }

  get connection(): Locator {
    return this.page.getByTestId('connection-indicator');
  }

  get footerConnection(): Locator {
    return this.page.getByTestId('footer-connection');
  }

  /** Link texts of the delivery sider, then its buttons (the switch link). */
  async siderEntries(): Promise<string[]> {
    await this.sider.waitFor();
    return (await this.sider.locator('a, button.fa-switch-link').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  }

  /** Labels of the auditor tabs. */
  async tabLabels(): Promise<string[]> {
    await this.auditorTabs.waitFor();
    return (await this.auditorTabs.locator('a').allInnerTexts()).map((t) => t.trim());
  }

  /** The hover list of the connection indicator as 'Label=value' lines. */
  async connectionDetails(): Promise<string[]> {
    await this.connection.hover();
    const lines = this.page.locator('#fa-conn-details .fa-conn-line');
    await lines.first().waitFor();
    const texts = await lines.evaluateAll((els) =>
      els.map((el) => `${el.querySelector('dt')?.textContent ?? ''}=${el.querySelector('dd')?.textContent ?? ''}`),
    );
    return texts;
  }

  /** Opens the profile dropdown. */
  async openProfile(): Promise<Locator> {
    await this.header.locator('.fa-profile-button').click();
    const menu = this.page.getByRole('group', { name: 'Profile' });
    await menu.waitFor();
    return menu;
  }

  /** The lines the open profile menu shows the e-mail address on (where the browser wrapped it). */
  async profileEmailLines(): Promise<string[]> {
    return this.page.locator('.fa-profile-email').evaluate((dd) => {
      const lines: Array<{ top: number; text: string }> = [];
      const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const top = Math.round(range.getBoundingClientRect().top);
          const last = lines[lines.length - 1];
          if (last && Math.abs(last.top - top) < 4) last.text += text[i];
          else lines.push({ top, text: text[i] });
        }
      }
      return lines.map((l) => l.text);
    });
  }

  /** Logs out through the profile dropdown. */
  async logout(): Promise<void> {
    const menu = await this.openProfile();
    await menu.getByRole('button', { name: 'Logout' }).click();
  }

  async switchToAuditor(): Promise<void> {
    await this.page.getByRole('button', { name: 'Switch to auditor' }).click();
  }

  async switchToDelivery(): Promise<void> {
    await this.page.getByRole('button', { name: 'Switch to delivery team' }).click();
  }
}
