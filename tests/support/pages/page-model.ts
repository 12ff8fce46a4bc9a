import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What every page model stands on: the Playwright page, and the reads every screen shares. A page
 * model holds a screen's locators and offers what a person does there (intents), so a test reads
 * as a story: `await login.logIn('lena@example.com', 'a safe passphrase')`. Assertions stay in the
 * tests; a model only waits for what its intent needs.
 */
export class PageModel {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  /** The path of the address bar, without the query. */
  pathname(): string {
    return new URL(this.page.url()).pathname;
  }

  /** The path and query of the address bar. */
  path(): string {
    const url = new URL(this.page.url());
    return url.pathname + url.search;
  }

  /** Waits until the address bar's path (without the query) is `pathname`. */
  async waitForPath(pathname: string | RegExp, timeout?: number): Promise<void> {
    const poll = expect.poll(() => this.pathname(), timeout ? { timeout } : {});
    if (typeof pathname === 'string') await poll.toBe(pathname);
    else await poll.toMatch(pathname);
  }

  /** The document's direction: 'rtl' in Arabic, 'ltr' otherwise. */
  dir(): Promise<string> {
    return this.page.evaluate(() => document.documentElement.dir);
  }

  /** How far the page sticks out sideways (≤ 0: no horizontal scrolling). */
  overflow(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }

  /** A value of the app's local storage. */
  stored(key: string): Promise<string | null> {
    return this.page.evaluate((k) => localStorage.getItem(k), key);
  }

  /** Sets the app's language in local storage (read at the next load). */
  async setLanguage(language: string): Promise<void> {
    await this.page.evaluate((l) => localStorage.setItem('language', l), language);
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}
