import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** Which parts of the shell a page has. */
export type Chrome = { topBar: boolean; footer: boolean; mobileBar: boolean; tabBar: boolean };

/** The desktop shell around every page: the top bar (tabs, language, service, login) and the footer. */
export class Shell extends PageModel {
  readonly topBar = this.page.locator('.top-bar');
  readonly footer = this.page.locator('.site-footer');
  readonly main = this.page.locator('main#main');
  readonly title = this.page.locator('h1.page-title');

  chrome(): Promise<Chrome> {
    return this.page.evaluate(() => ({
      topBar: document.querySelector('.top-bar') !== null,
      footer: document.querySelector('.site-footer') !== null,
      mobileBar: document.querySelector('.mobile-bar') !== null,
      tabBar: document.querySelector('.tab-bar') !== null,
    }));
  }

  tabs(): Promise<string[]> {
    return this.page.locator('nav.tabs a').allInnerTexts();
  }

  languageButton(): Locator {
    return this.page.getByRole('button', { name: /Change language/ }).first();
  }

  /** Opens the language menu from `from` (the top bar's button by default) and picks a language. */
  async chooseLanguage(language: string, from: Locator = this.languageButton()): Promise<void> {
    await from.click();
    await this.page.locator(`button[data-language="${language}"]`).click();
  }

  serviceLink(): Locator {
    return this.topBar.locator('a[href^="/service.html"]');
  }

  /** The element that has the keyboard focus: its text and link target. */
  focused(): Promise<{ text: string | null; href: string | null }> {
    return this.page.evaluate(() => ({
      text: document.activeElement?.textContent ?? null,
      href: document.activeElement?.getAttribute('href') ?? null,
    }));
  }
}
