import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { PageModel } from './page-model.ts';

/** /market (and the home page's list): a row per instrument, tabs per market, search, sort, watchlist. */
export class MarketPage extends PageModel {
  /** The rows rendered (a virtual list renders those in view; its spacer rows are not counted). */
  readonly rows = this.page.locator('tbody tr[data-code]');
  readonly search = this.page.getByPlaceholder('Search by name or code');

  async goto(tab?: string): Promise<void> {
    await this.page.goto(tab ? `/market?tab=${tab}` : '/market');
  }

  /** The instruments the table says it lists (its aria-rowcount, less the header row). */
  async listed(): Promise<number> {
    return Number(await this.page.locator('table[aria-rowcount]').getAttribute('aria-rowcount')) - 1;
  }

  /** The aria-rowindex of every row rendered, in order. */
  rowIndexes(): Promise<number[]> {
    return this.rows.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('aria-rowindex'))));
  }

  /**
   * Scrolls the list until the instrument's row is rendered (a long list renders the rows in view),
   * and answers it.
   */
  async show(code: string): Promise<Locator> {
    const row = this.row(code);
    await this.rows.first().waitFor();
    await this.page.evaluate(() => window.scrollTo(0, 0));
    for (let i = 0; i < 200 && (await row.count()) === 0; i++) {
      const atEnd = await this.page.evaluate(async () => {
        const end = window.scrollY + window.innerHeight >= document.body.scrollHeight - 1;
        window.scrollBy(0, window.innerHeight / 2);
        // The rows now in view are rendered by the next frames.
        for (let frame = 0; frame < 3; frame++) await new Promise(requestAnimationFrame);
        return end;
      });
      if (atEnd) break;
    }
    await row.waitFor();
    await row.scrollIntoViewIfNeeded();
    return row;
  }

  row(code: string): Locator {
    return this.page.locator(`tr[data-code="${code}"]`);
  }

  tab(name: string): Locator {
    return this.page.getByRole('tab', { name });
  }

  async sortBy(key: string): Promise<void> {
    await this.page.getByLabel('Sort by').selectOption(key);
  }

  /** The change column of the first `count` rows, as numbers. */
  async changes(count: number): Promise<number[]> {
    const texts = await this.rows.evaluateAll(
      (rows, n) => rows.slice(0, n).map((r) => r.querySelector('.change')?.textContent ?? ''),
      count,
    );
    return texts.map((c) => Number(c.replace(/[^\d.+-]/g, '')));
  }

  /** The watchlist star of an instrument: one label, its state in aria-pressed. */
  star(name: string): Locator {
    return this.page.getByRole('button', { name: `${name} in watchlist`, exact: true });
  }

  async watch(name: string): Promise<void> {
    await this.star(name).click();
    await expect.poll(() => this.star(name).getAttribute('aria-pressed')).toBe('true');
  }

  /** How far the list sticks out of its scroller (≤ 0: it fits). */
  listOverflow(): Promise<number> {
    return this.page.locator('.table-scroll').evaluate((el) => el.scrollWidth - el.clientWidth);
  }

  /** A code in the table that no other row contains, so searching it leaves one row. */
  async uniqueCode(): Promise<string> {
    await this.page.locator('tr[data-code]').first().waitFor();
    const rows = await this.page.locator('tr[data-code]').evaluateAll((trs) =>
      trs.map((tr) => ({
        code: (tr as HTMLElement).dataset.code ?? '',
        text: (tr.textContent ?? '').toLowerCase(),
      })),
    );
    for (const { code } of rows)
      if (code && rows.filter((row) => row.text.includes(code.toLowerCase())).length === 1) return code;
    throw new Error(`no unique code among ${rows.map((r) => r.code).join(', ')}`);
  }
}
