import type { Locator } from 'playwright-core';
import { Shell } from './shell.ts';

/** The phone shell: the top bar (title, back, language, service, login, bell), the tab bar, the welcome board. */
export class MobileShell extends Shell {
  readonly bar = this.page.locator('.mobile-bar');
  readonly tabBar = this.page.locator('.tab-bar');
  readonly mobileTitle = this.page.locator('.mobile-title');
  readonly welcomeBoard = this.page.locator('dialog.welcome-board');

  override languageButton(): Locator {
    return this.bar.getByRole('button', { name: /Change language/ });
  }

  barLink(name: string): Locator {
    return this.bar.getByRole('link', { name });
  }

  back(): Locator {
    return this.bar.getByRole('button', { name: 'Back' });
  }

  /** Goes to a route inside the app, as a link would (no reload). */
  async navigate(route: string): Promise<void> {
    await this.page.evaluate((r) => {
      history.pushState({}, '', r);
      dispatchEvent(new PopStateEvent('popstate'));
    }, route);
  }
}
