import type { Locator } from 'playwright-core';
import { BackOffice } from './admin/back-office.ts';
import { PageModel } from './page-model.ts';

/** The help centre (/help, /help/faq, /help/notice, /help/article/:id). */
export class HelpCentrePage extends PageModel {
  readonly search = this.page.getByRole('searchbox');
  readonly results = this.page.getByTestId('help-results');

  async goto(path = '/help'): Promise<void> {
    await this.page.goto(path);
  }

  /** Types a search and waits for the results to name `title`; answers the hit's line. */
  async find(words: string, title: string): Promise<Locator> {
    await this.search.fill(words);
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

  async publish(): Promise<void> {
    await this.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await this.page.getByText('Published: customers see it now.').waitFor();
  }
}
