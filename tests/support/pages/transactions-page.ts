import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** /profile/transactions: the record, one card per entry, with its postings one click away. */
export class TransactionsPage extends PageModel {
  readonly records = this.page.locator('ol.records > li.record');

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/profile/transactions${query}`);
  }

  /** The first record that has an entry (newest first). */
  firstEntry(): Locator {
    return this.page.locator('li.record[data-entry]').first();
  }

  /** What a record says it was: kind, order number, result, fee. */
  what(record: Locator): Locator {
    return record.locator('.record-what');
  }

  /** Opens a record's postings and answers their table. */
  async openPostings(record: Locator): Promise<Locator> {
    await record.locator('.record-postings summary').click();
    return record.locator('.record-postings table');
  }

  postings(record: Locator): Locator {
    return record.locator('.record-postings table');
  }

  /** Opens every record's postings. */
  async openAllPostings(): Promise<void> {
    for (const summary of await this.page.locator('.record-postings summary').all()) await summary.click();
  }

  /** Exports the record as CSV; answers the file's path. */
  async exportCsv(): Promise<string> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    return download.path();
  }

  async filterByKind(kind: string): Promise<void> {
    await this.page.getByLabel('Type').selectOption(kind);
    await this.page.getByRole('button', { name: 'Apply' }).click();
  }

  /** The page's width against the screen's, read from the scrolling element. */
  width(): Promise<{ scrollWidth: number; clientWidth: number }> {
    return this.page.evaluate(() => {
      const root = document.scrollingElement as Element;
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
  }
}
