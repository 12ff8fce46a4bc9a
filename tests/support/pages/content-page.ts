import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** A content page (/detail?id=…, /introduction) and the home page's operator parts. */
export class ContentPage extends PageModel {
  readonly prose = this.page.locator('.prose');
  readonly sandboxNotice = this.page.locator('[data-sandbox-notice]');
  readonly footer = this.page.locator('.site-footer');

  async goto(path: string): Promise<void> {
    await this.page.goto(path);
  }

  /** Everything visible on the page, as text. */
  visibleText(): Promise<string> {
    return this.page.evaluate(() => document.body.innerText);
  }

  /** A figure of the home page counted by the server (users, instruments, crypto). */
  stat(name: string): Locator {
    return this.page.locator(`[data-stat="${name}"]`);
  }
}
