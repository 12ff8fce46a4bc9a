import type { FileChooser, Locator } from 'playwright-core';
import { expect } from 'vitest';
import { settled } from '../browser.ts';
import { BackOffice } from './admin/back-office.ts';
import { PageModel } from './page-model.ts';

/** The help centre (/help, /help/faq, /help/notice, /help/article/:id). */
export class HelpCentrePage extends PageModel {
  readonly search = this.page.getByRole('searchbox');
  readonly results = this.page.getByTestId('help-results');

  /** Opens a help page and waits until it has settled: a search typed into it earlier could be lost when its texts arrive. */
  async goto(path = '/help'): Promise<void> {
    await this.page.goto(path);
    await settled(this.page);
  }

  /** Types a search and waits for the results to name `title`; answers the hit's line. */
  async find(words: string, title: string): Promise<Locator> {
    await this.search.fill(words);
    // What the box holds is what the screen searches: typed again if a render replaced the box meanwhile.
    await expect
      .poll(async () => {
        if ((await this.search.inputValue()) !== words) await this.search.fill(words);
        return this.search.inputValue();
      })
      .toBe(words);
    const hit = this.results
      .getByRole('listitem')
      .filter({ has: this.page.getByRole('link', { name: title }) });
    await hit.waitFor();
    return hit;
  }
}

/** The back office's help-centre editor: a new article, a draft per language, publication. */
export class HelpEditorPage extends BackOffice {
  /** A new FAQ article with its first (English) text; waits for its editor. */
  async create(article: { slug: string; title: string; body: string }): Promise<void> {
    await this.page.getByRole('link', { name: 'New article' }).click();
    await this.heading('New help article', 2).waitFor();
    await this.page.getByLabel('Short name').fill(article.slug);
    await this.writeText(article.title, article.body);
    await this.page.getByRole('button', { name: 'Create draft' }).click();
    await this.heading(article.title, 2).waitFor();
  }

  /** Writes the title and the text of the language on screen. */
  async writeText(title: string, body: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Title' }).fill(title);
    await this.page.getByRole('textbox', { name: 'Text', exact: true }).fill(body);
  }

  /** Chooses a language (by its name, e.g. 'Deutsch'), writes its draft and saves it. */
  async saveDraft(language: string, title: string, body: string): Promise<void> {
    await this.page.getByRole('button', { name: new RegExp(`^${language} `) }).click();
    await this.page.getByRole('group', { name: language }).waitFor();
    await this.writeText(title, body);
    await this.page.getByRole('button', { name: 'Save draft' }).click();
    await this.page.getByText('Draft saved. Customers see it once it is published.').waitFor();
  }

  /** Opens a company or policy page's editor from the list of pages, by its English title. */
  async openPage(title: string): Promise<void> {
    await this.page.goto('/admin/help?type=pages');
    await this.page.getByRole('link', { name: title, exact: true }).click();
    await this.heading(title, 2).waitFor();
  }

  /** Chooses a language's text, writes it (an image described and uploaded at its end), saves it. */
  async writeWithImage(
    language: string,
    text: { title: string; body: string },
    image: { description: string; png: Buffer },
  ): Promise<void> {
    await this.page.getByRole('button', { name: new RegExp(`^${language} `) }).click();
    await this.page.getByRole('group', { name: language }).waitFor();
    await this.writeText(text.title, text.body);
    await this.page.getByRole('textbox', { name: 'Image description' }).fill(image.description);
    await this.page
      .getByLabel(/^Image file/)
      .setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: image.png });
    await this.page.getByText('Image added at the end of the text. Save the draft to keep it.').waitFor();
    await this.page.getByRole('button', { name: 'Save draft' }).click();
    await this.page.getByText('Draft saved. Customers see it once it is published.').waitFor();
  }

  /**
   * The same by keyboard alone after the text is written: Tab to the image's description, Tab to
   * its file (Space opens the picker), Tab to "Save draft", Enter. Answers the names focus met.
   */
  async writeWithImageByKeyboard(
    language: string,
    text: { title: string; body: string },
    image: { description: string; png: Buffer },
  ): Promise<string[]> {
    await this.page.getByRole('button', { name: new RegExp(`^${language} `) }).click();
    await this.page.getByRole('group', { name: language }).waitFor();
    await this.writeText(text.title, text.body);
    const met: string[] = [];
    const focused = async () =>
      met.push(
        await this.page.evaluate(() => {
          const element = document.activeElement as HTMLInputElement | null;
          return (element?.labels?.[0]?.textContent ?? element?.textContent ?? '').trim();
        }),
      );
    // The picker is caught from here on: Playwright asks the browser to hand it over only when a
    // listener exists, and that request can still be on its way when a keystroke made just after
    // it opens the picker (seen on a busy machine: the picker opened unseen, 30 s passed).
    const chooser = new Promise<FileChooser>((resolve) => this.page.once('filechooser', resolve));
    await this.page.keyboard.press('Tab');
    await focused();
    await this.page.keyboard.type(image.description);
    // The file input is disabled until the description is in: Tab only once it is enabled, or
    // focus skips it (on a busy machine the re-render can come after the keystroke). The input of
    // the chosen language's form, found from its group: not whichever file input comes first.
    const input = this.page.getByRole('group', { name: language }).locator('input[type="file"]');
    await expect.poll(() => input.isEnabled()).toBe(true);
    await this.page.keyboard.press('Tab');
    await focused();
    await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
    await this.page.keyboard.press('Space');
    await (await chooser).setFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: image.png });
    await this.page.getByText('Image added at the end of the text. Save the draft to keep it.').waitFor();
    await this.page.keyboard.press('Tab');
    await focused();
    await this.page.keyboard.press('Enter');
    await this.page.getByText('Draft saved. Customers see it once it is published.').waitFor();
    return met;
  }

  /** The preview's image of that description, once it has loaded. */
  async previewImage(description: string): Promise<Locator> {
    const image = this.page.getByTestId('help-preview').getByRole('img', { name: description });
    await image.waitFor();
    await image.evaluate((node) => (node as HTMLImageElement).decode());
    return image;
  }

  async publish(): Promise<void> {
    await this.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await this.page.getByText('Published: customers see it now.').waitFor();
  }
}
