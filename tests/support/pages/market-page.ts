import type { Locator } from 'playwright-core';
import { expect } from 'vitest';
import { PageModel } from './page-model.ts';

/** /market (and the home page's list): a row per instrument, tabs per market, search, sort, watchlist. */
export class MarketPage extends PageModel {
  readonly rows = this.page.locator('tbody tr');
  readonly search = this.page.getByPlaceholder('Search by name or code');

  async goto(tab?: string): Promise<void> {
    await this.page.goto(tab ? `/market?tab=${tab}` : '/market');
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
