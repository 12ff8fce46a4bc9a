import { PageModel } from './page-model.ts';

/** /profile/language: one button per language; a choice applies at once. */
export class LanguagePage extends PageModel {
  async goto(): Promise<void> {
    await this.page.goto('/profile/language');
  }

  async choose(language: string): Promise<void> {
    await this.page.getByRole('main').locator(`button[data-language="${language}"]`).click();
  }
}
