import type { Locator } from 'playwright-core';
import { PageModel } from './page-model.ts';

/** A list of figures (`[data-figure]` rows): each row's exact value and its text. */
export type Figures = Record<string, { value: string; text: string }>;

async function figuresOf(list: Locator): Promise<Figures> {
  return list.evaluate((root) => {
    const rows: Figures = {};
    for (const row of root.querySelectorAll<HTMLElement>('[data-figure]'))
      rows[row.dataset.figure ?? ''] = { value: row.dataset.value ?? '', text: row.innerText };
    return rows;
  });
}

/**
 * /swap: the pairs and rates (public), the form with its live quote counted down, the confirm
 * dialog, the result, and recent swaps; logged out, a sign-in prompt instead of the form.
 */
export class SwapPage extends PageModel {
  readonly pairs = this.page.getByTestId('swap-pairs');
  readonly signIn = this.page.getByTestId('swap-sign-in');
  readonly form = this.page.getByTestId('swap-form');
  readonly from = this.form.locator('select[name="from"]');
  readonly to = this.form.locator('select[name="to"]');
  readonly flip = this.page.getByTestId('swap-flip');
  readonly amount = this.form.locator('input[name="amount"]');
  readonly max = this.page.getByTestId('swap-max');
  readonly quotePanel = this.page.getByTestId('swap-quote');
  readonly quote = this.page.getByTestId('quote-figures');
  readonly review = this.page.getByTestId('swap-review');
  readonly shortBalance = this.page.getByTestId('short-balance');
  readonly refusal = this.page.getByTestId('swap-refusal');
  readonly confirm = this.page.getByTestId('swap-confirm');
  readonly confirmFigures = this.confirm.getByTestId('confirm-figures');
  readonly confirmButton = this.confirm.locator('.button.primary');
  readonly result = this.page.getByTestId('swap-result');
  readonly history = this.page.getByTestId('swap-history');

  async goto(): Promise<void> {
    await this.page.goto('/swap');
    await this.page.locator('.swap-page .page-title').waitFor();
  }

  /** A pair's card in the list of pairs and rates. */
  pair(from: string, to: string): Locator {
    return this.pairs.locator(`[data-pair="${from}-${to}"]`);
  }

  /** Picks the pair to swap. */
  async choose(from: string, to: string): Promise<void> {
    await this.from.selectOption(from);
    await this.to.selectOption(to);
  }

  /** Types an amount; with `quoted`, waits for its quote. */
  async enter(amount: string, quoted = true): Promise<void> {
    await this.amount.fill(amount);
    if (quoted) await this.quote.locator(`[data-figure="amount"]`).waitFor();
  }

  quoteFigures(): Promise<Figures> {
    return figuresOf(this.quote);
  }

  /** The quote the form shows (its id). */
  quoteId(scope: Locator = this.quote): Promise<string | null> {
    return scope.getAttribute('data-quote');
  }

  /** The countdown's words in the form or, with `scope`, in the dialog. */
  countdown(scope: Locator = this.quotePanel): Locator {
    return scope.getByTestId('quote-countdown');
  }

  /** The button that asks for a new quote (in the form or, with `scope`, in the dialog). */
  newQuote(scope: Locator = this.quotePanel): Locator {
    return scope.getByTestId('new-quote');
  }

  /** Opens the confirm step; answers its figures. */
  async openConfirm(): Promise<Figures> {
    await this.review.click();
    await this.confirmFigures.waitFor();
    return figuresOf(this.confirmFigures);
  }

  confirmedFigures(): Promise<Figures> {
    return figuresOf(this.confirmFigures);
  }

  /** Accepts the quote on the dialog. */
  async accept(): Promise<void> {
    await this.confirmButton.click();
  }

  /** Waits until the dialog's quote ran out (its countdown says so). */
  async waitForExpiry(timeout = 15_000): Promise<void> {
    await this.confirm.getByTestId('quote-expired').waitFor({ timeout });
  }

  resultFigures(): Promise<Figures> {
    return figuresOf(this.result);
  }
}
