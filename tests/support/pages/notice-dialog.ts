import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The blocking dialog an unread notice opens in; closing it marks the notice read. */
export class NoticeDialog {
  readonly dialog: Locator;
  private readonly page: Page;

  constructor(page: Page) {
    this.page = page;
    this.dialog = page.locator('dialog.notice-dialog[open]');
  }

  heading(): Promise<string> {
    return this.dialog.getByRole('heading').innerText();
  }

  text(): Promise<string> {
    return this.dialog.innerText();
  }

  /**
   * Closes the open notice (its button named `label` in the page's language), waits until the server
   * has marked it read (a page left before that shows it again) and until none is open.
   */
  async close(label = 'Close'): Promise<void> {
    const marked = this.page.waitForResponse((r) => r.url().includes('/user/readNotice') && r.ok());
    await this.dialog.getByRole('button', { name: label }).click();
    await marked;
    await expect.poll(() => this.dialog.count()).toBe(0);
  }

  /**
   * Closes the notice in front and waits until it is gone or the next unread one took its place;
   * answers the text of the one closed.
   */
  async closeNext(timeout: number): Promise<string> {
    await this.dialog.waitFor({ timeout });
    const shown = await this.dialog.innerText();
    const marked = this.page.waitForResponse((r) => r.url().includes('/user/readNotice') && r.ok());
    await this.dialog.getByRole('button', { name: 'Close' }).click();
    await marked;
    await expect
      .poll(async () => ((await this.dialog.count()) === 0 ? '' : await this.dialog.innerText()))
      .not.toBe(shown);
    return shown;
  }
}
